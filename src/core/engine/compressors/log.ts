// SPEC §4 build/log compressor: error and warning lines with 3 lines of context, at most 10 errors, 5 warnings,
// 3 stack traces of 20 lines, 100 lines in all.
import { logMarker } from '../ccr';
import { ERROR_LINE, STACK_LINE, WARNING_LINE } from './detect';

export const LOG_CONTEXT_LINES = 3;
export const LOG_MAX_ERRORS = 10;
export const LOG_MAX_WARNINGS = 5;
export const LOG_MAX_STACK_TRACES = 3;
export const LOG_STACK_TRACE_LINES = 20;
export const LOG_MAX_LINES = 100;
/** Not in the SPEC: a log with no error, warning or trace keeps its last lines, where builds state the outcome,
 * rather than nothing but the marker. */
export const LOG_TAIL_WHEN_CLEAN = 10;

/** `hash` null: `liveZone.ccr` is off, so the marker is the plain form that points at no store. */
export function compressLog(text: string, hash: string | null): string | null {
  const lines = text.split('\n');
  const keep = new Set<number>();
  const withContext = (i: number) => {
    for (
      let j = Math.max(0, i - LOG_CONTEXT_LINES);
      j <= Math.min(lines.length - 1, i + LOG_CONTEXT_LINES);
      j++
    )
      keep.add(j);
  };
  let errors = 0;
  let warnings = 0;
  let traces = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (STACK_LINE.test(line) && (i === 0 || !STACK_LINE.test(lines[i - 1]))) {
      if (traces < LOG_MAX_STACK_TRACES) {
        traces++;
        // The line that introduced the trace (the exception message) and up to 20 lines of the trace.
        if (i > 0) keep.add(i - 1);
        for (
          let j = i;
          j < lines.length && j < i + LOG_STACK_TRACE_LINES && (j === i || STACK_LINE.test(lines[j]));
          j++
        )
          keep.add(j);
      }
    } else if (ERROR_LINE.test(line)) {
      if (errors < LOG_MAX_ERRORS) {
        errors++;
        withContext(i);
      }
    } else if (WARNING_LINE.test(line)) {
      if (warnings < LOG_MAX_WARNINGS) {
        warnings++;
        withContext(i);
      }
    }
  }
  if (keep.size === 0)
    for (let i = Math.max(0, lines.length - LOG_TAIL_WHEN_CLEAN); i < lines.length; i++) keep.add(i);
  const kept = [...keep].sort((a, b) => a - b).slice(0, LOG_MAX_LINES);
  if (kept.length >= lines.length) return null;
  return `${kept.map((i) => lines[i]).join('\n')}\n${logMarker(lines.length, kept.length, hash)}`;
}
