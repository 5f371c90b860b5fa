// The Tuning tab's sweep on the host: the session shown, replayed under its policy over the grid the webview asks
// for (core/sweep.ts), summarizer none (as the policy comparisons: a model is never asked once per cell). The
// replays give way to the editor every 16 ms (core/giveWay.ts), progress is posted as cells are done, and a newer
// sweep of the same view stops the older one. No editor API here: the custom editor hands in what it shows.
import { analyze } from '../core/analysis';
import { type Policy, policyPasses } from '../core/engine/policy';
import type { Transcript } from '../core/model';
import { sweepTranscript } from '../core/sweep';
import { sweepAdvice } from '../core/sweepAdvice';
import type { HostMessage, WebviewMessage } from '../protocol';

const running = new WeakMap<object, AbortController>();

/** Progress is posted at most this often (a cell can take a few milliseconds). */
const PROGRESS_MS = 100;

export async function answerSweep(
  owner: object,
  message: Extract<WebviewMessage, { type: 'sweep' }>,
  transcript: Transcript | null,
  policy: Policy,
  post: (m: HostMessage) => void,
): Promise<void> {
  running.get(owner)?.abort();
  const stop = new AbortController();
  running.set(owner, stop);
  const { seq } = message;
  if (!transcript) {
    post({ type: 'sweepGrid', seq, done: 0, total: 0, error: 'the transcript is not loaded yet' });
    return;
  }
  if (!policyPasses(policy.name).tiered) {
    post({
      type: 'sweepGrid',
      seq,
      done: 0,
      total: 0,
      error: `the ${policy.name} policy does not use the tier constants: choose tiered or tiered+live-zone`,
    });
    return;
  }
  let last = 0;
  try {
    const grid = await sweepTranscript(
      policy,
      message.rows,
      message.cols,
      async (p) => (await analyze(transcript, p, { signal: stop.signal })).analysis,
      (done, total) => {
        const now = Date.now();
        if (now - last < PROGRESS_MS) return;
        last = now;
        post({ type: 'sweepGrid', seq, done, total });
      },
    );
    if (stop.signal.aborted) return;
    const total = grid.cells.filter(Boolean).length;
    post({
      type: 'sweepGrid',
      seq,
      done: total,
      total,
      grid: { ...grid, baseline: policy.replay.baseline, advice: sweepAdvice(grid) },
    });
  } catch (error) {
    if (stop.signal.aborted) return; // a newer sweep answers instead
    post({
      type: 'sweepGrid',
      seq,
      done: 0,
      total: 0,
      error: error instanceof Error ? error.message : String(error),
    });
  } finally {
    if (running.get(owner) === stop) running.delete(owner);
  }
}
