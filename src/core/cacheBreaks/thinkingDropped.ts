// Anthropic's API leaves the thinking of earlier turns out of the model's context: at a new prompt, the last turn's
// thinking blocks are no longer part of what is cached, and the prompt differs from the first of them. The log
// shows it when the read is what the last request ending at or before that block left in the cache: then the
// cause is that rewrite, not a provider's miss.
import type { Transcript } from '../model';
import { type Between, isPrompt } from './evidence';
import type { BreakEvidence } from './types';

/** What each earlier request of the conversation left in the cache, by the message its reply is (its end). */
export interface HeldBefore {
  ends: number[];
  left: number[];
}

/** What the last request whose prompt ends at or before `message` left in the cache (undefined: none). */
function heldBefore(h: HeldBefore, message: number): number | undefined {
  for (let k = h.ends.length - 1; k >= 0; k--) if (h.ends[k] <= message) return h.left[k];
  return undefined;
}

export function thinkingDropped(
  t: Transcript,
  b: Between,
  read: number,
  tolerance: number,
  held: HeldBefore,
): BreakEvidence | undefined {
  // Codex sends its reasoning back within a turn itself (evidence.ts `reasoningDropped`).
  if (t.reasoningKeptWithinTurn) return undefined;
  let prompt = -1;
  for (let i = b.prevEnd; i < b.end && prompt < 0; i++) if (isPrompt(t, i)) prompt = i;
  if (prompt < 0) return undefined;
  // The turn the previous request was in began at the last prompt before its end.
  let turn = b.prevEnd - 1;
  while (turn > b.start && !isPrompt(t, turn)) turn--;
  let first = -1;
  for (let i = turn; i <= b.prevEnd && first < 0; i++)
    if (t.messages[i]?.role === 'assistant' && t.messages[i].blocks.some((x) => x.type === 'thinking'))
      first = i;
  if (first < 0) return undefined;
  const before = heldBefore(held, first);
  // The longest cached prefix left is the entry the last request before that block wrote: the read is that one.
  if (before === undefined || Math.abs(read - before) > tolerance) return undefined;
  return {
    cause: 'rewrite',
    message: first,
    rule: `the API leaves the last turn's thinking out at a new prompt (message ${prompt})`,
  };
}
