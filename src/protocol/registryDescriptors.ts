// The view's descriptors (viewDescriptors.ts) as the registries give them: built on the host, sent with the page.
import {
  COMPARED_POLICIES,
  isStrategyAlone,
  POLICY_NAMES,
  POLICY_PASSES,
  PROVIDER_SECTIONS,
  SETTINGS,
  simulatedFromDocs,
  strategyWords,
} from '../core/engine/policies/registry';
import { FORMATS } from '../core/formats/registry';
import type { SettingDescriptor, ViewDescriptors } from './viewDescriptors';

function settingDescriptor({ key, section, field, spec }: (typeof SETTINGS)[number]): SettingDescriptor {
  const d: SettingDescriptor = {
    key,
    section,
    field,
    kind: spec.kind,
    provider: PROVIDER_SECTIONS.has(section),
  };
  if (spec.kind === 'int' || spec.kind === 'intOrAll') {
    d.min = spec.min;
    d.max = spec.max;
  }
  if (spec.kind === 'enum') d.values = [...spec.values];
  if (spec.risk) d.risk = { ...spec.risk };
  return d;
}

export function registryDescriptors(): ViewDescriptors {
  return {
    policies: POLICY_NAMES.map((name) => ({
      name,
      tiered: POLICY_PASSES[name].tiered,
      simulatedFromDocs: simulatedFromDocs(name),
      alone: isStrategyAlone(name),
      words: { once: strategyWords(name, true), otherwise: strategyWords(name, false) },
    })),
    compared: [...COMPARED_POLICIES],
    settings: SETTINGS.map(settingDescriptor),
    formats: FORMATS.map((f) => f.id),
  };
}

/** Built once: the registries do not change while the extension runs. */
export const REGISTRY_DESCRIPTORS: ViewDescriptors = registryDescriptors();
