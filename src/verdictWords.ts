// The verdict in words (core/verdict.ts ranks): the same lines for the view's card, `simulate`'s first lines and
// the editor's command. Engine-free, so the webview words what the host sent.
import type { Verdict, VerdictRow } from './core/verdict';

/** What the words read of a verdict (the wire's form too: a snippet's target is only shown). */
export type VerdictFacts = Omit<Verdict, 'turnOn'>;

/** Below this a difference is nothing (the sums are of floats). */
const SAME = 5e-5;

/** A cost in dollars: cents above a dollar, four places below. */
export function dollars(x: number): string {
  const a = Math.abs(x);
  return `$${a.toFixed(a >= 1 ? 2 : 4)}`;
}

/** A share, signed with a true minus ("−14.2%", "+4.5%"). */
export function signedPercent(x: number): string {
  return `${x < 0 ? '−' : '+'}${Math.abs(100 * x).toFixed(1)}%`;
}

/** "Best here: Anthropic context editing, −14.2%, $3.61 over 260 requests", or why there is none. */
export function verdictHeadline(v: VerdictFacts): string {
  const requests = `${v.requests} request${v.requests === 1 ? '' : 's'}`;
  if (v.ranked.length === 0)
    return `Nothing to rank here: no strategy is offered to this ${v.provider} session.`;
  if (!v.best) return `Best here: ${v.baseline}. No strategy costs less than ${v.against} over ${requests}.`;
  return `Best here: ${v.best.label}, ${signedPercent(v.best.deltaShare)}, ${dollars(-v.best.deltaCost)} over ${requests}`;
}

/** "Now: Tiered, +4.5% ($1.14 more)" — the policy in force against the baseline (`lead`: what it is to the
 * reader, "Now" in the view, "Default" in the CLI). */
export function currentWords(v: VerdictFacts, lead = 'Now'): string {
  const { current } = v;
  if (current.policyName === v.baseline) return `${lead}: ${current.label}, the baseline`;
  if (!current.row) return `${lead}: ${current.label}, not ranked here`;
  return `${lead}: ${current.label}, ${costAgainst(current.row, v.against)}`;
}

/** "+4.5% ($1.14 more)", "−14.2% ($3.61 less)", "the same as none". */
export function costAgainst(row: VerdictRow, baseline: string): string {
  if (Math.abs(row.deltaCost) < SAME) return `the same as ${baseline}`;
  return `${signedPercent(row.deltaShare)} (${dollars(row.deltaCost)} ${row.deltaCost > 0 ? 'more' : 'less'})`;
}

/** The verdict in a few lines of plain text: `simulate`'s first lines, and the command's text. */
export function verdictLines(v: VerdictFacts, lead = 'Now'): string[] {
  const out = [`${verdictHeadline(v)}${v.best ? ` against ${v.against}.` : ''}`, `${currentWords(v, lead)}.`];
  if (v.ranked.length > 1)
    out.push(
      `Ranked: ${v.ranked.map((r) => `${r.policyName} ${signedPercent(r.deltaShare)}${r.simulatedFromDocs ? ' †' : ''}`).join(', ')}`,
    );
  return out;
}
