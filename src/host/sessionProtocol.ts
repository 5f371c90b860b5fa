// What crosses between the extension host and the session's worker thread (sessionWorker.ts): the host sends the
// file's bytes and the views' questions, the worker answers with messages for the views already in wire form, and
// asks the host for what only the editor has (a language model's summary). Both ends are this project's own code
// in one process: the types are the contract, as for the parse worker's messages (parseWorker.ts).
import type { AnalysisTotals, VsNone } from '../core/analysisTypes';
import type { Policy } from '../core/engine/policy';
import type { Transcript } from '../core/model';
import type { HostMessage, SettingKey, WebviewMessage } from '../protocol';
import { listKey, packList } from '../protocol/listWire';
import type { PackedMessage, PackedReply } from '../protocol/packedMessage';
import type { TranscriptSession } from './session';

/** The session's methods the host calls by name, with their arguments as they are (all structured-clonable). */
export type SessionCall =
  | 'transcriptMessage'
  | 'complete'
  | 'showRequests'
  | 'request'
  | 'details'
  | 'source'
  | 'find'
  | 'selectThread'
  | 'comparisonsMessage'
  | 'verdictMessage'
  | 'cacheView'
  | 'releaseBytes'
  | 'releaseKept'
  | 'settled'
  | 'restore';

export type CallArgs<M extends SessionCall> = Parameters<TranscriptSession[M]>;
/** A call's answer as it crosses: a transcript message packed (listWire.ts), a message that may be large as bytes
 * (packedMessage.ts), the others as they are. */
export type CallValue<M extends SessionCall> = Packed<Awaited<ReturnType<TranscriptSession[M]>>>;

/** A transcript message in the form the host forwards untouched (see `packed`). */
export type ListMessage = Extract<HostMessage, { type: 'list' }>;
type TranscriptMessage = Extract<HostMessage, { type: 'transcript' }>;
type Packed<T> = T extends TranscriptMessage ? ListMessage : T extends PackedReply ? PackedMessage : T;

/** `message` as it crosses to the host and on to the views: its bytes made here, on the session's thread. */
export function packed(message: TranscriptMessage): ListMessage {
  return { type: 'list', key: listKey(message), messages: message.messages.length, json: packList(message) };
}

/** What the host knows of the transcript shown without holding it: enough to pick its settings (by format) and
 * to tell whether its analysis is that of the file as saved. */
export interface TranscriptHead {
  format: Transcript['format'];
  model?: Transcript['model'];
  showsWholeFile: boolean;
}

/** The analysis shown, as the status bar shows it. */
export interface AnalysisHeadline {
  totals: AnalysisTotals;
  policyName: string;
  summarizer?: string;
  vsNone?: VsNone;
}

export interface SessionWorkerData {
  fileName: string;
  path: string;
  /** The parse thread's bundle (dist/parseWorker.js): the session's worker parses in a thread of its own too, so
   * that it answers the views while a grown file is parsed. */
  parseScript?: string;
  /** The token workers' bundle and where counts are kept (none: counted on the session's thread). */
  tokenScript?: string;
  tokenDir?: string;
  /** Every contextLens.* value the user set (settings.ts `explicitSettings`): which tokenizer counts the texts of
   * a file while it is parsed. */
  settings: Partial<Record<SettingKey, unknown>>;
}

export type ToWorker =
  | { type: 'call'; id: number; method: SessionCall; args: unknown[] }
  | {
      type: 'load';
      id: number;
      bytes: Uint8Array;
      from: number;
      fileBytes?: number;
      growing: boolean;
    }
  /** The file's problems under `policy` (core/problems.ts `transcriptProblems`), for the Problems panel. */
  | { type: 'problems'; id: number; policy: Policy }
  | { type: 'sweep'; id: number; message: SweepRequest; policy: Policy }
  | { type: 'settings'; settings: Partial<Record<SettingKey, unknown>> }
  /** The id of the language-model summarizer the host would use now (null: none is available). */
  | { type: 'lm'; id: string | null }
  | { type: 'summary'; id: number; text?: string; error?: string }
  | { type: 'dispose' };

type SweepRequest = Extract<WebviewMessage, { type: 'sweep' }>;

export type FromWorker =
  | { type: 'reply'; id: number; value?: unknown; error?: string }
  /** A load's answer: the transcript message (null: superseded), what the host knows of it, and whether it is the
   * message the views were restored with (then not sent again). */
  | {
      type: 'loaded';
      id: number;
      message: ListMessage | null;
      head: TranscriptHead | null;
      confirmed: boolean;
    }
  /** A message for every view (an analysis, one run ahead, an error). */
  | { type: 'broadcast'; message: HostMessage }
  /** A sweep's progress or grid, for the view that asked. */
  | { type: 'sweepPost'; id: number; message: HostMessage }
  | { type: 'analysisChanged'; analysis: AnalysisHeadline | null; head: TranscriptHead | null }
  /** A summary from the editor's language model. */
  | { type: 'summarize'; id: number; policy: Policy; toolName: string; content: string }
  | { type: 'abortSummary'; id: number }
  /** The worker's session was disposed and its counts saved: it may be ended. */
  | { type: 'disposed' };
