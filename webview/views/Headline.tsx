// The view's answer at a glance (SPEC §5): what the policy does to this session against none over the same
// requests, and for one pass now, when it pays back. The figures are the engine's; this only words them.
import type { ViewAnalysis } from '../../src/analysisWire/types';
import type { Payback } from '../../src/core/analysisTypes';
import { baselineWords, costWords, paybackWords, tokenWords } from '../../src/vsNoneWords';
import { policyOf, useDescriptors } from '../descriptors';
import { Flags } from './Flags';

const TRIGGER_WORDS: Record<ViewAnalysis['trigger'], string> = {
  once: 'one pass before the next request',
  everyRequest: 'a pass before every request',
  pressure: 'a pass when a request nears the context window',
};

export function Headline(props: { analysis: ViewAnalysis; compactedNow: Payback | null }) {
  const { analysis } = props;
  const v = analysis.vsNone;
  const described = policyOf(useDescriptors(), analysis.policyName);
  const strategy = analysis.trigger === 'once' ? described.words.once : described.words.otherwise;
  const how = described.alone
    ? strategy
    : `${TRIGGER_WORDS[analysis.trigger]}${strategy ? ` ${strategy}` : ''}`;
  if (!v)
    return (
      <>
        <p className="headline" data-testid="headline">
          No policy: the requests as the agent sent them ({analysis.sentRequests} requests).
        </p>
        <Flags flags={analysis.flags} where="requests" />
        <Flags flags={analysis.flags} where="recorded" />
      </>
    );
  const payback = v.compactedNow ?? props.compactedNow;
  const worse = v.deltaCost > 5e-5;
  return (
    <>
      <p
        className={`headline${worse ? ' headline-worse' : ''}`}
        data-testid="headline"
        data-delta-cost={v.deltaCost.toFixed(6)}
        data-baseline={v.baseline}
        title={`${analysis.policyName} (${how}) against ${baselineWords(v.baseline)}: ${costWords(v)}; ${tokenWords(v)}.${payback ? ` ${capital(paybackWords(payback))}.` : ''}`}
      >
        <strong>{analysis.policyName}</strong> (
        {analysis.policyName === 'none' ? "the log's own compactions and their summarization requests" : how}){' '}
        {costWords(v)}; {tokenWords(v)}.
        {payback ? <span className="headline-payback"> {capital(paybackWords(payback))}.</span> : null}
      </p>
      <Flags flags={analysis.flags} where="requests" />
      <Flags flags={analysis.flags} where="recorded" />
    </>
  );
}

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
