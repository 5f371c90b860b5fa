// What the engine needs to know about a transcript before any policy runs, computed once per transcript and
// tokenizer and reused by every re-analysis: pairing, tool-result messages, requests, original token counts.
import type { Block, Message, Transcript } from '../model';
import { type TokenCounter, type TokenizerName, tokenCounter } from '../tokens/counter';
import { countedRaw } from '../tokens/texts';
import { codePointLength, contentHashText } from './content';
import { DerivedValues } from './derived';
import { eventHash } from './hash';
import { ReasoningTurns } from './reasoning';
import { Reloads } from './reload';
import { requestSpans } from './requests';
import { type ForeignThinking, foreignThinking } from './thinking';
import { recordedReasoning, thinkingFromGrowth, unloggedThinking } from './thinkingSizes';

/** A transcript past what the engine can replay (a message of more than 65,535 blocks): refused with what is too
 * large and where, never a crash. */
export class EngineLimitError extends Error {
  override name = 'EngineLimitError';
}

/** Per-message framing (role, separators) that the API adds around the blocks; an estimate that the
 * calibration factor absorbs when usage is recorded. */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** An inline image, whatever its size: Anthropic bills about (width × height) / 750 tokens, ~1,600 for the
 * 1.15-megapixel images agents send. The files do not hold the dimensions, so this is an estimate. */
export const IMAGE_TOKENS_ESTIMATE = 1600;

export interface ToolUseInfo {
  id: string;
  name: string;
  input: unknown;
  inputInvalid?: boolean;
  messageIndex: number;
  blockIndex: number;
}

export interface BlockRef {
  messageIndex: number;
  blockIndex: number;
}

export const BLOCK_STRIDE = 0x10000;
export function blockKey(messageIndex: number, blockIndex: number): number {
  return messageIndex * BLOCK_STRIDE + blockIndex;
}

export interface PreparedTranscript {
  transcript: Transcript;
  tokenizer: TokenizerName;
  counter: TokenCounter;
  /** Original tokens per block and per message (with MESSAGE_OVERHEAD_TOKENS). */
  blockTokens: number[][];
  messageTokens: number[];
  /** Tokens of the system prompt and tool definitions when the file holds them. */
  systemTokens: number;
  toolUses: Map<string, ToolUseInfo>;
  /** Every tool_use in message order. */
  toolUseList: ToolUseInfo[];
  /** tool_result blocks by the id they answer. */
  resultsByToolUse: Map<string, BlockRef[]>;
  /** Indices of the tool-result messages (SPEC §1), oldest first. */
  toolResultMessages: number[];
  /** Position in `toolResultMessages` of each message, -1 for others. */
  toolResultPosition: Int32Array;
  /** Request k sends messages [requestStarts[k], requestEnds[k]) (see requests.ts); index `requestEnds.length` is
   * the pending request. */
  requestEnds: number[];
  requestStarts: number[];
  /** Tokens of a compaction summary that no message holds (Codex), sent at the start of its segment. */
  compactionSummaryTokens: Map<number, number>;
  /** Reasoning sent back within a turn and dropped at the next user message (reasoning.ts), when the log has it. */
  reasoning: ReasoningTurns | undefined;
  /** Where the agent reloaded the conversation from its log and left messages out from then on (reload.ts). */
  reloads: Reloads | undefined;
  /** Thinking of other models' replies, which a request does not send (thinking.ts); Claude logs only. */
  foreignThinking: ForeignThinking | undefined;
  /** Hash, length and tokens of original contents, filled on demand (hashing 40 MB is not free). */
  originals: Map<number, ContentInfo>;
  /** Rewrites already computed for this transcript, by rule, block and the settings they depend on: moving a
   * slider back and forth re-analyses without re-truncating, re-hashing or re-counting anything. */
  memo: Map<string, Map<number, ContentInfo>>;
  /** What the replay and the analysis derive from this transcript alone, kept for every later run (derived.ts). */
  derived: DerivedValues;
}

/** A content with what the engine needs to know about it. */
export interface ContentInfo {
  content: string | Block[];
  /** SPEC §7 event hash (12 hex) and code-point length of `contentHashText(content)`. */
  hash: string;
  len: number;
  tokens: number;
}

export function contentInfo(content: string | Block[], counter: TokenCounter): ContentInfo {
  const text = contentHashText(content);
  return {
    content,
    hash: eventHash(text),
    len: codePointLength(text),
    tokens: contentTokens(content, counter),
  };
}

/** The memo table of one rule and setting value (e.g. `tier2:300`), keyed by block. */
export function memoTable(p: PreparedTranscript, name: string): Map<number, ContentInfo> {
  let table = p.memo.get(name);
  if (!table) {
    table = new Map();
    p.memo.set(name, table);
  }
  return table;
}

export function contentTokens(content: string | readonly Block[], counter: TokenCounter): number {
  if (typeof content === 'string') return counter.count(content);
  let n = 0;
  for (const b of content) n += blockTokens(b, counter);
  return n;
}

export function blockTokens(block: Block, counter: TokenCounter): number {
  switch (block.type) {
    case 'text':
    case 'thinking':
      return counter.count(block.text);
    case 'tool_use':
      return counter.count(block.name) + counter.count(block.id) + counter.count(stringifyInput(block.input));
    case 'tool_result':
      return counter.count(block.toolUseId) + contentTokens(block.content, counter);
    case 'image':
      return IMAGE_TOKENS_ESTIMATE;
    case 'other': {
      const counted = countedRaw(block.raw);
      return counter.count(counted) + (counted === block.raw ? 0 : IMAGE_TOKENS_ESTIMATE);
    }
  }
}

function stringifyInput(input: unknown): string {
  return typeof input === 'string' ? input : (JSON.stringify(input) ?? '');
}

// The one memo keyed by the transcript itself: the preparation, which owns every value derived from it (derived.ts),
// so that they all live and die with the transcript and none of them is a module's.
const prepared = new WeakMap<Transcript, Map<TokenizerName, PreparedTranscript>>();

/** Prepares (or returns the cached preparation of) a transcript for one tokenizer. */
export function prepareTranscript(
  transcript: Transcript,
  tokenizer: TokenizerName,
  counter: TokenCounter = tokenCounter(tokenizer),
): PreparedTranscript {
  let byTokenizer = prepared.get(transcript);
  if (!byTokenizer) {
    byTokenizer = new Map();
    prepared.set(transcript, byTokenizer);
  }
  const hit = byTokenizer.get(tokenizer);
  if (hit && hit.counter === counter) return hit;
  const p = drain(buildPrepared(transcript, tokenizer, counter));
  byTokenizer.set(tokenizer, p);
  return p;
}

/** `prepareTranscript`, awaiting `giveWay()` every few messages (a long session's preparation counts and walks
 * every block: hundreds of milliseconds on a thread others share). */
export async function prepareTranscriptInSlices(
  transcript: Transcript,
  tokenizer: TokenizerName,
  counter: TokenCounter,
  giveWay: () => Promise<void> | undefined,
): Promise<PreparedTranscript> {
  const hit = prepared.get(transcript)?.get(tokenizer);
  if (hit && hit.counter === counter) return hit;
  const steps = buildPrepared(transcript, tokenizer, counter);
  let step = steps.next();
  while (!step.done) {
    await giveWay();
    step = steps.next();
  }
  const byTokenizer = prepared.get(transcript) ?? new Map<TokenizerName, PreparedTranscript>();
  prepared.set(transcript, byTokenizer);
  byTokenizer.set(tokenizer, step.value);
  return step.value;
}

/** Messages prepared between two chances to give way. */
const PREPARE_STEP_MESSAGES = 32;

/** A preparation of `transcript` that counts with `counter` and keeps memos of its own, for a run whose figures are
 * thrown away (a probe, tokens/primedCounters.ts): it reads what the preparation kept for `of`, the counter of the
 * real runs, and leaves none of its own counts in it. */
export function probePreparation(
  transcript: Transcript,
  tokenizer: TokenizerName,
  counter: TokenCounter,
  of: TokenCounter,
): PreparedTranscript {
  const hit = prepared.get(transcript)?.get(tokenizer);
  if (hit && hit.counter === of)
    return {
      ...hit,
      counter,
      originals: new Map(hit.originals),
      memo: new Map(),
      derived: new DerivedValues(),
    };
  return drain(buildPrepared(transcript, tokenizer, counter));
}

/** The value of a generator run through at once. */
function drain<T>(steps: Generator<void, T>): T {
  let step = steps.next();
  while (!step.done) step = steps.next();
  return step.value;
}

function* buildPrepared(
  transcript: Transcript,
  tokenizer: TokenizerName,
  counter: TokenCounter,
): Generator<void, PreparedTranscript> {
  const messages = transcript.messages;
  const toolUses = new Map<string, ToolUseInfo>();
  const toolUseList: ToolUseInfo[] = [];
  const resultsByToolUse = new Map<string, BlockRef[]>();
  const toolResultMessages: number[] = [];
  const toolResultPosition = new Int32Array(messages.length).fill(-1);
  const blockTok: number[][] = [];
  const messageTok: number[] = [];
  const keepsReasoning = transcript.reasoningKeptWithinTurn === true;
  const reasoningPrefix = new Float64Array(messages.length + 1);
  const userTurns: number[] = [];
  const withReasoning: number[] = [];
  // Replies whose hidden thinking the recorded output cannot size (thinkingFromGrowth).
  const grownThinking: number[] = [];
  for (let m = 0; m < messages.length; m++) {
    if (m % PREPARE_STEP_MESSAGES === PREPARE_STEP_MESSAGES - 1) yield;
    const message: Message = messages[m];
    if (message.blocks.length >= BLOCK_STRIDE)
      throw new EngineLimitError(
        `message ${m}${message.source ? ` (line ${message.source.line})` : ''} has ${message.blocks.length} blocks; the engine handles at most ${BLOCK_STRIDE - 1}`,
      );
    let hasResult = false;
    const perBlock: number[] = [];
    let total = MESSAGE_OVERHEAD_TOKENS;
    message.blocks.forEach((block, b) => {
      const t = blockTokens(block, counter);
      perBlock.push(t);
      total += t;
      if (block.type === 'tool_use') {
        const info: ToolUseInfo = {
          id: block.id,
          name: block.name,
          input: block.input,
          inputInvalid: block.inputInvalid,
          messageIndex: m,
          blockIndex: b,
        };
        if (!toolUses.has(block.id)) toolUses.set(block.id, info);
        toolUseList.push(info);
      } else if (block.type === 'tool_result') {
        hasResult = true;
        const list = resultsByToolUse.get(block.toolUseId) ?? [];
        list.push({ messageIndex: m, blockIndex: b });
        resultsByToolUse.set(block.toolUseId, list);
      }
    });
    if (!keepsReasoning) {
      const added = unloggedThinking(message, perBlock);
      if (added === undefined) grownThinking.push(m);
      else total += added;
    }
    let reasoning = 0;
    if (keepsReasoning) {
      const counted = message.blocks.reduce((a, b, i) => a + (b.type === 'thinking' ? perBlock[i] : 0), 0);
      reasoning = recordedReasoning(message, perBlock);
      total += reasoning - counted;
      if (reasoning > 0) withReasoning.push(m);
      if (message.role === 'user' && !hasResult) userTurns.push(m);
    }
    reasoningPrefix[m + 1] = reasoningPrefix[m] + reasoning;
    blockTok.push(perBlock);
    messageTok.push(total);
    if (hasResult) {
      toolResultPosition[m] = toolResultMessages.length;
      toolResultMessages.push(m);
    }
  }
  for (const m of grownThinking) messageTok[m] += thinkingFromGrowth(messages, m, blockTok[m], messageTok);
  const { ends: requestEnds, starts: requestStarts } = requestSpans(messages, transcript.markers);
  const compactionSummaryTokens = new Map<number, number>();
  for (const marker of transcript.markers) {
    if (marker.kind !== 'compaction' || !marker.summary) continue;
    compactionSummaryTokens.set(
      marker.beforeMessage,
      (compactionSummaryTokens.get(marker.beforeMessage) ?? 0) + counter.count(marker.summary),
    );
  }
  let systemTokens = 0;
  if (transcript.system) systemTokens += counter.count(transcript.system);
  if (transcript.tools && transcript.tools.length > 0)
    systemTokens += counter.count(JSON.stringify(transcript.tools));
  return {
    transcript,
    tokenizer,
    counter,
    blockTokens: blockTok,
    messageTokens: messageTok,
    systemTokens,
    toolUses,
    toolUseList,
    resultsByToolUse,
    toolResultMessages,
    toolResultPosition,
    requestEnds,
    requestStarts,
    compactionSummaryTokens,
    reasoning:
      withReasoning.length > 0 ? new ReasoningTurns(reasoningPrefix, userTurns, withReasoning) : undefined,
    reloads: transcript.reloads?.length ? new Reloads(transcript.reloads) : undefined,
    foreignThinking: keepsReasoning ? undefined : foreignThinking(messages, blockTok),
    originals: new Map(),
    memo: new Map(),
    derived: new DerivedValues(),
  };
}

/** The original content of a rewritable block: tool_result content, text; and for the server's clearing (context
 * editing) a call's input as JSON and a thinking block's text. Its tokens are the block's own, less the framing
 * that no rewrite changes (ids, names). */
export function originalContent(p: PreparedTranscript, ref: BlockRef): string | Block[] {
  const block = p.transcript.messages[ref.messageIndex].blocks[ref.blockIndex];
  if (block.type === 'tool_result') return block.content;
  if (block.type === 'text' || block.type === 'thinking') return block.text;
  if (block.type === 'tool_use') return stringifyInput(block.input);
  throw new Error(`block ${ref.messageIndex}.${ref.blockIndex} (${block.type}) is not rewritable`);
}

export function originalInfo(p: PreparedTranscript, ref: BlockRef): ContentInfo {
  const key = blockKey(ref.messageIndex, ref.blockIndex);
  let info = p.originals.get(key);
  if (!info) {
    info = contentInfo(originalContent(p, ref), p.counter);
    p.originals.set(key, info);
  }
  return info;
}
