// Anthropic context editing (contextEditing.ts): the parameters of `clear_tool_uses_20250919` and
// `clear_thinking_20251015`, under the API's own names in camel case. The defaults are the API's (a request naming
// only the strategy's type); thinking is kept, as "none" sends it.
import { int, MAX_INT, type StrategyDescriptor } from './descriptor';

/** What `contextEditing.trigger` counts (the API's `trigger.type`). */
export type ContextEditingTriggerType = 'input_tokens' | 'tool_uses';

export interface ContextEditingSettings {
  /** `trigger.type`: the prompt's input tokens, or the number of tool uses in it. */
  triggerType: ContextEditingTriggerType;
  /** `trigger.value`: clearing starts once the prompt exceeds it. */
  trigger: number;
  /** `keep` (tool uses): the newest tool uses never cleared. */
  keep: number;
  /** `clear_at_least` (input tokens): a clearing that would free fewer is not applied; 0: not sent. */
  clearAtLeast: number;
  /** `exclude_tools`: tool names whose uses and results are never cleared (exact names, as the API takes them). */
  excludeTools: string[];
  /** `clear_tool_inputs`: also clear the inputs of the cleared calls. */
  clearToolInputs: boolean;
  /** `clear_thinking_20251015` `keep` (thinking turns): the newest assistant turns whose thinking is kept, or
   * `all` (nothing cleared). */
  clearThinkingKeep: number | 'all';
}

export const contextEditing: StrategyDescriptor<'contextEditing', ContextEditingSettings> = {
  key: 'contextEditing',
  settings: {
    triggerType: {
      kind: 'enum',
      values: ['input_tokens', 'tool_uses'],
      default: 'input_tokens',
      description:
        "Anthropic context editing, `clear_tool_uses_20250919` `trigger.type`: what `contextEditing.trigger` counts, the prompt's input tokens or its tool uses.",
    },
    trigger: {
      ...int(1),
      default: 100_000,
      description:
        '`trigger.value`: clearing starts once the prompt exceeds it (API default: 100,000 input tokens).',
    },
    keep: {
      ...int(0),
      default: 3,
      description: '`keep` (tool uses): the newest tool uses never cleared (API default: 3).',
    },
    clearAtLeast: {
      ...int(0),
      default: 0,
      description:
        '`clear_at_least` (input tokens): an edit that would free fewer tokens is not applied; `0`: not sent.',
    },
    excludeTools: {
      kind: 'names',
      default: [],
      description: '`exclude_tools`: tool names (exact) whose uses and results are never cleared.',
    },
    clearToolInputs: {
      kind: 'bool',
      default: false,
      description: '`clear_tool_inputs`: also clear the inputs of the cleared tool calls.',
    },
    clearThinkingKeep: {
      kind: 'intOrAll',
      min: 1,
      max: MAX_INT,
      default: 'all',
      description:
        '`clear_thinking_20251015` `keep` (thinking turns): the newest assistant turns whose thinking is kept, or `all` (nothing cleared).',
    },
  },
  strategy: {
    providers: ['anthropic'],
    simulatedFromDocs: true,
    words: {
      alone: (once) =>
        `on Anthropic's server before ${once ? 'the next request' : 'every request'}, simulated from its documented behaviour`,
      combined: "and context editing on Anthropic's server, simulated from its documented behaviour",
    },
  },
};
