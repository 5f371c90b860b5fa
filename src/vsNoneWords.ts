// SPEC §5 in words, the same for the CLI and the view: a policy against none over the same requests, and the
// payback of one pass now. The figures are the engine's (core/vsNone.ts); this only words them.
import type { Payback, VsNone } from './core/analysisTypes';

/** The baseline in words: what every comparison says it is against. */
export function baselineWords(baseline: VsNone['baseline']): string {
  return baseline === 'none' ? '"none" (no compaction)' : '"as logged"';
}

export const money = (x: number) => `$${x.toFixed(4)}`;
export const signedMoney = (x: number) => `${x >= 0 ? '+' : '−'}$${Math.abs(x).toFixed(4)}`;
export const count = (n: number) => Math.round(n).toLocaleString('en-US');
export const signedShare = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(100 * x).toFixed(1)}%`;

/** "costs 14.7% more than as logged: $0.2646 against $0.2307 (+$0.0340) over 14 requests" */
export function costWords(v: VsNone): string {
  const base = baselineWords(v.baseline);
  const how =
    Math.abs(v.deltaCost) < 5e-5
      ? `costs the same as ${base}`
      : `costs ${Math.abs(100 * v.deltaShare).toFixed(1)}% ${v.deltaCost > 0 ? 'more' : 'less'} than ${base}`;
  return `${how}: ${money(v.cost)} against ${money(v.noneCost)} (${signedMoney(v.deltaCost)}) over ${v.requests} request${v.requests === 1 ? '' : 's'}`;
}

/** "saves 531 prompt tokens; its rewrites write 5,953 more tokens to the cache" */
export function tokenWords(v: VsNone): string {
  const saved =
    v.tokensSaved > 0
      ? `saves ${count(v.tokensSaved)} prompt tokens`
      : v.tokensSaved < 0
        ? `sends ${count(-v.tokensSaved)} more prompt tokens`
        : 'saves no prompt token';
  const writes =
    v.extraWritten > 0
      ? `its rewrites write ${count(v.extraWritten)} more tokens to the cache`
      : v.extraWritten < 0
        ? `it writes ${count(-v.extraWritten)} fewer tokens to the cache`
        : 'no extra cache write';
  return `${saved}; ${writes}`;
}

/** SPEC §5 for one pass now: the next request's extra write against the saving per later request. */
export function paybackWords(p: Payback): string {
  if (p.extraWrittenTokens === 0 && p.savedTokensPerRequest === 0)
    return 'if compacted now: the pass changes nothing the next request sends';
  const write =
    p.extraWrittenTokens >= 0
      ? `the next request writes ${count(p.extraWrittenTokens)} more tokens to the cache`
      : `the next request writes ${count(-p.extraWrittenTokens)} fewer tokens to the cache`;
  const save =
    p.savedTokensPerRequest > 0
      ? `each later request saves ${count(p.savedTokensPerRequest)} tokens (−$${p.savedCostPerRequest.toFixed(4)})`
      : 'later requests save nothing';
  const back =
    p.paybackRequests === null
      ? 'it never pays back'
      : p.paybackRequests === 0
        ? 'it pays back at once'
        : `it pays back after ${p.paybackRequests} request${p.paybackRequests === 1 ? '' : 's'}`;
  return `if compacted now: ${write} (${signedMoney(p.extraCost)}); ${save}; ${back}`;
}
