// The descriptors of the registries the host sends with the page (src/protocol/viewDescriptors.ts): the views ask
// these what a policy runs and how a setting is bounded, and hold no engine code of their own.
import { createContext, useContext } from 'react';
import { check } from '../src/protocol/check';
import type { Parsed } from '../src/protocol/parse';
import {
  type PolicyDescriptor,
  VIEW_DESCRIPTORS_ELEMENT,
  type ViewDescriptors,
  viewDescriptorsCheck,
} from '../src/protocol/viewDescriptors';

export const DescriptorsContext = createContext<ViewDescriptors | null>(null);

export function useDescriptors(): ViewDescriptors {
  const d = useContext(DescriptorsContext);
  if (!d) throw new Error('Context Lens: the view was drawn without the descriptors the host sends');
  return d;
}

/** The descriptor of the policy `name`; a name the host did not describe runs no pass the view knows of. */
export function policyOf(d: ViewDescriptors, name: string): PolicyDescriptor {
  return (
    d.policies.find((p) => p.name === name) ?? {
      name,
      tiered: false,
      simulatedFromDocs: false,
      alone: false,
      words: { once: '', otherwise: '' },
    }
  );
}

/** The descriptors the page carries, checked as any message from the host. */
export function readDescriptors(doc: Document): Parsed<ViewDescriptors> {
  const text = doc.getElementById(VIEW_DESCRIPTORS_ELEMENT)?.textContent;
  if (!text) return { ok: false, error: 'the page carries no descriptors' };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `the page's descriptors are not JSON: ${String(e)}` };
  }
  const error = check(viewDescriptorsCheck, data, 'descriptors');
  return error
    ? { ok: false, error: `invalid descriptors: ${error}` }
    : { ok: true, value: data as ViewDescriptors };
}

/** The warning a setting's value carries, as its descriptor declares it (a keepRecent near 0 rewrites what the
 * agent just read), or undefined. */
export function settingWarning(d: ViewDescriptors, key: string, value: unknown): string | undefined {
  const risk = d.settings.find((s) => s.key === key)?.risk;
  return risk && typeof value === 'number' && value < risk.below
    ? `${key.slice(key.indexOf('.') + 1)} ${value} < ${risk.below}: ${risk.words}`
    : undefined;
}
