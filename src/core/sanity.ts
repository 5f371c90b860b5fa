// Numbers that look wrong are said so, where the number is, with why they may be: a request larger than the
// model's window, a "none" simulation more than 20% away from the usage the log recorded, a hidden-prefix estimate
// that no agent would send. The view and the CLI show these flags; they change no figure.
import type { Analysis, SanityFlag } from './analysisTypes';
import { adapterFor } from './formats/registry';

/** Beyond this share of difference from the recorded usage, the simulation is flagged. */
export const RECORDED_TOLERANCE = 0.2;
/** A tokenizer factor outside these bounds fits something other than tokenization. */
const CALIBRATION_RANGE = [0.5, 2] as const;

type Figures = Pick<
  Analysis,
  'format' | 'requests' | 'recorded' | 'hiddenPrefix' | 'contextWindow' | 'model'
>;

const k = (n: number) => Math.round(n).toLocaleString('en-US');

export function sanityFlags(a: Figures): SanityFlag[] {
  const flags: SanityFlag[] = [];
  const window = a.contextWindow;
  if (window) {
    let over = 0;
    let largest = 0;
    let first = -1;
    for (const r of a.requests) {
      if (r.pending || r.promptTokens <= window) continue;
      over++;
      if (first < 0) first = r.index;
      largest = Math.max(largest, r.promptTokens);
    }
    if (over > 0)
      flags.push({
        kind: 'beyond-window',
        where: 'requests',
        message: `${over} request${over === 1 ? '' : 's'} (the first: request ${first + 1}) exceed${over === 1 ? 's' : ''} the ${k(window)}-token context window of ${a.model ?? 'the model'} (largest: ${k(largest)} tokens). No model accepts that: the log may hold a compaction or a clearing the replay does not see, sub-agents' turns merged into one thread, or another model than the one assumed.`,
      });
  }
  const r = a.recorded;
  if (r) {
    const off = (x: number) => Math.abs(x) > RECORDED_TOLERANCE;
    if ((off(r.cachedError) && r.recordedCacheRead > 0) || (off(r.writtenError) && r.recordedWritten > 0))
      flags.push({
        kind: 'recorded-differs',
        where: 'recorded',
        message: `The "none" simulation differs from the recorded usage by more than ${Math.round(100 * RECORDED_TOLERANCE)}% (cache read ${pct(r.cachedError)}, not read from cache ${pct(r.writtenError)}): its figures may be off by as much. Possible causes: a hidden prefix (system prompt, tools) that changed during the session, cache breaks the log cannot explain, requests the replay does not cover (${r.requests} of ${r.fileReplies} recorded replies).`,
      });
  }
  const h = a.hiddenPrefix;
  if (h && h.samples > 0) {
    const why: string[] = [];
    if (h.hiddenTokens < 0) why.push(`it is negative (${k(h.hiddenTokens)} tokens)`);
    if (window && h.hiddenTokens > window / 2)
      why.push(`it is more than half the context window (${k(h.hiddenTokens)} tokens)`);
    const session = adapterFor(a.format).session;
    const least = session?.minHiddenPrefixTokens;
    if (least !== undefined && h.hiddenTokens >= 0 && h.hiddenTokens < least)
      why.push(
        `it is ~${k(h.hiddenTokens)} tokens, where ${session?.agent} sends its instructions and tool definitions (several thousand tokens) with every request`,
      );
    if (h.calibration < CALIBRATION_RANGE[0] || h.calibration > CALIBRATION_RANGE[1])
      why.push(
        `the tokenizer factor ×${h.calibration.toFixed(2)} is outside ×${CALIBRATION_RANGE[0]}–×${CALIBRATION_RANGE[1]}`,
      );
    if (why.length > 0)
      flags.push({
        kind: 'hidden-prefix',
        where: 'hidden-prefix',
        message: `The hidden-prefix estimate looks implausible: ${why.join('; ')}. The fit over ${h.samples} requests may have absorbed something else: requests that are not what the file holds (sub-agents, edits), or recorded usage from another tool.`,
      });
  }
  return flags;
}

function pct(x: number): string {
  return `${x >= 0 ? '+' : '−'}${Math.abs(100 * x).toFixed(1)}%`;
}
