// The cost of the breaks by cause, as many sessions add them up (the report's rows per session, project, day and in
// total; the Sessions view's tooltip): only the causes that broke the cache, each with its breaks and cost.
import { CAUSE_LABELS } from './causeLabels';
import { BREAK_CAUSES, type BreakCause, type CacheBreakReport } from './types';

export type CauseCosts = Partial<Record<BreakCause, { breaks: number; cost: number }>>;

export function causeCosts(r: CacheBreakReport): CauseCosts {
  const out: CauseCosts = {};
  for (const t of r.totals) if (t.breaks > 0) out[t.cause] = { breaks: t.breaks, cost: t.cost };
  return out;
}

/** Adds `from` into `into`. */
export function addCauseCosts(into: CauseCosts, from: CauseCosts | undefined): void {
  for (const cause of BREAK_CAUSES) {
    const f = from?.[cause];
    if (!f) continue;
    const t = into[cause] ?? { breaks: 0, cost: 0 };
    t.breaks += f.breaks;
    t.cost += f.cost;
    into[cause] = t;
  }
}

export function breaksTotal(c: CauseCosts): { breaks: number; cost: number } {
  let breaks = 0;
  let cost = 0;
  for (const cause of BREAK_CAUSES) {
    breaks += c[cause]?.breaks ?? 0;
    cost += c[cause]?.cost ?? 0;
  }
  return { breaks, cost };
}

/** The cause that cost the most (the closed list's order decides a tie). */
export function costliestOf(c: CauseCosts): BreakCause | undefined {
  let best: BreakCause | undefined;
  for (const cause of BREAK_CAUSES) {
    const t = c[cause];
    if (t && (best === undefined || t.cost > (c[best]?.cost ?? 0))) best = cause;
  }
  return best;
}

const money = (x: number) => `$${x.toFixed(Math.abs(x) < 0.01 && x !== 0 ? 4 : 2)}`;

/** "TTL expiries: 9 breaks, $4.12" */
export function causeCostWords(cause: BreakCause, t: { breaks: number; cost: number }): string {
  return `${CAUSE_LABELS[cause].many}: ${t.breaks} break${t.breaks === 1 ? '' : 's'}, ${money(t.cost)}`;
}

/** Every cause that broke the cache, costliest first: "TTL expiries: 9 breaks, $4.12; model switches: …". */
export function causeCostsWords(c: CauseCosts): string {
  return BREAK_CAUSES.filter((cause) => c[cause])
    .sort((a, b) => (c[b]?.cost ?? 0) - (c[a]?.cost ?? 0))
    .map((cause) => causeCostWords(cause, c[cause] as { breaks: number; cost: number }))
    .join('; ');
}
