// The header's one line on the cache: the most expensive cause of the breaks the log records, as the host found it.
// Nothing while it is on its way, or when the log shows no break.
import { CAUSE_LABELS } from '../../src/core/cacheBreaks/causeLabels';
import type { HostMessage } from '../../src/protocol/hostMessages';
import { formatCost } from './format';

export function CacheHeadline({ cache }: { cache: Extract<HostMessage, { type: 'cacheView' }> | null }) {
  const headline = cache?.headline;
  const top = headline?.costliest;
  if (!headline || !top) return null;
  const words = `Cache breaks cost ${formatCost(headline.cost)}; the costliest cause: ${CAUSE_LABELS[top.cause].many} (${top.breaks} break${top.breaks === 1 ? '' : 's'}, ${formatCost(top.cost)})`;
  // Whole in its tooltip: a short view cuts it to one line.
  return (
    <p className="cache-headline" data-testid="cache-headline" title={words}>
      {words}
    </p>
  );
}
