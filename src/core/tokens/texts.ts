// The strings the engine counts for a transcript, apart from the pool that counts them in worker processes
// (src/node/tokenPool.ts): what is counted is the engine's rule and runs anywhere; how it is counted off-thread
// is Node's.
import type { Transcript } from '../model';

/** The strings the engine counts for a transcript, as `blockTokens` in engine/prepare.ts counts them. */
export function transcriptTexts(transcript: Transcript): string[] {
  const out: string[] = [];
  visitTexts(transcript, (text) => out.push(text));
  return out;
}

/** Every string of `transcript` that is counted, in order; `held`: the string is the transcript's own (not one
 * made from it here, as a tool call's input in JSON). */
export function visitTexts(transcript: Transcript, see: (text: string, held: boolean) => void): void {
  if (transcript.system) see(transcript.system, true);
  if (transcript.tools && transcript.tools.length > 0) see(JSON.stringify(transcript.tools), false);
  const visit = (blocks: Transcript['messages'][number]['blocks']) => {
    for (const b of blocks) {
      if (b.type === 'text' || b.type === 'thinking') see(b.text, true);
      else if (b.type === 'tool_use') {
        see(b.name, true);
        see(b.id, true);
        if (typeof b.input === 'string') see(b.input, true);
        else see(JSON.stringify(b.input) ?? '', false);
      } else if (b.type === 'tool_result') {
        see(b.toolUseId, true);
        if (typeof b.content === 'string') see(b.content, true);
        else visit(b.content);
      } else if (b.type === 'other') see(b.raw, true);
    }
  };
  for (const m of transcript.messages) visit(m.blocks);
}
