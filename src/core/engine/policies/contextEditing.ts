// Anthropic context editing (contextEditing.ts): the parameters of `clear_tool_uses_20250919` and
// `clear_thinking_20251015`, under the API's own names in camel case. The defaults are the API's (a request naming
// only the strategy's type); thinking is kept, as "none" sends it.
import { int, MAX_INT, type StrategyDescriptor, type TurnOnSnippet } from './descriptor';

/** The beta header and the edits' types, as Anthropic's documentation names them. */
export const CONTEXT_EDITING_BETA = 'context-management-2025-06-27';
export const CLEAR_TOOL_USES = 'clear_tool_uses_20250919';
export const CLEAR_THINKING = 'clear_thinking_20251015';

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

/** The `context_management` block of an Anthropic Messages request that asks for these settings. The trigger and
 * `keep` are always written (a reader sees the values simulated); `clear_thinking_20251015` comes first, and only
 * when the requests carry thinking: without it the API keeps the thinking of the last turn only, which is not what
 * "all" means. */
export function contextManagementBlock(
  s: ContextEditingSettings,
  withThinking: boolean,
): { edits: Record<string, unknown>[] } {
  const edits: Record<string, unknown>[] = [];
  if (withThinking)
    edits.push({
      type: CLEAR_THINKING,
      keep: s.clearThinkingKeep === 'all' ? 'all' : { type: 'thinking_turns', value: s.clearThinkingKeep },
    });
  const tools: Record<string, unknown> = { type: CLEAR_TOOL_USES };
  tools.trigger = { type: s.triggerType, value: s.trigger };
  tools.keep = { type: 'tool_uses', value: s.keep };
  if (s.clearAtLeast > 0) tools.clear_at_least = { type: 'input_tokens', value: s.clearAtLeast };
  if (s.excludeTools.length > 0) tools.exclude_tools = [...s.excludeTools];
  if (s.clearToolInputs) tools.clear_tool_inputs = true;
  edits.push(tools);
  return { edits };
}

/** Context editing is a field of the request an agent sends: the lines go in the body of an agent that calls the
 * Messages API itself. Claude Code builds its own requests and has no setting that sends these edits. */
function turnOnContextEditing(s: ContextEditingSettings, thinking: boolean): TurnOnSnippet[] {
  return [
    {
      target: 'anthropic-request',
      language: 'json',
      title: `Anthropic Messages request body, sent with the header "anthropic-beta: ${CONTEXT_EDITING_BETA}"`,
      text: JSON.stringify({ context_management: contextManagementBlock(s, thinking) }, null, 2),
      note: 'Claude Code builds its own requests and has no setting for these edits: the lines are for an agent that calls the API itself.',
    },
  ];
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
  turnOn: (settings, session) => turnOnContextEditing(settings, session.thinking),
};
