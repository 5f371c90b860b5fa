// The analysis's messages and requests as columns, declared as their checks (the types are derived from them). A
// 10,000-message analysis is ~5 MB as objects and must cross on every threshold change (each crossing is
// serialised, copied and validated); as columns it is a tenth of that, and validating a column is a loop over
// numbers. Each column has an encoding of its own (one-character codes, -1 for none), which is why the columns are
// declared here rather than mapped from MessageAnalysis and RequestAnalysis.
import { type Check, type Infer, v } from '../protocol/check';

/** A column of one-character codes, each from `alphabet`. */
const codes = (alphabet: string): Check<string> =>
  ((x: unknown, p: string) => {
    if (typeof x !== 'string') return `${p}: expected a string of codes, got ${typeof x}`;
    for (let i = 0; i < x.length; i++)
      if (!alphabet.includes(x[i]))
        return `${p}[${i}]: expected one of "${alphabet}", got ${JSON.stringify(x[i])}`;
    return null;
  }) as Check<string>;

/** Every column of a table has the same length; with `emptyAllowed`, a column may be empty instead (one a patch
 * leaves out: the analysis message checks that the patch names it). */
function sameLength<T extends object>(inner: Check<T>, emptyAllowed = false): Check<T> {
  return v.refine(inner, (x, p) => {
    const cols = Object.entries(x as Record<string, { length: number }>);
    const full = emptyAllowed ? cols.filter(([, c]) => c.length > 0) : cols;
    const n = full[0]?.[1].length ?? 0;
    const bad = full.find(([, c]) => c.length !== n);
    return bad ? `${p}.${bad[0]}: ${bad[1].length} entries, but ${full[0][0]} has ${n}` : null;
  });
}

const numbers = v.array(v.number);

export const messageColumnsCheck = sameLength(
  v.object({
    /** One character per message: '1', '2', '3', or '-' (no tool result). */
    tier: codes('123-'),
    /** -1 for none. */
    distance: numbers,
    /** One character per message: '1' floored, '0' not. */
    floored: codes('01'),
    /** One character per message: 'p' prefix, 'r' protected, 'l' live. */
    zone: codes('prl'),
    /** One character per message: '1' rewritten, '0' not. */
    rewritten: codes('01'),
    tokensBefore: numbers,
    tokensAfter: numbers,
  }),
  true,
);
export type MessageColumns = Infer<typeof messageColumnsCheck>;

export const requestColumnsCheck = sameLength(
  v.object({
    messageCount: numbers,
    promptTokens: numbers,
    cachedTokens: numbers,
    writtenTokens: numbers,
    /** -1 for none. */
    boundaryMessage: numbers,
    cost: numbers,
    /** Recorded usage per request; -1 where the log has none. */
    recordedInput: numbers,
    recordedCacheRead: numbers,
    recordedCacheCreation: numbers,
    recordedOutput: numbers,
  }),
);
export type RequestColumns = Infer<typeof requestColumnsCheck>;
