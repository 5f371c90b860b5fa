// Detection by content: every format looks at the sample and says yes (with a score and why) or no (and why).
import type { FormatId } from '../model';
import { FORMATS } from './registry';
import { sniff } from './sniff';
import type { FormatAdapter, Sniff } from './types';

export type Detection =
  | { format: FormatId; reason: string }
  | { format: null; rejected: { format: FormatId; reason: string }[] };

export function detectIn(
  s: Sniff,
): { adapter: FormatAdapter; reason: string } | { rejected: { format: FormatId; reason: string }[] } {
  const rejected: { format: FormatId; reason: string }[] = [];
  if (s.bytes.length === 0 || s.sampledLines === 0) {
    return { rejected: FORMATS.map((f) => ({ format: f.id, reason: 'the file is empty' })) };
  }
  // JSONL logs first; a JSON document is only parsed as a whole when no log format recognises the lines.
  for (const shape of ['jsonl', 'json'] as const) {
    let best: { adapter: FormatAdapter; reason: string; score: number } | undefined;
    for (const adapter of FORMATS.filter((f) => f.shape === shape)) {
      const verdict = adapter.detect(s);
      if (!verdict.ok) rejected.push({ format: adapter.id, reason: verdict.reason });
      else if (!best || verdict.score > best.score)
        best = { adapter, reason: verdict.reason, score: verdict.score };
    }
    if (best) return { adapter: best.adapter, reason: withNameHint(best.reason, best.adapter, s.fileName) };
  }
  return { rejected };
}

function withNameHint(reason: string, adapter: FormatAdapter, fileName?: string): string {
  if (!fileName) return reason;
  const jsonl = /\.jsonl$/i.test(fileName);
  if (adapter.shape === 'json' && jsonl) return `${reason} (although the file name ends in .jsonl)`;
  return reason;
}

export function detectFormat(bytes: Uint8Array, fileName?: string): Detection {
  const result = detectIn(sniff(bytes, fileName));
  return 'adapter' in result
    ? { format: result.adapter.id, reason: result.reason }
    : { format: null, rejected: result.rejected };
}
