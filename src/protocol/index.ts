// Every message between the extension host and the Context Lens webview, typed, in one place: each declared once
// as its check (hostMessages.ts, webviewMessages.ts), the types derived from the checks, the requests that get a
// reply in requests.ts. Both sides validate what arrives before acting on it. This index is the host's: it
// builds the host-side checks from the registries; the webview imports the engine-free modules directly.
import { hostMessageParser } from './parse';
import { REGISTRY_DESCRIPTORS } from './registryDescriptors';
import { policyCheckOf } from './viewDescriptors';

export { analysisCheckOf } from '../analysisWire/check';
export type { HostMessage, HostMessageOf } from './hostMessages';
export type { Parsed } from './parse';
export { REGISTRY_DESCRIPTORS, registryDescriptors } from './registryDescriptors';
export type { ReplyOf, RequestMessage, RequestType, WebviewCommand } from './requests';
export {
  type PolicySettingKey,
  policySetting,
  type SettingKey,
  type SettingValue,
  withPolicySetting,
} from './settingValues';
export {
  type BlockDetail,
  type DiagnosticSummary,
  type MarkerSummary,
  type MessageSummary,
  type ModelPresetSummary,
  type PolicyComparison,
  type SummarizerName,
  SWEEP_KEYS,
  type SweepCellWire,
  type SweepGridWire,
  type SweepKey,
  type ThreadSummary,
  type ViewLayout,
} from './shared';
export type { ViewDescriptors } from './viewDescriptors';
export { parseWebviewMessage, SETTING_KEYS, type WebviewMessage } from './webviewMessages';

/** Validates a host message against the registries (the host reads back what it kept: view snapshots). */
export const parseHostMessage = hostMessageParser(REGISTRY_DESCRIPTORS);

/** A policy as the protocol checks it. */
export const policyCheck = policyCheckOf(REGISTRY_DESCRIPTORS);
