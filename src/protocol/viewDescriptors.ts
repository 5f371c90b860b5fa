// What the view needs of the policy and format registries, as data the host sends with the page: the policies (their
// passes as the view uses them, the headline words of a provider strategy, whether they are simulated from
// documentation), every setting's kind and range, and the format ids. The webview imports no engine code: it asks
// these, so a policy added to the registry reaches the Controls, the headline and the chart without a change here.
// Engine-free on purpose (types only from core): the webview bundle imports this module.
import type { Policy, PolicyName } from '../core/engine/policy';
import type { FormatId } from '../core/model';
import { type Check, type Infer, v } from './check';

const settingDescriptor = v.object({
  /** `section.field`, as the settings name it (`tiered.keepRecent`). */
  key: v.string,
  section: v.string,
  field: v.string,
  kind: v.oneOf(['int', 'fraction', 'bool', 'patterns', 'names', 'enum', 'intOrAll'] as const),
  /** Integers' range (`int`, `intOrAll`). */
  min: v.optional(v.number),
  max: v.optional(v.number),
  /** An `enum`'s values. */
  values: v.optional(v.array(v.string)),
  /** A provider strategy's key: the API's, shown with its section (`contextEditing.keep` is not `observation.keep`). */
  provider: v.bool,
  /** Below `below`, the setting drops what the agent may still need: `words` say what (shown beside it). */
  risk: v.optional(v.object({ below: v.number, words: v.string })),
});
export type SettingDescriptor = Infer<typeof settingDescriptor>;

const policyDescriptor = v.object({
  name: v.string,
  /** It runs the tiered pass (the ladder's bands then say what happens). */
  tiered: v.bool,
  /** Its figures come from a provider's documented behaviour rather than a rule we hold the code of. */
  simulatedFromDocs: v.bool,
  /** One provider strategy alone: its words say when it runs, in place of the trigger's. */
  alone: v.bool,
  /** How its provider strategy runs, beside its name ('' for the SPEC's designs): under the `once` trigger, and
   * under the others. */
  words: v.object({ once: v.string, otherwise: v.string }),
});
export type PolicyDescriptor = Infer<typeof policyDescriptor>;

export const viewDescriptorsCheck = v.object({
  policies: v.array(policyDescriptor),
  /** The policies the requests chart puts side by side, in its order. */
  compared: v.array(v.string),
  settings: v.array(settingDescriptor),
  formats: v.array(v.string),
});
export type ViewDescriptors = Infer<typeof viewDescriptorsCheck>;

/** The id of the page's element that carries the descriptors (a JSON data block, never run). */
export const VIEW_DESCRIPTORS_ELEMENT = 'context-lens-descriptors';

/** The wire shape of a setting's value (the host checks ranges and patterns with validatePolicy). */
function settingShape(s: SettingDescriptor): Check<unknown> {
  switch (s.kind) {
    case 'int':
      return v.int;
    case 'fraction':
      return v.number;
    case 'bool':
      return v.bool;
    case 'patterns':
    case 'names':
      return v.array(v.string);
    case 'enum':
      return v.oneOf(s.values ?? []);
    case 'intOrAll':
      return v.union([v.int, v.literal('all')]);
  }
}

/** The check of a policy as the registry described it: its name one of the policies, every section's settings of
 * their kind. */
export function policyCheckOf(d: ViewDescriptors): Check<Policy> {
  const sections: Record<string, Record<string, Check<unknown>>> = {};
  for (const s of d.settings) {
    sections[s.section] ??= {};
    sections[s.section][s.field] = settingShape(s);
  }
  const names = d.policies.map((p) => p.name) as PolicyName[];
  return v.object({
    name: v.oneOf(names),
    ...Object.fromEntries(Object.entries(sections).map(([key, fields]) => [key, v.object(fields)])),
    model: v.string,
  }) as unknown as Check<Policy>;
}

export const formatCheckOf = (d: ViewDescriptors): Check<FormatId> =>
  v.oneOf(d.formats) as unknown as Check<FormatId>;
