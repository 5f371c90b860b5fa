// OpenAI Responses API request bodies: `{instructions, input: [...items]}` or a bare array of items.
import type { JSONPath } from 'jsonc-parser';
import type { Transcript } from '../model';
import { isObject, str } from './json';
import { brokenNote, docLocation, documentParts } from './jsonDoc';
import { openaiNested, type PartPlace } from './openaiParts';
import { requestTranscript } from './requestBody';
import { ItemConversation } from './responseItems';
import type { FormatAdapter, Sniff, Verdict } from './types';

const RESPONSES_ITEMS = new Set([
  'message',
  'function_call',
  'function_call_output',
  'reasoning',
  'custom_tool_call',
  'custom_tool_call_output',
  'computer_call',
  'computer_call_output',
  'item_reference',
  'web_search_call',
  'local_shell_call',
  'compaction',
]);

function itemsOf(value: unknown): { list: unknown[]; path: JSONPath } | { text: string } | undefined {
  if (Array.isArray(value)) return { list: value, path: [] };
  if (!isObject(value)) return undefined;
  if (Array.isArray(value.input)) return { list: value.input, path: ['input'] };
  if (typeof value.input === 'string') return { text: value.input };
  return undefined;
}

function detect(s: Sniff): Verdict {
  const doc = s.document();
  const found = itemsOf(doc.value);
  if (!found)
    return {
      ok: false,
      reason: 'not a JSON document with an "input" list or string (nor a bare array of items)',
    };
  if ('text' in found)
    return {
      ok: true,
      score: 3,
      reason: `a JSON request body whose "input" is a string: OpenAI Responses${brokenNote(doc)}`,
    };
  const types = new Set<string>();
  for (const it of found.list) {
    if (!isObject(it)) return { ok: false, reason: 'an entry of "input" is not an object' };
    const t = str(it.type);
    if (t && RESPONSES_ITEMS.has(t)) types.add(t);
    else if (!t && typeof it.role !== 'string')
      return { ok: false, reason: 'an item has neither "type" nor "role"' };
    if (Array.isArray(it.content))
      for (const p of it.content)
        if (isObject(p) && (p.type === 'input_text' || p.type === 'output_text'))
          types.add(str(p.type) as string);
  }
  const keyed = found.path.length > 0;
  // A bare array whose objects name neither a Responses item type nor a role is some other list (a Cline task's
  // chat rows, `{ts, type: "say"}`), not a conversation.
  if (!keyed && types.size === 0 && !found.list.some((it) => isObject(it) && typeof it.role === 'string'))
    return { ok: false, reason: 'no item is a Responses item or has a role' };
  if (!keyed && types.size === 0)
    return { ok: true, score: 0, reason: 'plain role/content items: OpenAI Responses also fits' };
  const why = [keyed ? 'an "input" list' : 'a list of items', ...[...types].map((t) => `${t} items`)];
  return {
    ok: true,
    score: 2 + 3 * types.size,
    reason: `${why.join(', ')}: OpenAI Responses${brokenNote(doc)}`,
  };
}

function parse(s: Sniff, reason: string): Transcript {
  const { doc, pos, diags } = documentParts(s);
  const place: PartPlace = { at: (p, v) => docLocation(s.bytes, p, v), source: (p) => pos.rangeAt(p) };
  const conv = new ItemConversation(diags);
  const found = itemsOf(doc.value);
  if (found && 'text' in found) {
    // `input` as a plain string is one user message whose text is that string: its path is `input` itself.
    const source = pos.rangeAt(['input']);
    conv.add(
      { type: 'message', role: 'user', content: found.text },
      ['input'],
      { at: (_p, v) => docLocation(s.bytes, ['input'], v), source: () => source },
      source,
    );
  } else if (found) {
    found.list.forEach((item, k) => {
      const path = [...found.path, k];
      if (isObject(item)) conv.add(item, path, place, pos.rangeAt(path));
    });
  }
  const top = isObject(doc.value) ? doc.value : {};
  if (typeof top.previous_response_id === 'string')
    diags.once(
      'previous_response_id',
      'warning',
      'server-held-context',
      'previous_response_id: the conversation before this input is held by the server, not in this file',
      pos.rangeAt(['previous_response_id']),
    );
  const system =
    typeof top.instructions === 'string' && top.instructions !== '' ? top.instructions : undefined;
  return requestTranscript('openai-responses', reason, s, {
    messages: conv.messages,
    markers: conv.markers,
    diags,
    positions: pos,
    system,
  });
}

export const openaiResponses: FormatAdapter<'openai-responses'> = {
  id: 'openai-responses',
  shape: 'json',
  expected:
    'OpenAI Responses request: a JSON object {instructions, input: [items: message, function_call, function_call_output…]} or an array of items',
  detect,
  parse,
  nestedBlock: openaiNested('input_text'),
  wire: 'openai',
  tools: {
    floorTools: ['computer_call'],
    noSummaryTools: [],
    observationTools: ['computer_call'],
  },
  defaultModel: 'gpt-4o',
};
