// The Sessions view's tree, without the editor API: each session agent's projects or days (as its format's adapter
// says), their sessions (newest first, or by size, cost, saving), sub-agents under their session; each with the
// words it shows, its verdict first (the cheapest strategy against the baseline, ranked as the view's card ranks).
// The figures come in as they are computed (a session without them yet shows what the listing knows).
import { breaksTotal, causeCostWords, costliestOf } from '../core/cacheBreaks';
import type { PolicyName } from '../core/engine/policy';
import { discoverableFormats } from '../core/formats/registry';
import type { SessionDescriptor } from '../core/formats/types';
import type { SessionFigures } from '../core/history';
import type { FormatId } from '../core/model';
import { describedBy } from '../core/threads';
import { rankTotals, type VerdictRanking } from '../core/verdict';
import type { SessionFile } from '../node/sessionFiles';
import { costAgainst, dollars, signedPercent, verdictHeadline } from '../verdictWords';

export type SortKey = 'date' | 'size' | 'cost' | 'saving' | 'requests';
export const SORT_KEYS: { key: SortKey; label: string }[] = [
  { key: 'date', label: 'Newest first' },
  { key: 'size', label: 'Largest first' },
  { key: 'cost', label: 'Most expensive first (recorded cost)' },
  { key: 'saving', label: 'Largest saving of the best strategy first' },
  { key: 'requests', label: 'Most requests first' },
];

export type Agent = FormatId;

export interface SessionNode {
  kind: 'session';
  id: string;
  agent: Agent;
  file: SessionFile;
  figures?: SessionFigures;
  error?: string;
  /** A sub-agent's name: the description of the call that started it, once its session's figures name it. */
  name?: string;
  children: SessionNode[];
}

export interface GroupNode {
  kind: 'group';
  id: string;
  agent: Agent;
  /** The project or the day, as the agent's `groupBy` says. */
  label: string;
  children: SessionNode[];
}

export interface AgentNode {
  kind: 'agent';
  id: string;
  agent: Agent;
  label: string;
  children: GroupNode[];
}

export type TreeNode = AgentNode | GroupNode | SessionNode;

export interface TreeInput {
  /** The listed sessions of each agent. */
  sessions: Partial<Record<FormatId, SessionFile[]>>;
  figures: ReadonlyMap<string, SessionFigures>;
  errors: ReadonlyMap<string, string>;
  sort: SortKey;
  filter: string;
}

/** The day a log belongs to: its folder (e.g. Codex's sessions/YYYY/MM/DD/), else the local day it was written. */
export function sessionDay(f: SessionFile): string {
  const m = /[\\/](\d{4})[\\/](\d{2})[\\/](\d{2})[\\/][^\\/]+$/.exec(f.path);
  if (m) return `${m[1]}-${m[2]}-${m[3]}`;
  const d = f.modified;
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

function sortValue(n: SessionNode, key: SortKey): number {
  const f = n.figures;
  switch (key) {
    case 'date':
      return -n.file.modified.getTime();
    case 'size':
      return -n.file.size;
    case 'cost':
      return -(f?.recordedCost ?? -1);
    case 'requests':
      return -(f?.requests ?? -1);
    case 'saving': {
      // The largest saving of the best strategy first, then sessions where none saves; without figures last.
      const v = f && sessionVerdict(f);
      return v ? (v.best?.deltaCost ?? 0) : Number.POSITIVE_INFINITY;
    }
  }
}

function matches(n: SessionNode, filter: string): boolean {
  if (!filter) return true;
  const hay = `${n.name ?? ''}\n${n.file.firstPrompt}\n${n.file.project}\n${n.file.path}`.toLowerCase();
  return hay.includes(filter) || n.children.some((c) => matches(c, filter));
}

function sessionNode(f: SessionFile, agent: Agent, input: TreeInput): SessionNode {
  const node: SessionNode = {
    kind: 'session',
    id: `session:${f.path}`,
    agent,
    file: f,
    children: (f.subAgents ?? []).map((s) => sessionNode(s, agent, input)),
  };
  const figures = input.figures.get(f.path);
  if (figures) node.figures = figures;
  const calls = figures?.subAgentCalls;
  if (calls)
    for (const child of node.children) {
      const name = describedBy(calls, child.file.firstPrompt);
      if (name) child.name = name;
    }
  // The figures' error, else the listing's (a file the listing could not read, and nothing computed since).
  const error = input.errors.get(f.path) ?? (figures ? undefined : f.error && `${f.path}: ${f.error}`);
  if (error) node.error = error;
  return node;
}

function sortSessions(nodes: SessionNode[], key: SortKey): SessionNode[] {
  return nodes.sort(
    (a, b) => sortValue(a, key) - sortValue(b, key) || a.file.path.localeCompare(b.file.path),
  );
}

/** The groups of one agent: sessions filtered and sorted; groups ordered by their first session under the sort. */
function groups(files: SessionFile[], agent: Agent, groupBy: SessionDescriptor['groupBy'], input: TreeInput) {
  const groupOf = groupBy === 'day' ? sessionDay : (f: SessionFile) => f.project;
  const filter = input.filter.trim().toLowerCase();
  const byGroup = new Map<string, SessionNode[]>();
  for (const f of files) {
    const node = sessionNode(f, agent, input);
    if (!matches(node, filter)) continue;
    const g = groupOf(f);
    const list = byGroup.get(g) ?? [];
    list.push(node);
    byGroup.set(g, list);
  }
  const out: GroupNode[] = [...byGroup].map(([label, sessions]) => ({
    kind: 'group',
    id: `${agent}:${label}`,
    agent,
    label,
    children: sortSessions(sessions, input.sort),
  }));
  if (groupBy === 'day' && input.sort === 'date') return out.sort((a, b) => b.label.localeCompare(a.label));
  return out.sort(
    (a, b) =>
      sortValue(a.children[0], input.sort) - sortValue(b.children[0], input.sort) ||
      a.label.localeCompare(b.label),
  );
}

export function buildTree(input: TreeInput): AgentNode[] {
  const out: AgentNode[] = [];
  for (const format of discoverableFormats()) {
    const session = format.session;
    if (!session) continue;
    const children = groups(input.sessions[format.id] ?? [], format.id, session.groupBy, input);
    if (children.length > 0)
      out.push({ kind: 'agent', id: `agent:${format.id}`, agent: format.id, label: session.agent, children });
  }
  return out;
}

// ---- Words ------------------------------------------------------------------------------------------------------

const money = (x: number) => {
  const a = Math.abs(x);
  return `${x < 0 ? '−' : ''}$${a.toFixed(a >= 1 ? 2 : 4)}`;
};

export function sizeWords(bytes: number): string {
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(1)} MB`;
  if (bytes >= 1e3) return `${Math.round(bytes / 1e3)} KB`;
  return `${bytes} B`;
}

function dateWords(d: Date, now: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  const time = `${p(d.getHours())}:${p(d.getMinutes())}`;
  const sameYear = d.getFullYear() === now.getFullYear();
  const day = d.toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    ...(sameYear ? {} : { year: 'numeric' }),
  });
  return `${day} ${time}`;
}

/** The baseline's name as the verdict words it. */
function baselineName(f: Pick<SessionFigures, 'baseline'>): string {
  return f.baseline === 'none' ? 'none' : 'as logged';
}

/** The baseline's cost over the session's requests, read off any policy measured against it. */
function baselineCost(f: SessionFigures): number | null {
  for (const p of Object.values(f.policies)) if (p?.deltaCost !== undefined) return p.cost - p.deltaCost;
  return f.policies.none?.cost ?? null;
}

/** The session's verdict: its strategies ranked by cost against the baseline, as the view's card ranks them. Null
 * for figures kept before they named their provider. */
export function sessionVerdict(f: SessionFigures): VerdictRanking | null {
  const cost = baselineCost(f);
  if (!f.provider || cost === null) return null;
  return rankTotals({
    provider: f.provider,
    baseline: { name: 'none', words: baselineName(f), cost, requests: f.requests },
    totals: (Object.entries(f.policies) as [PolicyName, { cost: number }][])
      .filter(([name]) => name !== 'none')
      .map(([policyName, p]) => ({ policyName, cost: p.cost })),
    current: f.inForce ?? 'none',
  });
}

/** The verdict's column, first in a session's row where no side bar cuts it: the best strategy's one savings
 * figure ("−14.2%"), or "—" when none saves. */
export function verdictFigure(v: VerdictRanking): string {
  return v.best ? signedPercent(v.best.deltaShare) : '—';
}

/** The verdict's strategy, first of the row's description ("Anthropic context editing"), or why there is none. */
export function verdictName(v: VerdictRanking): string {
  if (v.ranked.length === 0) return 'no strategy offered';
  return v.best ? v.best.label : `none saves vs ${v.against}`;
}

/** The verdict's details for the tooltip: the best with what it saves against the baseline, and the policy in
 * force. */
export function verdictDetails(v: VerdictRanking): string[] {
  const out = [`${verdictHeadline(v)}${v.best ? ` against ${v.against}` : ''}`];
  const { current } = v;
  if (current.row) out.push(`Now: ${current.label}, ${costAgainst(current.row, v.against)}`);
  else if (current.policyName === 'none') out.push(`Now: none, ${dollars(v.baselineCost)} as ${v.against}`);
  if (v.ranked.length > 1)
    out.push(`Ranked: ${v.ranked.map((r) => `${r.label} ${signedPercent(r.deltaShare)}`).join(', ')}`);
  return out;
}

/** The session's cache breaks and their costliest cause, for its tooltip: "Cache breaks: $26.25; the costliest:
 * TTL expiries: 5 breaks, $21.04". Null when the log shows none (or the figures predate them). */
export function breakWords(f: SessionFigures): string | null {
  const top = f.breaks ? costliestOf(f.breaks) : undefined;
  if (!f.breaks || !top) return null;
  const t = f.breaks[top] as { breaks: number; cost: number };
  return `Cache breaks: ${money(breaksTotal(f.breaks).cost)}; the costliest: ${causeCostWords(top, t)}`;
}

/** What a session's row says beside its title (which its verdict's figure leads): the verdict's strategy first,
 * then when, how large, requests and recorded cost. */
export function sessionDescription(n: SessionNode, now = new Date()): string {
  const facts = [dateWords(n.file.modified, now), sizeWords(n.file.size)];
  const f = n.figures;
  if (n.error) return [...facts, 'not readable'].join(' · ');
  if (!f) return ['…', ...facts].join(' · ');
  const v = sessionVerdict(f);
  return [
    ...(v ? [verdictName(v)] : []),
    ...facts,
    `${f.requests.toLocaleString('en-US')} req`,
    f.recordedCost === null ? 'no recorded cost' : money(f.recordedCost),
  ].join(' · ');
}

/** The tooltip's lines of a session with figures: its verdict's details, its row's words, its cache breaks. */
export function figureLines(n: SessionNode, verdict: VerdictRanking | null | undefined): string[] {
  const f = n.figures;
  if (!f) return [];
  const lines = [...(verdict ? verdictDetails(verdict) : []), sessionDescription(n), breakWords(f)];
  return lines.filter((l): l is string => Boolean(l));
}

/** A group's summary: its sessions, their recorded cost and the strategy that saves the most over all of them (one
 * every session with figures was measured under), as far as computed. */
export function groupDescription(g: GroupNode): string {
  let cost = 0;
  let known = 0;
  let recorded = 0;
  const all = g.children.flatMap((s) => [s, ...s.children]);
  const sums = new Map<string, { delta: number; base: number; sessions: number }>();
  for (const s of all) {
    const f = s.figures;
    if (!f) continue;
    known++;
    if (f.recordedCost !== null) {
      recorded++;
      cost += f.recordedCost;
    }
    for (const r of sessionVerdict(f)?.ranked ?? []) {
      const sum = sums.get(r.label) ?? { delta: 0, base: 0, sessions: 0 };
      sum.delta += r.deltaCost;
      sum.base += r.cost - r.deltaCost;
      sum.sessions++;
      sums.set(r.label, sum);
    }
  }
  let best: [string, { delta: number; base: number }] | null = null;
  for (const entry of sums)
    if (entry[1].sessions === known && entry[1].delta < (best ? best[1].delta : -5e-5)) best = entry;
  const n = g.children.length;
  const parts = [`${n} session${n === 1 ? '' : 's'}`];
  if (best) {
    const [label, { delta, base }] = best;
    parts.unshift(`${signedPercent(base > 0 ? delta / base : 0)} ${label}`);
  }
  if (recorded > 0) parts.push(money(cost));
  if (known < all.length) parts.push('…');
  return parts.join(' · ');
}

export { projectLabel } from '../core/sessionProject';
