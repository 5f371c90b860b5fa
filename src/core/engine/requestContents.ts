// What each request sends, in tokens (SPEC §5): the hidden prefix of the model that answers it, then its messages
// as the policy left them, the compaction summary in place of what came before, less what the agent no longer
// sends (reasoning of earlier turns, thinking other models signed, messages a reload left out).
import type { HiddenPrefixInfo } from '../analysisTypes';
import { promptKey } from './calibration';
import type { CompactionRun } from './compaction';
import { countBelow } from './sorted';
import type { EngineState } from './state';

/** One model's hidden part and count factor (calibration.ts). */
export interface ModelFit {
  info: HiddenPrefixInfo;
  bySegment: ReadonlyMap<number, number>;
}

export interface ContentRules {
  hidden: HiddenPrefixInfo;
  /** Hidden tokens per segment between compactions (by its first message), where the log allowed an estimate. */
  hiddenBySegment: ReadonlyMap<number, number>;
  /** The same per model that answered, when several did (calibration.ts): a request counts and hides at its own. */
  hiddenByModel?: ReadonlyMap<string, ModelFit>;
}

/** The contents of the requests of one replay; `answer` says which model the next request goes to. */
export class RequestContents {
  /** The model that answers the current request, the agent's mode it is sent in, and their fit (count factor `c`,
   * hidden part). */
  answering: string | undefined;
  mode: string | undefined;
  fit: ModelFit;
  c: number;
  private readonly sessionFit: ModelFit;
  /** A simulated segment's hidden prefix is that of the log's segment it starts in: the segment starts per fit. */
  private readonly segmentKeys = new Map<ModelFit, number[]>();

  constructor(
    private readonly state: EngineState,
    private readonly rules: ContentRules,
    private readonly compaction: CompactionRun | undefined,
  ) {
    this.sessionFit = { info: rules.hidden, bySegment: rules.hiddenBySegment };
    this.fit = this.sessionFit;
    this.c = rules.hidden.calibration;
  }

  /** The next request is answered by the current `answering` model: count and hide at its fit. */
  answer(): void {
    const key = promptKey(this.answering, this.mode);
    this.fit = (key !== undefined ? this.rules.hiddenByModel?.get(key) : undefined) ?? this.sessionFit;
    this.c = this.fit.info.calibration;
  }

  /** The summary sent at the start of a segment starting at `start`: after a compaction it replaces what came
   * before. */
  summaryAt(start: number): number {
    const { compaction } = this;
    if (compaction) return start === compaction.start ? compaction.summary : 0;
    return start > 0 ? (this.state.prep.compactionSummaryTokens.get(start) ?? 0) : 0;
  }

  /** Message tokens of [start, upTo) as a request ending before `end` sends them: reasoning of earlier user turns
   * is no longer sent (reasoning.ts), nor the thinking other models signed (thinking.ts). */
  sent(start: number, upTo: number, end = upTo): number {
    const { state } = this;
    const prep = state.prep;
    return (
      state.sums.prefix(upTo) -
      state.sums.prefix(start) +
      this.summaryAt(start) -
      (prep.reasoning?.dropped(start, upTo, end) ?? 0) -
      (state.leftOut?.dropped(start, upTo, end) ?? 0) -
      (prep.foreignThinking?.dropped(this.answering, start, upTo) ?? 0)
    );
  }

  /** The hidden prefix (system prompt, tools) of a request whose messages start at `start`. */
  hiddenAt(start: number): number {
    const { fit } = this;
    if (this.compaction?.simulate !== true) return fit.bySegment.get(start) ?? fit.info.hiddenTokens;
    let keys = this.segmentKeys.get(fit);
    if (!keys) {
      keys = [...fit.bySegment.keys()].sort((a, b) => a - b);
      this.segmentKeys.set(fit, keys);
    }
    const i = countBelow(keys, start + 1) - 1;
    return i >= 0 ? (fit.bySegment.get(keys[i]) ?? fit.info.hiddenTokens) : fit.info.hiddenTokens;
  }

  /** The prompt of a request sending [start, end), unrounded. */
  prompt(start: number, end: number): number {
    return this.hiddenAt(start) + this.c * this.sent(start, end);
  }
}
