// The `contextLens.*` keys the webview changes, and how each reads and writes a policy. Engine-free (types only
// from the registry): the webview uses these to show its own changes at once.
import type { SettingPath } from '../core/engine/policies/registry';
import type { Policy } from '../core/engine/policy';

/** A `contextLens.*` setting key below the section (e.g. `tiered.keepRecent`, `policy`, `summarizer`). */
export type SettingKey = 'policy' | SettingPath | 'model' | 'summarizer';
export type SettingValue = number | boolean | string | string[];
export type PolicySettingKey = Exclude<SettingKey, 'summarizer'>;

/** The value of a `contextLens.*` key in a policy (`policy` is the policy's name). */
export function policySetting(policy: Policy, key: PolicySettingKey): SettingValue {
  if (key === 'policy') return policy.name;
  if (key === 'model') return policy.model;
  const [group, field] = key.split('.') as [keyof Policy, string];
  return (policy[group] as unknown as Record<string, SettingValue>)[field];
}

/** A copy of `policy` with one key changed. The value's type is checked by the caller (host: validatePolicy). */
export function withPolicySetting(policy: Policy, key: PolicySettingKey, value: SettingValue): Policy {
  if (key === 'policy') return { ...policy, name: value as Policy['name'] };
  if (key === 'model') return { ...policy, model: value as string };
  const [group, field] = key.split('.') as [
    'tiered' | 'observation' | 'liveZone' | 'replay' | 'contextEditing' | 'compaction',
    string,
  ];
  return { ...policy, [group]: { ...policy[group], [field]: value } };
}
