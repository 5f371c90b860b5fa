// The Sessions view's tree, without the editor API: each session agent's projects or days (as its format's adapter
// says), their sessions (newest first, or by size, cost, saving), sub-agents under their session; each with the
// words it shows. The figures come
// in as they are computed (a session without them yet shows what the listing knows).
import { breaksTotal, causeCostWords, costliestOf } from '../core/cacheBreaks';
import type { Baseline } from '../core/engine/policies/replay';
import type { PolicyName } from '../core/engine/policy';
import { discoverableFormats } from '../core/formats/registry';
import type { SessionDescriptor } from '../core/formats/types';
import type { SessionFigures } from '../core/history';
import type { FormatId } from '../core/model';
import type { SessionFile } from '../node/sessionFiles';
import { baselineWords } from '../vsNoneWords';

export type SortKey = 'date' | 'size' | 'cost' | 'saving' | 'requests';
export const SORT_KEYS: { key: SortKey; label: string }[] = [
  { key: 'date', label: 'Newest first' },
  { key: 'size', label: 'Largest first' },
  { key: 'cost', label: 'Most expensive first (recorded cost)' },
  { key: 'saving', label: 'Largest saving of the policy first' },
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
      // The most negative difference (the largest saving) first; sessions without figures last.
      const chosen = f && (Object.keys(f.policies) as PolicyName[]).find((p) => p !== 'none');
      const d = chosen ? f?.policies[chosen]?.deltaCost : undefined;
      return d ?? Number.POSITIVE_INFINITY;
    }
  }
}

function matches(n: SessionNode, filter: string): boolean {
  if (!filter) return true;
  const hay = `${n.file.firstPrompt}\n${n.file.project}\n${n.file.path}`.toLowerCase();
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

/** What a difference is against: the figures' baseline, or "its baseline" in figures kept before they named it. */
function againstWords(baseline: Baseline | undefined): string {
  return `vs ${baseline ? baselineWords(baseline) : 'its baseline'}`;
}

/** The policy's difference against the baseline, in words: 'tiered −$1.52 (−8.2%) vs "as logged"'. */
export function savingWords(f: SessionFigures): string | null {
  const name = (Object.keys(f.policies) as PolicyName[]).find((p) => p !== 'none');
  const p = name ? f.policies[name] : undefined;
  if (!name || !p || p.deltaCost === undefined) return null;
  const sign = p.deltaCost > 0 ? '+' : '';
  const share = p.deltaShare ?? 0;
  return `${name} ${sign}${money(p.deltaCost)} (${share > 0 ? '+' : share < 0 ? '−' : ''}${Math.abs(100 * share).toFixed(1)}%) ${againstWords(f.baseline)}`;
}

/** The session's cache breaks and their costliest cause, for its tooltip: "Cache breaks: $26.25; the costliest:
 * TTL expiries: 5 breaks, $21.04". Null when the log shows none (or the figures predate them). */
export function breakWords(f: SessionFigures): string | null {
  const top = f.breaks ? costliestOf(f.breaks) : undefined;
  if (!f.breaks || !top) return null;
  const t = f.breaks[top] as { breaks: number; cost: number };
  return `Cache breaks: ${money(breaksTotal(f.breaks).cost)}; the costliest: ${causeCostWords(top, t)}`;
}

/** What a session's row says beside its title: when, how large, requests, recorded cost, the policy's saving. */
export function sessionDescription(n: SessionNode, now = new Date()): string {
  const parts = [dateWords(n.file.modified, now), sizeWords(n.file.size)];
  const f = n.figures;
  if (n.error) parts.push('not readable');
  else if (!f) parts.push('…');
  else {
    parts.push(`${f.requests.toLocaleString('en-US')} req`);
    parts.push(f.recordedCost === null ? 'no recorded cost' : money(f.recordedCost));
    const saving = savingWords(f);
    if (saving) parts.push(saving);
  }
  return parts.join(' · ');
}

/** A group's summary: its sessions and their recorded cost and the policy's saving, as far as computed. */
export function groupDescription(g: GroupNode): string {
  let cost = 0;
  let delta = 0;
  let policy: string | null = null;
  let known = 0;
  let recorded = 0;
  const baselines = new Set<Baseline | undefined>();
  const all = g.children.flatMap((s) => [s, ...s.children]);
  for (const s of all) {
    const f = s.figures;
    if (!f) continue;
    known++;
    if (f.recordedCost !== null) {
      recorded++;
      cost += f.recordedCost;
    }
    const name = (Object.keys(f.policies) as PolicyName[]).find((p) => p !== 'none');
    const d = name ? f.policies[name]?.deltaCost : undefined;
    if (name && d !== undefined) {
      delta += d;
      policy = name;
      baselines.add(f.baseline);
    }
  }
  const n = g.children.length;
  const parts = [`${n} session${n === 1 ? '' : 's'}`];
  if (recorded > 0) parts.push(money(cost));
  if (policy)
    parts.push(
      `${policy} ${delta > 0 ? '+' : ''}${money(delta)} ${againstWords(baselines.size === 1 ? [...baselines][0] : undefined)}`,
    );
  if (known < all.length) parts.push('…');
  return parts.join(' · ');
}

/** The project as a short label: its last two path parts. */
export function projectLabel(project: string): string {
  const parts = project.split(/[\\/]/).filter(Boolean);
  return parts.length > 2 ? `…/${parts.slice(-2).join('/')}` : project;
}
