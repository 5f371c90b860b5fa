// What a provider's strategy adds to the request one would send to try it for real, and what to say about it:
// Anthropic context editing is a `context_management` block and a beta header (which a request body cannot carry,
// so the export's notes name it); compaction is the agent's or the server's own doing, said in words.
import { CONTEXT_EDITING_BETA, contextManagementBlock } from './engine/contextEditing';
import { turnOnOf } from './engine/policies/registry';
import { type Policy, policyPasses } from './engine/policy';
import { type AnthropicRequest, enableThinking } from './formats/toAnthropicRequest';
import type { Transcript } from './model';

export interface StrategyRequestParts {
  contextManagement?: { edits: Record<string, unknown>[] };
  /** The edits include clear_thinking_20251015, which the API takes only with thinking on. */
  needsThinking?: boolean;
  /** First in the export's notes: what the request needs beyond its body. */
  notes: string[];
}

export function strategyRequestParts(
  policy: Policy,
  transcript: Transcript,
  contextWindow: number | undefined,
): StrategyRequestParts {
  const passes = policyPasses(policy.name);
  const notes: string[] = [];
  const out: StrategyRequestParts = { notes };
  if (passes.contextEditing) {
    const thinking = transcript.messages.some((m) => m.blocks.some((b) => b.type === 'thinking'));
    out.contextManagement = contextManagementBlock(policy.contextEditing, thinking);
    notes.push(
      `context editing is a beta: send the request with the header "anthropic-beta: ${CONTEXT_EDITING_BETA}"; the server clears what context_management asks for, the messages here are what the client sends`,
    );
    if (thinking) out.needsThinking = true;
  }
  if (passes.compaction) {
    const threshold = contextWindow ? Math.round(policy.compaction.threshold * contextWindow) : undefined;
    notes.push(
      `compaction is the agent's own (Claude Code compacts near the limit by itself) or the server's: with OpenAI Responses, context_management: [{"type": "compaction", "compact_threshold": ${threshold ?? `${policy.compaction.threshold} × the window`}}]; the messages here are the conversation as the agent holds it`,
    );
  }
  // A strategy whose lines go in the Anthropic request (server-side compaction): its edits, and its header in words.
  const thinking = transcript.messages.some((m) => m.blocks.some((b) => b.type === 'thinking'));
  for (const t of turnOnOf(policy, { contextWindow, thinking }, ['contextEditing', 'compaction'])) {
    if (t.target !== 'anthropic-request') continue;
    const block = JSON.parse(t.text) as { context_management?: { edits?: Record<string, unknown>[] } };
    const edits = block.context_management?.edits ?? [];
    out.contextManagement = { edits: [...(out.contextManagement?.edits ?? []), ...edits] };
    notes.push(`${t.title}${t.note ? `; ${t.note}` : ''}`);
  }
  return out;
}

/** A provider's strategy applied to the request one would send: its `context_management` block, and thinking turned
 * on where its edits need it (what that changed goes to `notes`). */
export function applyStrategy(request: AnthropicRequest, parts: StrategyRequestParts, notes: string[]): void {
  if (parts.contextManagement) request.context_management = parts.contextManagement;
  if (parts.needsThinking) enableThinking(request, notes);
}
