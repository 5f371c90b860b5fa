// Equality of plain data, for both bundles (the host's parse and the webview's settings).

/** Equality of plain data (what a Transcript or a Policy is made of: objects, arrays, strings, numbers,
 * booleans, null), quick where the two share parts, as two parses of a grown file share their kept records'
 * strings and objects. (util.isDeepStrictEqual also compares prototypes and property attributes: several times
 * slower here, and Node's only.) */
export function sameData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null)
    return Number.isNaN(a) && Number.isNaN(b);
  if (ArrayBuffer.isView(a) || ArrayBuffer.isView(b)) return sameView(a, b);
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameData(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = Object.keys(x);
  if (keys.length !== Object.keys(y).length) return false;
  for (const key of keys) if (!Object.hasOwn(y, key) || !sameData(x[key], y[key])) return false;
  return true;
}

/** Typed arrays (and DataViews): the same kind and the same bytes. */
function sameView(a: object, b: object): boolean {
  if (!ArrayBuffer.isView(a) || !ArrayBuffer.isView(b) || a.constructor !== b.constructor) return false;
  if (a.byteLength !== b.byteLength) return false;
  const x = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  const y = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}
