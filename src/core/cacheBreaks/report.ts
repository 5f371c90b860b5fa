// The breaks of one conversation with their totals by cause, and the share nothing in the transcript explains.
import { BREAK_CAUSES, type CacheBreak, type CacheBreakReport, type CauseTotal } from './types';

export function breakReport(
  source: string,
  thread: string,
  requests: number,
  breaks: CacheBreak[],
): CacheBreakReport {
  const totals: CauseTotal[] = BREAK_CAUSES.map((cause) => ({ cause, breaks: 0, tokens: 0, cost: 0 }));
  const byCause = new Map(totals.map((t) => [t.cause, t]));
  let cost = 0;
  for (const b of breaks) {
    const total = byCause.get(b.cause) as CauseTotal;
    total.breaks++;
    total.tokens += b.tokens;
    total.cost += b.cost;
    cost += b.cost;
  }
  const miss = byCause.get('provider-miss') as CauseTotal;
  return {
    source,
    thread,
    requests,
    breaks,
    totals,
    cost,
    providerMissShare: {
      breaks: breaks.length > 0 ? miss.breaks / breaks.length : 0,
      cost: cost > 0 ? miss.cost / cost : 0,
    },
  };
}
