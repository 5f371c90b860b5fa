// Every cache break of a conversation, explained and priced: those the log records and, for a simulated policy,
// those its replay makes. Computed from the transcript and its Analysis; the Analysis itself is left as it is.
export { loggedBreaks } from './logged';
export { breakReport } from './report';
export { simulatedBreaks } from './simulated';
export * from './types';
export { durationWords, evidenceWords } from './words';
