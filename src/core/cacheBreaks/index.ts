// Every cache break of a conversation, explained and priced: those the log records and, for a simulated policy,
// those its replay makes. Computed from the transcript and its Analysis; the Analysis itself is left as it is.

export {
  type Avoided,
  comparedLifetimes,
  type Lifetime,
  type Lifetimes,
  type SwitchCost,
  switchCosts,
  type TtlAvoided,
  ttlAvoided,
  withLifetime,
} from './avoided';
export {
  addCauseCosts,
  breaksTotal,
  type CauseCosts,
  causeCosts,
  causeCostsWords,
  causeCostWords,
  costliestOf,
} from './causeCosts';
export { CAUSE_LABELS, causeTitle } from './causeLabels';
export { loggedBreaks } from './logged';
export { breakReport } from './report';
export { simulatedBreaks } from './simulated';
export * from './types';
export {
  type CacheHeadline,
  type CacheView,
  cacheHeadline,
  costliestCause,
  differsAt,
  type HitRate,
  hitRates,
  type ViewBreak,
  type ViewBreakReport,
  viewReport,
} from './view';
export { durationWords, evidenceWords } from './words';
