// The analysis as it crosses from the host to the webview: its types (derived from Analysis), its checks, and the
// encoding, decoding and patching of its columns.
export { analysisCheckOf, compressionEventCheck, paybackCheck, totalsCheck } from './check';
export {
  type MessageColumns,
  messageColumnsCheck,
  type RequestColumns,
  requestColumnsCheck,
} from './columns';
export { decodeAnalysis, decodePatched, decodeRequests } from './decode';
export { boundaryEventOf, encodeAnalysis, encodeRequests } from './encode';
export {
  type AnalysisPatch,
  analysisPatchCheck,
  applyPatch,
  diffAnalysis,
  KEPT_FIELDS,
  type KeptField,
} from './patch';
export {
  type AnalysisWire,
  type CompactionsView,
  LIVE_FACT_WIDTH,
  type RecordedTotals,
  type ViewAnalysis,
  type WireWhy,
} from './types';
