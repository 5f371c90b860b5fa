// Reads a Claude Code log's lines into entries: turns with their blocks and usage, markers for the bookkeeping
// records, and a sub-agent's turn where a progress record carries one.
import type { Block, Marker, RecordedUsage } from '../../model';
import { anthropicContent } from '../anthropicBlocks';
import { isObject, str } from '../json';
import { brokenLineMarker, type JsonlRecord, readJsonl, unknownRecordMarker } from '../jsonl';
import type { Diagnostics } from '../types';
import {
  isContextTokens,
  MAX_CONTEXT_TOKENS,
  reportUsageProblems,
  shownFigure,
  tokenFigure,
  type UsageProblem,
  valuePosition,
} from '../usage';
import { type Entry, META_RECORD_TYPES, newEntry } from './entry';
import { agentProgressTurn } from './subAgents';

function usageOf(value: unknown, report?: UsageProblem): RecordedUsage | undefined {
  if (!isObject(value)) return undefined;
  const usage: RecordedUsage = {
    inputTokens: tokenFigure(value, 'input_tokens', report),
    outputTokens: tokenFigure(value, 'output_tokens', report),
    cacheReadInputTokens: tokenFigure(value, 'cache_read_input_tokens', report),
    cacheCreationInputTokens: tokenFigure(value, 'cache_creation_input_tokens', report),
  };
  // Which cache lifetime the writes used (Claude Code 2.x writes most with the 1-hour one).
  if (isObject(value.cache_creation))
    usage.cacheCreation1hInputTokens = tokenFigure(
      value.cache_creation,
      'ephemeral_1h_input_tokens',
      (f, v) => report?.(`cache_creation.${f}`, v),
    );
  return usage;
}

/** What the server-side compaction passes of a request cost (Anthropic compaction: `usage.iterations` lists each
 * sampling pass; the top-level figures are the message's passes only, so a summarizing pass is billed on top of
 * them). Undefined when the request ran none. */
function compactionUsageOf(value: unknown, report?: UsageProblem): RecordedUsage | undefined {
  if (!isObject(value) || !Array.isArray(value.iterations)) return undefined;
  let total: RecordedUsage | undefined;
  value.iterations.forEach((it, i) => {
    if (!isObject(it) || it.type !== 'compaction') return;
    const u = usageOf(it, (f, v) => report?.(`iterations.${i}.${f}`, v)) as RecordedUsage;
    if (!total) {
      total = u;
      return;
    }
    total.inputTokens += u.inputTokens;
    total.outputTokens += u.outputTokens;
    total.cacheReadInputTokens += u.cacheReadInputTokens;
    total.cacheCreationInputTokens += u.cacheCreationInputTokens;
    if (u.cacheCreation1hInputTokens !== undefined)
      total.cacheCreation1hInputTokens =
        (total.cacheCreation1hInputTokens ?? 0) + u.cacheCreation1hInputTokens;
  });
  return total;
}

/** Records a slash command leaves: the caveat, the command line, its output (user records), or a system record. */
const LOCAL_COMMAND =
  /^\s*<(local-command-caveat|command-name|command-message|local-command-stdout|local-command-stderr)>/;
function isLocalCommand(type: string, r: Record<string, unknown>, blocks: Block[]): boolean {
  if (type === 'system') return str(r.subtype) === 'local_command';
  if (type !== 'user') return false;
  const first = blocks[0];
  return first?.type === 'text' && LOCAL_COMMAND.test(first.text);
}

/** A `microcompact_boundary` record's cleared tool calls: from it on, the runtime sends their results as a short
 * placeholder, not their content. */
function clearedToolIds(type: string, r: Record<string, unknown>): string[] | undefined {
  if (type !== 'system' || str(r.subtype) !== 'microcompact_boundary') return undefined;
  const meta = r.microcompactMetadata;
  if (!isObject(meta) || !Array.isArray(meta.compactedToolIds)) return undefined;
  return meta.compactedToolIds.filter((id): id is string => typeof id === 'string');
}

function markerOf(
  rec: JsonlRecord,
  type: string,
  bytes: Uint8Array,
  diags: Diagnostics,
): Omit<Marker, 'beforeMessage'> {
  const r = rec.value;
  if (type === 'system') {
    const subtype = str(r.subtype) ?? '';
    if (subtype === 'compact_boundary') {
      const meta = isObject(r.compactMetadata) ? r.compactMetadata : {};
      const preTokens = contextCount(meta.preTokens, rec, bytes, diags);
      const pre = preTokens !== undefined ? `, ${preTokens} tokens before` : '';
      const marker: Omit<Marker, 'beforeMessage'> = {
        kind: 'compaction',
        label: 'compact_boundary',
        source: rec.source,
        text: `compaction (${str(meta.trigger) ?? 'unknown trigger'}${pre})`,
      };
      if (preTokens !== undefined) marker.preTokens = preTokens;
      return marker;
    }
    const cleared = clearedToolIds(type, r);
    if (cleared) {
      const meta = r.microcompactMetadata as Record<string, unknown>;
      const saved = typeof meta.tokensSaved === 'number' ? `, ${meta.tokensSaved} tokens saved` : '';
      return {
        kind: 'meta-record',
        label: `system:${subtype}`,
        source: rec.source,
        text: `microcompact: ${cleared.length} older tool results cleared from the requests after this${saved}`,
      };
    }
    return {
      kind: 'meta-record',
      label: subtype ? `system:${subtype}` : 'system',
      source: rec.source,
      text: str(r.content) ?? '',
    };
  }
  if (META_RECORD_TYPES.has(type)) {
    const text =
      str(r.summary) ?? str(r.content) ?? str(r.lastPrompt) ?? str(r.operation) ?? str(r.customTitle) ?? '';
    return { kind: 'meta-record', label: type, source: rec.source, text };
  }
  return unknownRecordMarker(type, rec.source, diags);
}

/** A compaction's `compactMetadata.preTokens`, the agent's count of its context then: the replay compacts where it
 * says, so a figure out of range (1e308 compacted a short session; -5 never did) is reported and not used. */
function contextCount(
  value: unknown,
  rec: JsonlRecord,
  bytes: Uint8Array,
  diags: Diagnostics,
): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (isContextTokens(value)) return value;
  const at = valuePosition(bytes, rec.span, ['compactMetadata', 'preTokens']);
  diags.add(
    'warning',
    'figure-out-of-range',
    `compactMetadata.preTokens is ${shownFigure(value)}, not a context size (a whole number from 1 to ${MAX_CONTEXT_TOKENS}): the compaction is kept, the count is not used`,
    at.line,
    at.column,
  );
  return undefined;
}

export function readRecords(bytes: Uint8Array, diags: Diagnostics) {
  const entries: Entry[] = [];
  readJsonl(
    bytes,
    diags,
    (rec) => {
      const r = rec.value;
      const type = str(r.type) ?? '';
      const e = newEntry(entries.length, r);
      e.source = rec.source;
      const message = r.message;
      if ((type === 'user' || type === 'assistant') && isObject(message)) {
        e.kind = 'turn';
        e.role = type;
        e.blocks = anthropicContent(
          message.content,
          {
            recordStart: rec.span.start,
            recordEnd: rec.span.end,
            recordLine: rec.span.index + 1,
            path: ['message', 'content'],
          },
          () => rec.source,
          diags,
        );
        if (r.isMeta === true) e.flags.push('isMeta');
        if (r.isCompactSummary === true) e.flags.push('isCompactSummary');
        if (r.isSidechain === true) e.flags.push('isSidechain');
        if (r.isApiErrorMessage === true) e.flags.push('isApiErrorMessage');
        e.compactSummary = r.isCompactSummary === true;
        e.onlyToolResults =
          type === 'user' && e.blocks.length > 0 && e.blocks.every((b) => b.type === 'tool_result');
        e.msgId = str(message.id);
        e.timestamp = str(r.timestamp);
        e.localCommand = isLocalCommand(type, r, e.blocks);
        e.compaction = e.compactSummary;
        if (type === 'assistant') {
          const report = reportUsageProblems(diags, bytes, rec.span, ['message', 'usage']);
          e.usage = usageOf(message.usage, report);
          e.compactionUsage = compactionUsageOf(message.usage, report);
          const m = str(message.model);
          // `<synthetic>`: a reply the runtime wrote itself (an API error, an interruption), not a model's.
          if (m && !m.startsWith('<')) e.model = m;
          else if (m) e.flags.push('synthetic');
        }
      } else {
        e.marker = markerOf(rec, type, bytes, diags);
        e.localCommand = isLocalCommand(type, r, e.blocks);
        e.compaction = type === 'system' && str(r.subtype) === 'compact_boundary';
        e.progress = type === 'progress';
        e.clearedToolIds = clearedToolIds(type, r);
      }
      entries.push(e);
      if (e.progress) {
        const sub = agentProgressTurn(rec, entries.length, diags);
        if (sub) entries.push(sub);
      }
    },
    (line) => {
      const { beforeMessage: _, ...marker } = brokenLineMarker(line, 0);
      const e = newEntry(entries.length, undefined);
      e.source = line.source;
      e.marker = marker;
      entries.push(e);
    },
    'toolUseResult',
  );
  return { entries };
}
