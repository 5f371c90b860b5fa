// Reasoning sent back within a turn (SPEC §5 requests as the OpenAI Responses API builds them, Codex): the model's
// encrypted reasoning items go back to it with every request of the turn, at the size it produced them, and are
// dropped at the next user message. A prompt then shrinks at each user turn, and the cache breaks where the first
// dropped item was.
import { countBelow } from './sorted';

export class ReasoningTurns {
  /**
   * @param prefix reasoning tokens before each message (length = messages + 1)
   * @param userTurns indices of the messages that start a user turn, ascending
   * @param withReasoning indices of the messages that hold reasoning, ascending
   */
  constructor(
    private readonly prefix: Float64Array,
    private readonly userTurns: readonly number[],
    private readonly withReasoning: readonly number[],
  ) {}

  /** The user turn a request ending before message `end` is in: its first message, or -1. */
  turnOf(end: number): number {
    const n = countBelow(this.userTurns, end);
    return n > 0 ? this.userTurns[n - 1] : -1;
  }

  /** Reasoning tokens of messages [start, upTo) that a request ending before `end` no longer sends. */
  dropped(start: number, upTo: number, end: number): number {
    const until = Math.min(upTo, this.turnOf(end));
    return until > start ? this.prefix[until] - this.prefix[start] : 0;
  }

  /** Reasoning tokens of message `m`. */
  of(m: number): number {
    return this.prefix[m + 1] - this.prefix[m];
  }

  /** The first message in [from, to) that holds reasoning, or -1. */
  firstIn(from: number, to: number): number {
    const m = this.withReasoning[countBelow(this.withReasoning, from)];
    return m !== undefined && m < to ? m : -1;
  }
}
