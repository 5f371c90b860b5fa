// The strings the engine counts for a transcript, apart from the pool that counts them in worker processes
// (src/node/tokenPool.ts): what is counted is the engine's rule and runs anywhere; how it is counted off-thread
// is Node's.
import type { Transcript } from '../model';

/** Data held inline in a block the engine does not read (a PDF's or an attachment's base64, a `data:` URL): no text the
 * model reads. */
const INLINE_DATA = /"(?:data:[^",]{0,100},)?[A-Za-z0-9+/=]{4096,}"/g;

/** The JSON of a block the engine does not read (`other`) as it is counted: its inline data as a short note (the
 * attachment is counted as an image is, `blockTokens`). Counted as text, a 4 MB session's one PDF was 150,000 tokens
 * the model never read. */
export function countedRaw(raw: string): string {
  return raw.length < 4096
    ? raw
    : raw.replace(INLINE_DATA, (m) => `"[${m.length - 2} characters of inline data]"`);
}

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
      } else if (b.type === 'other') {
        const counted = countedRaw(b.raw);
        see(counted, counted === b.raw);
      }
    }
  };
  for (const m of transcript.messages) visit(m.blocks);
}
