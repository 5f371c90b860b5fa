// Figures the repaint benchmark, the browser tests and the editor tests read from the page: how long a change took
// to repaint the list, and when the first frames after opening showed the list and the analysis.
import { useLayoutEffect } from 'react';
import type { State } from './state';

/** Figures the repaint benchmark and the browser tests read: change → repainted list, per `seq`. */
export interface RepaintProbe {
  lastSeq: number;
  lastRepaintMs: number | null;
  /** performance.now() at the frame after the commit. */
  paintedAt: number;
}

/** Wall-clock times (Date.now(), comparable with the benchmark's own clock) of the first frames after opening
 * that show the list, an analysis, and an analysis whose token figures are exact. */
export interface OpenProbe {
  listAt?: number;
  /** The first frame with the list of the whole file (a large one is shown from its beginning first). */
  wholeListAt?: number;
  analysisAt?: number;
  exactAt?: number;
}

declare global {
  interface Window {
    __contextLensRepaint?: RepaintProbe;
    __contextLensOpen?: OpenProbe;
  }
}

/** Records `mark` at the frame after the commit that showed it, once. */
function markOpen(mark: keyof OpenProbe): () => void {
  if (window.__contextLensOpen?.[mark] !== undefined) return () => {};
  const frame = requestAnimationFrame(() => {
    window.__contextLensOpen = { ...window.__contextLensOpen, [mark]: Date.now() };
  });
  return () => cancelAnimationFrame(frame);
}

/** Keeps both probes; `sentAt` holds when each change (by its `seq`) was sent. */
export function useProbes(state: State, sentAt: Map<number, number>): void {
  // Right after the rows of a new analysis are committed (a layout effect runs before the browser paints),
  // ask for the next frame, the one that paints them, and record how long the change that asked took.
  useLayoutEffect(() => {
    if (!state.analysis) return;
    const answered = state.analysisSeq;
    const frame = requestAnimationFrame(() => {
      const now = performance.now();
      const t0 = sentAt.get(answered);
      sentAt.delete(answered);
      window.__contextLensRepaint = {
        lastSeq: answered,
        lastRepaintMs: t0 === undefined ? null : now - t0,
        paintedAt: now,
      };
      document.body.dataset.analysisSeq = String(answered);
    });
    return () => cancelAnimationFrame(frame);
  }, [state.analysis, state.analysisSeq, sentAt]);
  // The last change sent, beside the one answered: a view is up to date when the two are the same (the requests
  // that are not changes take numbers from the same count).
  useLayoutEffect(() => {
    document.body.dataset.sentSeq = String(state.sentSeq);
  }, [state.sentSeq]);
  // The analyses run ahead that a change would show at once: those of the state committed, which is what a key
  // pressed now reads (an offer that has reached the page may not have been rendered yet).
  useLayoutEffect(() => {
    document.body.dataset.aheads = state.aheads.map((a) => a.analysis.id).join(' ');
  }, [state.aheads]);

  useLayoutEffect(() => (state.transcript ? markOpen('listAt') : undefined), [state.transcript]);
  useLayoutEffect(
    () => (state.transcript && !state.transcript.beginning ? markOpen('wholeListAt') : undefined),
    [state.transcript],
  );
  useLayoutEffect(() => {
    if (!state.analysis) return;
    const first = markOpen('analysisAt');
    const exact = state.analysis.tokensPending ? () => {} : markOpen('exactAt');
    return () => {
      first();
      exact();
    };
  }, [state.analysis]);
}
