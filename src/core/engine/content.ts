// Content helpers shared by the policies: code-point lengths, heads and tails, the text of a tool_result's content,
// and the SPEC §2 head-and-tail truncation and Tier-1 stub.
import type { Block } from '../model';

const SURROGATE = /[\uD800-\uDFFF]/;

/** Length in Unicode code points (SPEC counts characters this way, not UTF-16 units). */
export function codePointLength(text: string): number {
  if (!SURROGATE.test(text)) return text.length;
  // Each well-formed pair is one code point (a lone surrogate counts as one): the regex engine finds the pairs
  // several times faster than a loop over every unit (a session with emoji in its results).
  const pairs = text.match(SURROGATE_PAIR);
  return text.length - (pairs ? pairs.length : 0);
}

const SURROGATE_PAIR = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g;

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** The first `n` code points of `text` (a lone surrogate is one, as `Array.from` splits). Walks only those:
 * spreading a whole tool result into an array to keep its first few hundred characters cost seconds on a large
 * session. */
export function headCodePoints(text: string, n: number): string {
  let i = 0;
  for (let k = 0; k < n && i < text.length; k++)
    i += isHigh(text.charCodeAt(i)) && i + 1 < text.length && isLow(text.charCodeAt(i + 1)) ? 2 : 1;
  return text.slice(0, i);
}

/** The last `n` code points of `text`, walked from its end (a low surrogate pairs only with the high one just
 * before it, so this splits where a walk from the start would). */
export function tailCodePoints(text: string, n: number): string {
  let i = text.length;
  for (let k = 0; k < n && i > 0; k++)
    i -= isLow(text.charCodeAt(i - 1)) && i - 2 >= 0 && isHigh(text.charCodeAt(i - 2)) ? 2 : 1;
  return text.slice(i);
}

/** The text blocks nested in a tool_result, concatenated (what SPEC §2 measures for `<N>`). */
export function nestedText(blocks: readonly Block[]): string {
  let out = '';
  for (const b of blocks) if (b.type === 'text') out += b.text;
  return out;
}

/** The content of a tool_result as one string: the string itself, or its nested text blocks. */
export function contentText(content: string | readonly Block[]): string {
  return typeof content === 'string' ? content : nestedText(content);
}

/** Length in code points of a tool_result's content (string, or the nested text blocks). */
export function contentLength(content: string | readonly Block[]): number {
  return codePointLength(contentText(content));
}

/** A stable text for hashing a content (SPEC §7 hashes "the content"): strings as they are; nested blocks as
 * their texts, with a placeholder per non-text block so that an image removal changes the hash. */
export function contentHashText(content: string | readonly Block[]): string {
  if (typeof content === 'string') return content;
  return content.map((b) => (b.type === 'text' ? b.text : `[${b.type}]`)).join('\n');
}

/** SPEC §2 head-and-tail: keep floor(max*3/4) code points of the head and floor(max/4) of the tail. */
export function headAndTail(text: string, max: number): string {
  const len = codePointLength(text);
  if (len <= max) return text;
  const head = Math.floor((max * 3) / 4);
  const tail = Math.floor(max / 4);
  return `${headCodePoints(text, head)}\n\n[... truncated ${len - max} chars ...]\n\n${tailCodePoints(text, tail)}`;
}

const encoder = new TextEncoder();

/** The call's input as compact JSON, cut to `argsChars` UTF-8 bytes plus `...` when longer. The cut backs off to
 * a code-point boundary: a string cannot hold half a character. */
export function stubArgs(input: unknown, inputInvalid: boolean | undefined, argsChars: number): string {
  const json = inputInvalid && typeof input === 'string' ? input : (JSON.stringify(input) ?? 'null');
  if (encoder.encode(json).length <= argsChars) return json;
  let bytes = 0;
  let out = '';
  for (const ch of json) {
    const size = encoder.encode(ch).length;
    if (bytes + size > argsChars) break;
    bytes += size;
    out += ch;
  }
  return `${out}...`;
}

/** SPEC §2 Tier-1 stub. */
export function tier1Stub(name: string, args: string, chars: number): string {
  return `[${name} called with ${args}] → [result: ${chars} chars, snipped]`;
}

export const IMAGE_REMOVED = '[image removed to save context]';
export const MICRO_COMPACT_PREFIX = '[micro-compact] ';

/** SPEC §3 observation stub. */
export function observationStub(tool: string, chars: number): string {
  return `[elided browser observation: ${tool}, was ${chars} chars]`;
}
export const OBSERVATION_STUB_PREFIX = '[elided browser observation: ';
