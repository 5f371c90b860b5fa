// Counting what an analysis writes, off the extension host's thread. The worker pool counts a transcript's own
// texts before an analysis; the texts a policy writes (compressed results, stubs, truncations, summaries) appear
// only as the replay runs, and the engine counts synchronously. A few short ones cost nothing to count in place;
// the first switch to the live zone on a large session writes thousands of compressed results: seconds of
// tokenizing on the host's thread. So a run counts its own texts with a `PrimedCounter`, which tokenizes in place only up to a budget
// and otherwise stops the run (`CountsMissing`, thrown before anything is kept); a run with a `ProbeCounter` then
// finds every text the analysis lacks (its figures estimated, and thrown away), the workers count them, and the
// analysis runs again (core/primedAnalysis.ts).
import { EstimatingCounter, TokenCounter } from './counter';

/** Thrown by a `PrimedCounter` asked for more than its budget of texts it does not know. */
export class CountsMissing extends Error {
  constructor() {
    super('texts to count beyond what this analysis may count in place');
  }
}

/** Characters a run may tokenize in place (milliseconds): a step of a tier constant writes a few truncations. */
export const IN_PLACE_BUDGET_CHARS = 64 * 1024;

/** One run's counter: what `inner` knows (memory, store), and in place through `inner` (which keeps the counts) up
 * to `budget` characters, then `CountsMissing`. */
export class PrimedCounter extends TokenCounter {
  constructor(
    readonly inner: TokenCounter,
    private budget = IN_PLACE_BUDGET_CHARS,
  ) {
    super(inner.tokenizer);
  }

  override count(text: string): number {
    const known = this.inner.countIfKnown(text);
    if (known !== undefined) return known;
    if (text.length > this.budget) throw new CountsMissing();
    this.budget -= text.length;
    return this.inner.count(text);
  }
}

/** Counts what `inner` knows and estimates the rest, keeping the texts it estimated in `lacking`. */
export class ProbeCounter extends EstimatingCounter {
  readonly lacking = new Set<string>();

  constructor(readonly inner: TokenCounter) {
    super(inner.tokenizer);
  }

  override count(text: string): number {
    const known = this.inner.countIfKnown(text);
    if (known !== undefined) return known;
    this.lacking.add(text);
    return super.count(text);
  }
}
