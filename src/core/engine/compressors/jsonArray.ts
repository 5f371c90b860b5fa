// SPEC §4 JSON array compressor: keep K items (the first 30% of K, the last 15% of K, the rest for items with
// error words or outlying values), then a marker row pointing at the CCR store.
import { jsonDroppedRow } from '../ccr';

export const JSON_KEEP_WHOLE_MAX_ITEMS = 8;
export const JSON_MAX_ITEMS = 15;
const ERROR_WORDS =
  /\b(error|errors|failed|failure|fatal|exception|critical|denied|invalid|timeout|refused)\b/i;
/** A numeric field farther than this many standard deviations from its mean is an outlier. */
const OUTLIER_SIGMAS = 2;

function numericFields(item: unknown): [string, number][] {
  if (typeof item === 'number') return [['', item]];
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return [];
  return Object.entries(item).filter(
    (e): e is [string, number] => typeof e[1] === 'number' && Number.isFinite(e[1]),
  );
}

function outliers(items: readonly unknown[]): Set<number> {
  const byField = new Map<string, { index: number; value: number }[]>();
  items.forEach((item, index) => {
    for (const [field, value] of numericFields(item)) {
      const list = byField.get(field) ?? [];
      list.push({ index, value });
      byField.set(field, list);
    }
  });
  const out = new Set<number>();
  for (const list of byField.values()) {
    if (list.length < 3) continue;
    const mean = list.reduce((s, x) => s + x.value, 0) / list.length;
    const sd = Math.sqrt(list.reduce((s, x) => s + (x.value - mean) ** 2, 0) / list.length);
    if (sd === 0) continue;
    for (const x of list) if (Math.abs(x.value - mean) > OUTLIER_SIGMAS * sd) out.add(x.index);
  }
  return out;
}

/** `hash` null: `liveZone.ccr` is off, so the marker row is the plain form that points at no store. */
export function compressJsonArray(items: readonly unknown[], hash: string | null): string | null {
  const n = items.length;
  if (n <= JSON_KEEP_WHOLE_MAX_ITEMS || n <= JSON_MAX_ITEMS) return null;
  const k = JSON_MAX_ITEMS;
  const first = Math.floor(k * 0.3);
  const last = Math.floor(k * 0.15);
  const keep = new Set<number>();
  for (let i = 0; i < first; i++) keep.add(i);
  for (let i = n - last; i < n; i++) keep.add(i);
  const rest = k - first - last;
  const odd = outliers(items);
  const candidates: number[] = [];
  // Errors first, then outlying values, each in order of appearance.
  for (let i = first; i < n - last; i++)
    if (ERROR_WORDS.test(JSON.stringify(items[i]) ?? '')) candidates.push(i);
  for (let i = first; i < n - last; i++) if (odd.has(i) && !candidates.includes(i)) candidates.push(i);
  for (const i of candidates.slice(0, rest)) keep.add(i);
  const kept = [...keep].sort((a, b) => a - b).map((i) => items[i]);
  return JSON.stringify([...kept, jsonDroppedRow(n, kept.length, hash)]);
}
