// Compaction: near the context limit the agent (Claude Code's auto-compact and `/compact`) or the server (OpenAI
// Responses `context_management: [{type: "compaction", compact_threshold: N}]`) asks the model for a summary of the
// conversation, and carries on from the summary and what follows. Simulated from their documented behaviour:
//
//   - Before a request whose context reaches `threshold` × the model's window, the conversation is summarized. The
//     context is what the agent counts: the usage the API returned for the previous request (the log's own figures
//     while the simulation still sends what the log sent, else the simulated prompt), plus the messages since.
//     Claude Code compacts at the window less 20,000 tokens for the summary's output and a 13,000-token buffer;
//     OpenAI at `compact_threshold` tokens. The first request of a conversation has no usage to go by: none.
//   - The summarization request sends the conversation so far (read from the cache the previous request wrote,
//     the rest written) and is answered with the summary (its output tokens). Its cost is counted with the request
//     it precedes.
//   - The request after it sends the summary, then the newest `keepRecentMessages` messages (moved back so that a
//     kept tool result keeps its call), then what follows. What the agent re-attaches after a summary (files read
//     again, memory) is in the hidden prefix the log's segments measured (calibration.ts).
//   - The summary is the log's own where the log compacted before the same request; elsewhere its size is
//     `summaryTokens` (not documented: the seven Claude Code summaries in the real logs we hold measure 1,307 to
//     5,120 tokens, median 2,213; the default, 3,000, errs towards cost). The log's summaries are sent only where
//     the simulation compacts as the log did.
//   - OpenAI's compaction item is opaque (encrypted); its size is taken as `summaryTokens` too.
import type { RecordedCompaction } from '../analysisTypes';
import { derive, derived } from './derived';
import type { CompactionRule } from './policies/descriptor';
import type { PreparedTranscript } from './prepare';
import { countBelow } from './sorted';
import type { EngineState } from './state';

/** The compactions the log records: where each stands, its summary's tokens (our count) and the agent's count. */
export interface LoggedCompaction {
  beforeMessage: number;
  /** The first message the requests after it send: `beforeMessage`, or the first it kept (`Marker.keptFrom`). */
  segmentStart: number;
  /** Tokens (our count) of the summary the agent sent after it: the summary message (Claude Code), or the
   * marker's own summary (Codex). */
  summaryTokens: number;
  /** The message holding the summary, when one does. */
  summaryMessage: number | null;
  preTokens?: number;
}

export function loggedCompactions(prep: PreparedTranscript): LoggedCompaction[] {
  return derive(prep, logged);
}

const logged = derived('loggedCompactions', (prep): LoggedCompaction[] => {
  const byPoint = new Map<number, LoggedCompaction>();
  const messages = prep.transcript.messages;
  for (const marker of prep.transcript.markers) {
    if (marker.kind !== 'compaction') continue;
    const b = marker.beforeMessage;
    let entry = byPoint.get(b);
    if (!entry) {
      const holder = messages[b]?.flags?.includes('isCompactSummary') ? b : null;
      entry = {
        beforeMessage: b,
        segmentStart: Math.min(marker.keptFrom ?? b, b),
        summaryTokens:
          (holder !== null ? prep.messageTokens[holder] : 0) + (prep.compactionSummaryTokens.get(b) ?? 0),
        summaryMessage: holder,
      };
      byPoint.set(b, entry);
    }
    if (marker.preTokens !== undefined) entry.preTokens = marker.preTokens;
  }
  return [...byPoint.values()].sort((a, b) => a.beforeMessage - b.beforeMessage);
});

/** The log's compactions, each with the request that followed it (the first one sending its summary). */
export function recordedCompactions(prep: PreparedTranscript): RecordedCompaction[] {
  return loggedCompactions(prep)
    .filter((c) => c.beforeMessage <= (prep.requestEnds[prep.requestEnds.length - 1] ?? -1))
    .map((c) => {
      const r: RecordedCompaction = {
        request: countBelow(prep.requestEnds, c.beforeMessage),
        beforeMessage: c.beforeMessage,
      };
      if (c.preTokens !== undefined) r.preTokens = c.preTokens;
      return r;
    });
}

/**
 * The first message kept after a summary that replaces [segmentStart, end): the newest `keep` messages, moved back
 * while one of them answers a call made before it (a tool_use never loses its tool_result, nor the reverse; the
 * results of a kept call all come after it).
 */
export function keptFrom(prep: PreparedTranscript, segmentStart: number, end: number, keep: number): number {
  let from = Math.max(segmentStart, end - keep);
  const messages = prep.transcript.messages;
  for (let moved = true; moved; ) {
    moved = false;
    for (let m = from; m < end; m++)
      for (const b of messages[m].blocks) {
        if (b.type !== 'tool_result') continue;
        const use = prep.toolUses.get(b.toolUseId);
        if (use && use.messageIndex < from && use.messageIndex >= segmentStart) {
          from = use.messageIndex;
          moved = true;
        }
      }
  }
  return from;
}

/** Where the simulated conversation stands: the start of its segment and the summary it began with. */
export class CompactionRun {
  /** The first message the current segment sends (after its summary). */
  start = 0;
  /** Tokens (our count) of the summary the current segment starts with; 0 before the first compaction. */
  summary = 0;
  readonly logged: LoggedCompaction[];

  /** `simulate`: the policy decides every compaction, and the log's summaries are sent only where it compacts as
   * the log did (they are taken out of the message stream here). Otherwise (one pass now) the sent requests are
   * the log's, and only the next request may compact. */
  constructor(
    private readonly state: EngineState,
    readonly rule: CompactionRule,
    readonly simulate: boolean,
  ) {
    this.logged = loggedCompactions(state.prep);
    if (simulate)
      for (const c of this.logged)
        if (c.summaryMessage !== null)
          state.sums.add(c.summaryMessage, -state.messageTokens[c.summaryMessage]);
  }

  /** The index of the log's first compaction after `previousEnd`. */
  private firstAfter(previousEnd: number): number {
    // Sorted by position, and asked at every request: a binary search, not a scan of thousands of compactions.
    let lo = 0;
    let hi = this.logged.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.logged[mid].beforeMessage <= previousEnd) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The log's compaction between the previous request's reply and this request's end, if any (the first). */
  loggedBetween(previousEnd: number, end: number): LoggedCompaction | undefined {
    const c = this.logged[this.firstAfter(previousEnd)];
    return c && c.beforeMessage <= end ? c : undefined;
  }

  /** The log's compactions between the previous request's reply and this request's end, in order: more than one
   * where the agent compacted again before sending anything (each was a summarization request of its own). */
  allLoggedBetween(previousEnd: number, end: number): LoggedCompaction[] {
    const out: LoggedCompaction[] = [];
    for (
      let i = this.firstAfter(previousEnd);
      i < this.logged.length && this.logged[i].beforeMessage <= end;
      i++
    )
      out.push(this.logged[i]);
    return out;
  }

  /** Summarizes [start, end): the next segment starts at the kept messages (or, where the log compacted here, at
   * its summary), with the log's summary or one of `summaryTokens` (given in our count: `placeholder`). Returns
   * whether the summary is the log's. */
  compact(previousEnd: number, end: number, placeholder: number): boolean {
    // Where the log compacted more than once here, the request after them sent the last one's summary.
    const log = this.allLoggedBetween(previousEnd, end).at(-1);
    const kept = keptFrom(this.state.prep, this.start, end, this.rule.keepRecentMessages);
    this.start = log ? Math.min(kept, log.beforeMessage) : kept;
    this.summary = log ? log.summaryTokens : placeholder;
    return log !== undefined;
  }
}
