// Worker-thread entry (bundled as dist/parseWorker.js): parses a transcript off the extension host's main thread,
// so that opening a 100 MB session does not freeze the editor. The Transcript goes back as plain data
// (structured clone keeps it identical), its messages in batches the host asks for one at a time: copying a
// 100 MB transcript in one message would block the host for half a second while it is deserialised.
import { parentPort } from 'node:worker_threads';
import { parseTranscript, UnrecognizedTranscriptError } from '../core/formats';
import type { Message, Transcript } from '../core/model';
import type { MessageSummary } from '../protocol';
import { messageSummaries } from './summaries';

export type ParseRequest = { type: 'parse'; bytes: Uint8Array; fileName: string } | { type: 'more' };

export type ParseReply =
  /** Everything but the messages. `rawIsInput`: `raw` is the request's bytes, left out (the host holds them). */
  | { type: 'head'; transcript: Transcript; rawIsInput: boolean; messageCount: number }
  /** The next messages, with their summaries for the list (computed here too: a few hundred ms for 100 MB). */
  | { type: 'messages'; messages: Message[]; summaries: MessageSummary[] }
  | {
      type: 'error';
      error: string;
      unrecognized?: Pick<UnrecognizedTranscriptError, 'rejected' | 'expected'>;
    };

/** Messages per batch: each one's deserialisation on the host stays in the tens of milliseconds. */
export const PARSE_BATCH_MESSAGES = 200;

let parsed: Message[] = [];
let summaries: MessageSummary[] = [];
let sent = 0;

parentPort?.on('message', (request: ParseRequest) => {
  if (request.type === 'more') {
    const messages = parsed.slice(sent, sent + PARSE_BATCH_MESSAGES);
    const batch = summaries.slice(sent, sent + PARSE_BATCH_MESSAGES);
    sent += messages.length;
    parentPort?.postMessage({ type: 'messages', messages, summaries: batch } satisfies ParseReply);
    return;
  }
  let reply: ParseReply;
  try {
    const transcript = parseTranscript(request.bytes, request.fileName);
    parsed = transcript.messages;
    summaries = messageSummaries(transcript);
    sent = 0;
    const rawIsInput = transcript.raw === request.bytes;
    reply = {
      type: 'head',
      transcript: { ...transcript, messages: [], raw: rawIsInput ? new Uint8Array(0) : transcript.raw },
      rawIsInput,
      messageCount: parsed.length,
    };
  } catch (error) {
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
});
