// Gemini API parts (`Part`: text, thought, function call, function response, inline data) as blocks. Gemini CLI's
// message records and Qwen Code's chat records both carry them; each reader says where its parts sit.
import type { Block, SourceRange, ValueLocation } from '../model';
import { compactJson, isObject, str } from './json';
import type { Diagnostics } from './types';

type Path = (string | number)[];

/** Where one record's parts sit, and what its format's reading of them keeps apart. */
export interface GeminiPartPlace {
  source: SourceRange;
  /** The location of the part at `path`, with the path of its string value where a rewrite replaces it. */
  at(path: Path, valuePath?: Path): ValueLocation;
  /** The next number for a function call the record gives no id ("name#N"). */
  nextCall(): number;
  /** Whether a bare string is a text part (Gemini CLI writes them; the API's `Content` has none). */
  strings: boolean;
  diags: Diagnostics;
  /** The prefix of an unknown part's diagnostic key ("gemini-part"): each kind is reported once. */
  unknownKey: string;
}

/** A part at `path` as a block; undefined for what is no part. */
export function geminiPartBlock(place: GeminiPartPlace, part: unknown, path: Path): Block | undefined {
  const { source } = place;
  if (typeof part === 'string')
    return place.strings ? { type: 'text', text: part, source, location: place.at(path) } : undefined;
  if (!isObject(part)) return undefined;
  if (typeof part.text === 'string') {
    if (part.thought === true)
      return { type: 'thinking', text: part.text, redacted: false, source, location: place.at(path) };
    return { type: 'text', text: part.text, source, location: place.at(path, [...path, 'text']) };
  }
  if (isObject(part.functionCall)) {
    const call = part.functionCall;
    return {
      type: 'tool_use',
      id: str(call.id) ?? `${str(call.name) ?? 'call'}#${place.nextCall()}`,
      name: str(call.name) ?? '',
      input: call.args ?? {},
      source,
      location: place.at(path),
    };
  }
  if (isObject(part.functionResponse)) return functionResponseBlock(place, part, path, false);
  if (isObject(part.inlineData)) {
    const mime = str(part.inlineData.mimeType);
    const data = str(part.inlineData.data);
    if (mime && !mime.startsWith('image/'))
      return { type: 'other', kind: mime, raw: compactJson(part), source, location: place.at(path) };
    const img: Block = { type: 'image', source, location: place.at(path) };
    if (mime) img.mediaType = mime;
    if (data !== undefined) img.dataLength = data.length;
    return img;
  }
  const kind = Object.keys(part)[0] ?? 'part';
  place.diags.once(
    `${place.unknownKey}:${kind}`,
    'info',
    'unknown-block',
    `part "${kind}" is kept as is and not compressed`,
    source,
  );
  return { type: 'other', kind, raw: compactJson(part), source, location: place.at(path) };
}

/** A tool's result: a `functionResponse` part at `path` (`failed`: the call's status says it failed). Its output
 * or error string is what a rewrite replaces. */
export function functionResponseBlock(
  place: GeminiPartPlace,
  part: Record<string, unknown>,
  path: Path,
  failed: boolean,
): Block {
  const fr = part.functionResponse as Record<string, unknown>;
  const response = isObject(fr.response) ? fr.response : undefined;
  const toolUseId = str(fr.id) ?? '';
  const key =
    response && typeof response.output === 'string'
      ? 'output'
      : response && typeof response.error === 'string'
        ? 'error'
        : undefined;
  const isError = failed || key === 'error';
  if (key && response)
    return {
      type: 'tool_result',
      toolUseId,
      content: response[key] as string,
      isError,
      source: place.source,
      location: place.at(path, [...path, 'functionResponse', 'response', key]),
    };
  // Another shape of response (an object of the tool's own): shown whole, never rewritten.
  return {
    type: 'tool_result',
    toolUseId,
    content: compactJson(fr.response ?? null),
    isError,
    fixed: true,
    source: place.source,
    location: place.at(path),
  };
}
