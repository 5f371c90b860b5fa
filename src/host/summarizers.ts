// Where the host finds a summarizer by its setting name. `none` and `extractive` come from the engine; the
// editor's language-model summarizer (`vscode-lm`) is registered here by its own module when it is available.

import type { Policy } from '../core/engine/policy';
import { createSummarizer, type Summarizer } from '../core/engine/summarizer';
import type { SummarizerName } from '../protocol';

export type SummarizerFactory = (policy: Policy) => Summarizer | null;

const factories = new Map<SummarizerName, SummarizerFactory>();

export function registerSummarizer(name: SummarizerName, factory: SummarizerFactory): { dispose(): void } {
  factories.set(name, factory);
  return { dispose: () => factories.delete(name) };
}

/** The summarizer for a setting; `null` means `none`. Throws when the named one is not available. */
export function summarizerFor(name: SummarizerName, policy: Policy): Summarizer | null {
  if (name === 'none') return null;
  if (name === 'extractive') return createSummarizer('extractive', policy.tiered.maxResultChars);
  const factory = factories.get(name);
  if (!factory)
    throw new Error(`summarizer "${name}" is not available in this editor (no language model registered)`);
  return factory(policy);
}
