// Worker-thread entry (bundled as dist/parseWorker.js): parses a transcript off the extension host's main thread,
// so that opening a large session (or a JSON body whose parse is slow) does not freeze the editor. The
// Transcript goes back as plain data (structured clone keeps it identical), its messages in batches the host asks
// for one at a time: a large transcript copied in one message blocks the host while it is deserialised.
//
// A JSONL session that grows: the worker keeps the file's bytes and its parsed lines, so the host sends only the
// appended bytes; the grown file is parsed again reusing every line parsed before (parsedLines.ts), and only the
// messages from the first one that changed go back (the host keeps the ones before).
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { AnalysisTotals } from '../core/analysisTypes';
import type { Policy } from '../core/engine/policy';
import { UnrecognizedTranscriptError } from '../core/formats';
import { ParsedLines, reuseParsedLines } from '../core/formats/parsedLines';
import { adapterFor } from '../core/formats/registry';
import type { Message, Transcript } from '../core/model';
import { fileProblems, type Problem } from '../core/problems';
import { sameData } from '../core/sameData';
import { collectGarbage } from '../node/collectGarbage';
import { parseTranscriptFile } from '../node/parseFile';
import type { MessageSummary } from '../protocol';
import { messageSummary, toolCalls } from './summaries';

export type ParseRequest =
  /** Parse these bytes, the whole file (`last`: as for an append). */
  | { type: 'parse'; bytes: Uint8Array; fileName: string; last?: boolean }
  /** The file grew by `bytes` since the last parse (`whole`: `bytes` are the whole grown file, its bytes before the
   * growth those of the last parse): parse it again. Only after a reply with `appendable`. `last`: the host ends
   * this thread once it has the messages (nothing more is likely to be appended). */
  | { type: 'append'; bytes: Uint8Array; whole?: boolean; last?: boolean }
  | { type: 'more' }
  /** Parse these bytes and analyse them under the settings for their format (offline summarizers only): the
   * status bar's figures for a transcript open as text, without its parse or analysis on the host. */
  | { type: 'totals'; bytes: Uint8Array; fileName: string; settings: Partial<Record<string, TextSettings>> };

export interface TextSettings {
  policy: Policy;
  summarizer: 'none' | 'extractive';
}

export interface TextTotals {
  totals: AnalysisTotals;
  policyName: string;
  summarizer: string;
}

export type ParseReply =
  /** Everything but the messages. `rawIsInput`: `raw` is the file's bytes, left out (the host holds them).
   * `unchanged`: the first messages, identical to those of the previous reply, that are not sent again.
   * `appendable`: the worker kept the file and its parsed lines, an `append` may follow. */
  | {
      type: 'head';
      transcript: Transcript;
      rawIsInput: boolean;
      messageCount: number;
      unchanged: number;
      appendable: boolean;
      /** Messages per `more` (the last batch may hold fewer). */
      batchMessages: number;
      /** The file's own problems (core/problems.ts `fileProblems`), found here too: pairing the calls of a long
       * session holds a thread for a while. */
      problems: Problem[];
    }
  /** The next messages, with their summaries for the list (computed here too, off the host's thread). */
  | { type: 'messages'; messages: Message[]; summaries: MessageSummary[] }
  | ({ type: 'totals' } & TextTotals)
  | {
      type: 'error';
      error: string;
      unrecognized?: Pick<UnrecognizedTranscriptError, 'rejected' | 'expected'>;
    };

// A background parse (a document's Problems, the status bar's figures: nobody waits on it) yields the CPU to the
// extension host's own thread: on Linux, where the nice value belongs to each thread (priority of "process" 0 is
// the calling thread). Elsewhere the call would lower the whole extension host, so it is not made. The parse of
// the view's own file is what the user waits for: it runs at the normal priority.
/** The nice value of a background parse thread (0 normal … 19 lowest). */
export const BACKGROUND_NICE = 10;

export interface ParseWorkerData {
  background: boolean;
}

if (parentPort && (workerData as ParseWorkerData | undefined)?.background && process.platform === 'linux') {
  try {
    setPriority(0, BACKGROUND_NICE);
  } catch {
    // Not allowed here (a container's policy): the parse runs at the normal priority.
  }
}

/** Full collections of this thread's heap while the messages of a last parse cross: one per quarter sent.
 * Nothing else allocates in this thread once the parse is done, so V8 would not collect what was sent before the
 * thread ends, and both copies would be whole at once. */
const COLLECTIONS = 4;

/** Messages per batch: each one's deserialisation on the host stays in the tens of milliseconds. */
export const PARSE_BATCH_MESSAGES = 200;

/** The file as last parsed, kept for an append (JSONL formats only: they are append-only). */
interface Kept {
  fileName: string;
  buffer: Uint8Array;
  size: number;
  lines: ParsedLines;
}

let kept: Kept | null = null;
let previous: { messages: Message[]; summaries: MessageSummary[] } | null = null;
let parsed: (Message | null)[] = [];
let summaries: (MessageSummary | null)[] = [];
let sent = 0;
/** The host ends this thread once it has every message (the file is not growing): each message is let go of once
 * sent, so the thread's copy shrinks as the host's grows instead of both being whole at once. */
let releasing = false;
let releasedSince = 0;

parentPort?.on('message', async (request: ParseRequest) => {
  if (request.type === 'more') {
    // Only what was sent is ever let go of: the next batch is whole.
    const messages = parsed.slice(sent, sent + PARSE_BATCH_MESSAGES) as Message[];
    const batch = summaries.slice(sent, sent + PARSE_BATCH_MESSAGES) as MessageSummary[];
    if (releasing) {
      parsed.fill(null, sent, sent + messages.length);
      summaries.fill(null, sent, sent + batch.length);
    }
    sent += messages.length;
    parentPort?.postMessage({ type: 'messages', messages, summaries: batch } satisfies ParseReply);
    if (releasing) {
      releasedSince += messages.length;
      if (releasedSince * COLLECTIONS >= parsed.length) {
        releasedSince = 0;
        collectGarbage();
      }
    }
    return;
  }
  let reply: ParseReply;
  try {
    if (request.type === 'totals')
      reply = await textTotals(request.bytes, request.fileName, request.settings);
    else if (request.type === 'parse')
      reply = parseWhole(request.bytes, request.fileName, request.last ?? false);
    else reply = parseGrown(request.bytes, request.whole ?? false, request.last ?? false);
  } catch (error) {
    kept = null;
    previous = null;
    reply =
      error instanceof UnrecognizedTranscriptError
        ? {
            type: 'error',
            error: error.message,
            unrecognized: { rejected: error.rejected, expected: error.expected },
          }
        : { type: 'error', error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(reply);
  // A last parse's file is not kept: its bytes go now (this handler's request holds them until it ends), not at
  // the first collection of what was sent, so that the host need not hold them beside both copies of the messages.
  if (reply.type === 'head' && releasing) setImmediate(collectGarbage);
});

async function textTotals(
  bytes: Uint8Array,
  fileName: string,
  settings: Partial<Record<string, TextSettings>>,
): Promise<ParseReply> {
  // Loaded on the first use: the engine is most of this bundle, and a thread that only parses starts faster
  // without evaluating it (tens of ms instead of hundreds).
  const [{ analyzeSync }, { createSummarizer }] = await Promise.all([
    import('../core/analysis'),
    import('../core/engine/summarizer'),
  ]);
  const transcript = parseTranscriptFile(bytes, fileName);
  const s = settings[transcript.format];
  if (!s) throw new Error(`no settings for the format ${transcript.format}`);
  const summarizer = createSummarizer(s.summarizer, s.policy.tiered.maxResultChars);
  const { analysis } = analyzeSync(transcript, s.policy, { summarizer });
  return {
    type: 'totals',
    totals: analysis.totals,
    policyName: analysis.policyName,
    summarizer: analysis.summarizer ?? s.summarizer,
  };
}

function parseWhole(bytes: Uint8Array, fileName: string, last: boolean): ParseReply {
  kept = { fileName, buffer: bytes, size: bytes.length, lines: new ParsedLines() };
  previous = null;
  return parseKept(kept, last);
}

function parseGrown(appended: Uint8Array, whole: boolean, last: boolean): ParseReply {
  if (!kept) throw new Error('the parse worker holds no file to append to');
  if (whole) {
    // The grown file whole: it becomes the buffer as it is (the kept lines are at the same offsets in it).
    kept.buffer = appended;
    kept.size = appended.length;
    return parseKept(kept, last);
  }
  const need = kept.size + appended.length;
  if (need > kept.buffer.length) {
    // Room to grow, so that each append does not copy the whole file again.
    const grown = new Uint8Array(need + Math.max(1 << 20, need >> 3));
    grown.set(kept.buffer.subarray(0, kept.size));
    kept.buffer = grown;
  }
  kept.buffer.set(appended, kept.size);
  kept.size = need;
  return parseKept(kept, last);
}

function parseKept(k: Kept, last = false): ParseReply {
  // A view of its own for each parse: the kept lines are attached to the bytes being parsed.
  const bytes = k.buffer.subarray(0, k.size);
  reuseParsedLines(bytes, k.lines);
  const transcript = parseTranscriptFile(bytes, k.fileName);
  const appendable = adapterFor(transcript.format).shape === 'jsonl';
  if (!appendable || last) kept = null;
  const messages = transcript.messages;
  const calls = toolCalls(transcript);
  const unchanged = unchangedPrefix(messages, calls);
  const next = messages.slice(unchanged).map((m) => messageSummary(m, calls));
  const all = previous ? previous.summaries.slice(0, unchanged).concat(next) : next;
  summaries = all;
  parsed = messages;
  sent = unchanged;
  previous = appendable && !last ? { messages, summaries: all } : null;
  releasing = last;
  const rawIsInput = transcript.raw === bytes;
  return {
    type: 'head',
    transcript: { ...transcript, messages: [], raw: rawIsInput ? new Uint8Array(0) : transcript.raw },
    rawIsInput,
    messageCount: messages.length,
    unchanged,
    appendable,
    batchMessages: PARSE_BATCH_MESSAGES,
    problems: fileProblems(transcript),
  };
}

/** How many first messages are identical to the previous parse's, with identical summaries (a tool result's
 * summary names its call, which a later line may bring). */
function unchangedPrefix(
  messages: Message[],
  calls: Map<string, Extract<Message['blocks'][number], { type: 'tool_use' }>>,
): number {
  if (!previous) return 0;
  const before = previous.messages;
  const n = Math.min(before.length, messages.length);
  let k = 0;
  while (k < n && sameData(before[k], messages[k])) k++;
  for (let i = 0; i < k; i++) {
    const s = previous.summaries[i];
    if (s.toolNames?.includes('unknown') && !sameData(s, messageSummary(messages[i], calls))) return i;
  }
  return k;
}
