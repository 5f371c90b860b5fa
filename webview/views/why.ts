// Why each block got its fate, in words: the rule that applied, with its numbers. The facts are the engine's
// (Analysis.why: first touch, floor tool, live-zone outcome; the message's tier and distance; the events); the
// settings are those the analysis ran with. Nothing here decides a tier: it only says which rule the engine used.
import type { ViewAnalysis } from '../../src/analysisWire/types';
import type {
  ClearedFact,
  ClearingFact,
  CompressionEvent,
  LiveOutcomeFact,
  MessageAnalysis,
  NotShorterFact,
} from '../../src/core/analysisTypes';
import type { Policy } from '../../src/core/engine/policy';

export interface MessageWhy {
  touch: { request: number; distance: number } | null;
  floorTool: string | null;
  live: LiveOutcomeFact[];
  /** Blocks of the message the server's context editing cleared, each with the clearing's numbers. */
  cleared: { fact: ClearedFact; clearing: ClearingFact | null }[];
  /** Rewrites of its blocks kept back because they would not have been shorter. */
  notShorter: NotShorterFact[];
}

interface WhyIndex {
  touch: Map<number, { request: number; distance: number }>;
  floor: Map<number, string>;
  live: Map<number, LiveOutcomeFact[]>;
  cleared: Map<number, { fact: ClearedFact; clearing: ClearingFact | null }[]>;
  notShorter: Map<number, NotShorterFact[]>;
}

const indexes = new WeakMap<ViewAnalysis, WhyIndex>();

/** The facts of one message, looked up in an index built once per analysis. */
export function whyOf(analysis: ViewAnalysis, message: number): MessageWhy {
  let index = indexes.get(analysis);
  if (!index) {
    index = {
      touch: new Map(),
      floor: new Map(),
      live: new Map(),
      cleared: new Map(),
      notShorter: new Map(),
    };
    const why = analysis.why;
    if (why) {
      for (let i = 0; i + 2 < why.firstTouch.length; i += 3)
        index.touch.set(why.firstTouch[i], {
          request: why.firstTouch[i + 1],
          distance: why.firstTouch[i + 2],
        });
      for (const f of why.floorTools) index.floor.set(f.message, f.tool);
      for (const l of why.liveZone) {
        const list = index.live.get(l.message);
        if (list) list.push(l);
        else index.live.set(l.message, [l]);
      }
      for (const f of why.notShorter ?? []) {
        const list = index.notShorter.get(f.message);
        if (list) list.push(f);
        else index.notShorter.set(f.message, [f]);
      }
      const clearings = new Map((why.clearings ?? []).map((c) => [c.request, c]));
      for (const fact of why.cleared ?? []) {
        const entry = { fact, clearing: clearings.get(fact.request) ?? null };
        const list = index.cleared.get(fact.message);
        if (list) list.push(entry);
        else index.cleared.set(fact.message, [entry]);
      }
    }
    indexes.set(analysis, index);
  }
  return {
    touch: index.touch.get(message) ?? null,
    floorTool: index.floor.get(message) ?? null,
    live: index.live.get(message) ?? [],
    cleared: index.cleared.get(message) ?? [],
    notShorter: index.notShorter.get(message) ?? [],
  };
}

const TYPE_WORDS: Record<NonNullable<LiveOutcomeFact['type']>, string> = {
  'json-array': 'a JSON array',
  diff: 'a unified diff',
  html: 'HTML',
  search: 'search results',
  log: 'log output',
  tabular: 'a table',
  code: 'source code',
  text: 'plain text',
};

/** What a rewrite did to the block, when the Details view knows its events and texts. */
export interface BlockOutcome {
  events: CompressionEvent[];
  /** Compressed texts by block index (a Tier-2 summary starts with `[micro-compact]`). */
  compressed?: Map<number, string>;
}

function chars(e: CompressionEvent): string {
  return `${e.oldLen} → ${e.newLen} chars`;
}

const NOT_SHORTER_WORDS: Record<NotShorterFact['action'], string> = {
  tier1: 'stub',
  tier2: 'head and tail',
  obs_window: 'elision',
};

/** A rewrite the engine kept back (SPEC §2 "no growth"), with its token figures. */
function notShorterWords(f: NotShorterFact): string {
  return `kept: the rewrite would not be shorter (${NOT_SHORTER_WORDS[f.action]}, ${f.tokens} → ${f.rewriteTokens} tokens)`;
}

/** Every rule that shaped the message, one line each (Details). */
export function whyLines(
  m: MessageAnalysis,
  facts: MessageWhy,
  policy: Policy,
  outcome?: BlockOutcome,
): string[] {
  const lines: string[] = [];
  const t = policy.tiered;
  const events = outcome?.events ?? [];
  const tierEvents = events.filter((e) => e.action === 'tier1' || e.action === 'tier2');
  const tierKept = facts.notShorter.filter((f) => f.action === 'tier1' || f.action === 'tier2');
  if (m.tier === 3 && m.distance !== null) {
    lines.push(
      m.distance < t.keepRecent
        ? `distance ${m.distance} < keepRecent ${t.keepRecent} → Tier 3: untouched`
        : `distance ${m.distance} ≥ keepRecent ${t.keepRecent}, but no tiered pass met it (it is not in the requests of its segment, or they hold keepRecent or fewer tool results) → untouched`,
    );
  } else if ((m.tier === 1 || m.tier === 2) && facts.touch) {
    const { request, distance } = facts.touch;
    const at = `request ${request + 1}`;
    let rule: string;
    if (m.tier === 1)
      rule = `distance ${distance} ≥ tier1Distance ${t.tier1Distance} and no floor tool → Tier 1${m.rewritten ? ': stubbed' : ''}`;
    else if (facts.floorTool)
      rule = `distance ${distance} ≥ tier1Distance ${t.tier1Distance}, but ${facts.floorTool} is a floor tool → Tier 2`;
    else
      rule = `keepRecent ${t.keepRecent} ≤ distance ${distance} < tier1Distance ${t.tier1Distance} → Tier 2`;
    const kept = tierKept.map(notShorterWords).join('; ');
    const done = tierEvents.length
      ? tierEvents
          .map((e) =>
            e.action === 'tier1'
              ? `stub, ${chars(e)}`
              : outcome?.compressed?.get(e.blockIndex)?.startsWith('[micro-compact]')
                ? `summarized, ${chars(e)}`
                : `head and tail, ${chars(e)}`,
          )
          .join('; ')
      : !outcome && m.rewritten
        ? `rewritten, ${m.tokensBefore} → ${m.tokensAfter} tokens`
        : m.tier === 2 && !m.rewritten && !kept
          ? `within maxResultChars ${t.maxResultChars}: kept as it is`
          : '';
    const what = [done, kept].filter(Boolean).join('; ');
    lines.push(`${rule}${what ? `: ${what}` : ''} (first met in ${at})`);
    if (m.distance !== null && m.distance !== distance)
      lines.push(
        `first met at Tier ${m.tier} in ${at} (first touch): kept at Tier ${m.tier}, though its distance is now ${m.distance}`,
      );
  }
  for (const e of events)
    if (e.action === 'obs_window')
      lines.push(
        `observation window: older than the newest ${policy.observation.keep} observations → elided, ${chars(e)}`,
      );
  for (const f of facts.notShorter)
    if (f.action === 'obs_window')
      lines.push(
        `observation window: older than the newest ${policy.observation.keep} observations; ${notShorterWords(f)}`,
      );
  for (const l of facts.live) lines.push(liveLine(l, policy, events));
  for (const c of facts.cleared) lines.push(clearedLine(c.fact, c.clearing, policy));
  return lines;
}

/** Why context editing cleared a block: the request whose edit cleared it, the trigger it exceeded and the rule. */
export function clearedLine(fact: ClearedFact, clearing: ClearingFact | null, policy: Policy): string {
  const ce = policy.contextEditing;
  const at = `before request ${fact.request + 1}`;
  if (fact.kind === 'thinking')
    return `context editing (clear_thinking_20251015) ${at}: ${clearing ? `${clearing.thinkingTurns} thinking turns > ` : 'older than the newest '}keep ${ce.clearThinkingKeep} → thinking removed on the server`;
  const trigger = !clearing
    ? `the prompt exceeded trigger ${ce.trigger}`
    : ce.triggerType === 'tool_uses'
      ? `${clearing.toolUses} tool uses > trigger ${ce.trigger}`
      : `prompt ${clearing.promptTokens.toLocaleString('en-US')} input tokens > trigger ${ce.trigger.toLocaleString('en-US')}`;
  const least =
    ce.clearAtLeast > 0 && clearing
      ? `; the edit frees ${clearing.freedTokens.toLocaleString('en-US')} ≥ clearAtLeast ${ce.clearAtLeast.toLocaleString('en-US')}`
      : '';
  const what =
    fact.kind === 'tool_input' ? 'its input cleared (clearToolInputs)' : 'result replaced by "[cleared]"';
  return `cleared by context editing (clear_tool_uses_20250919) ${at}: ${trigger}, and this call is older than the newest keep ${ce.keep} tool uses${least} → ${what} on the server; the client still sends it`;
}

function liveLine(l: LiveOutcomeFact, policy: Policy, events: CompressionEvent[]): string {
  const at = `live zone in request ${l.request + 1}, block ${l.block}`;
  if (l.outcome === 'summary')
    return `${at}: a compaction summary (what the agent keeps of the older messages): never compressed`;
  if (l.outcome === 'short' || l.type === null)
    return `${at}: ${l.chars} chars < liveZone.minChars ${policy.liveZone.minChars}: not compressed`;
  const type = TYPE_WORDS[l.type];
  if (l.outcome === 'compressed') {
    const e = events.find((x) => x.action === 'live_zone' && x.blockIndex === l.block);
    return `${at}: detected as ${type} → compressed${e ? `, ${chars(e)}` : ''}, ${policy.liveZone.ccr ? 'CCR marker (original retrievable)' : 'plain marker (liveZone.ccr off)'}`;
  }
  if (l.outcome === 'not-shorter')
    return `${at}: detected as ${type}; token gate: the compressed form was not shorter, kept`;
  return `${at}: detected as ${type}: ${['json-array', 'search', 'log', 'diff'].includes(l.type) ? 'nothing to drop' : 'left as it is (no compressor for it)'}, kept`;
}

/** The same in one line, for the list row's tooltip. */
export function whyLine(m: MessageAnalysis, facts: MessageWhy, policy: Policy): string {
  return whyLines(m, facts, policy).join(' · ');
}
