// What every format adapter provides, and what detection hands them.
import type { Node } from 'jsonc-parser';
import type { Block, Diagnostic, FormatId, SourceRange, Transcript, ValueLocation } from '../model';

export type Verdict = { ok: true; reason: string; score: number } | { ok: false; reason: string };

/** The whole file as one JSON document (the request-body formats), parsed once and shared. */
export interface JsonDocument {
  text: string;
  /** jsonc-parser's tolerant tree: offsets for every value; present even when the text is broken. */
  root: Node | undefined;
  /** The value (partial when the text is broken). */
  value: unknown;
  /** Problems with UTF-16 offsets into `text`. */
  errors: { offset: number; message: string }[];
  /** Byte offset of the first invalid UTF-8 sequence, or -1. */
  invalidUtf8At: number;
  /** A line a tool printed before the document (read as blanks, kept in the file): `Exporting session: ses_…`. */
  printedBefore?: string;
}

/** What detection looks at: a sample of JSONL records from the start, and (lazily) the whole JSON document. */
export interface Sniff {
  bytes: Uint8Array;
  fileName?: string;
  /** Up to `SAMPLE_LINES` non-blank lines from the start that parse as JSON objects. */
  records: Record<string, unknown>[];
  /** Non-blank lines looked at, and how many of them were JSON objects. */
  sampledLines: number;
  /** Whether the sample has more than one line (a one-line file is both a JSON document and a JSONL file). */
  multiLine: boolean;
  document(): JsonDocument;
  /** A file beside this one, by name (an agent that keeps a session in a folder of files: Cline's
   * `ui_messages.json` beside its `api_conversation_history.json`); undefined when there is none or it cannot be
   * read. Core reads no files: the caller that opened this one supplies it. */
  beside?: (name: string) => Uint8Array | undefined;
}

/** Finds the original JSON value of a block (for nested blocks copied into a rewrite unchanged). */
export type OriginalValue = (location: ValueLocation) => unknown;

/** Tool names of a format's agent, added to the SPEC's generic names. Patterns follow SPEC §2 (exact, or prefix
 * with a trailing `*`). */
export interface ToolPreset {
  /** Content-bearing tools: never stubbed to Tier 1. */
  floorTools: string[];
  /** Tools never summarized (still truncated). */
  noSummaryTools: string[];
  /** GUI/browser observations (SPEC §3). */
  observationTools: string[];
}

/** What a session picker shows of a log, read from its first records. */
export interface SessionHeadFacts {
  prompt: string;
  cwd?: string;
  /** The session the records belong to (a sub-agent's file names its parent's). */
  sessionId?: string;
  /** The file holds a sub-agent's conversation. */
  subAgent?: boolean;
}

/** Where an agent keeps its logs, as data (core reads no environment): `node/sessionFiles.ts` resolves it. */
export interface SessionLocation {
  /** The environment variable naming the agent's folder, else `home` under the user's home directory. */
  env: string;
  /** Another variable naming the agent's folder when `env` is not set (Qwen Code's `QWEN_HOME`, its settings'
   * folder, which its runtime folder follows). */
  envFallback?: string;
  /** The variable names a home directory instead, the agent's folder `home` inside it (Gemini CLI's
   * `GEMINI_CLI_HOME`). */
  envIsHome?: boolean;
  home: string;
  /** The logs' folder inside the agent's folder, and how many folder levels below it the *.jsonl may lie. */
  logs: string;
  depth: number;
  /** The one name the agent gives every session's file (a session that is a folder of files); unset: any *.jsonl. */
  fileName?: string;
  /** An editor extension's agent: `logs` lies in the editor's global storage (`<user dir>/globalStorage/<id>/`)
   * of each of these extension ids, for the editor's own profile and the other editors' found beside it; `env`
   * and `home` then name no folder. */
  editorExtensions?: { id: string; agent: string }[];
  /** With `editorExtensions`: the agent whose own build keeps the same session folders outside the editor, in `logs`
   * under `env`, else `home` (Cline's CLI, and its editor extension since 4.x: `~/.cline/data/tasks`). */
  homeAgent?: string;
  /** An editor's agent that keeps a folder per workspace (Copilot Chat): `logs` lies in each
   * `<user dir>/workspaceStorage/<workspace>/`, for the editor's own profile and the other editors' found beside it,
   * the project named by the workspace's folder; names the agent. `env` and `home` then name no folder. */
  editorWorkspaces?: string;
  /** With `editorWorkspaces`: the folder of the editor's global storage (`<user dir>/globalStorage/<emptyWindow>/`)
   * where the agent keeps the sessions of windows opened without a folder (no project). */
  emptyWindow?: string;
  /** The agent's sessions are files whose names end so (Cline's `<id>.messages.json`), one in each session's
   * folder: only those are listed. */
  fileSuffix?: string;
  /** The agent's older sessions are JSON documents named `<documents>*.json` among the logs (Gemini CLI's
   * `session-*.json`): listed too. */
  documents?: string;
  /** The agent keeps its sessions in a store of its own (a database, folders of records), named here: `node/`
   * copies each session into a file of this format in a folder of this product's cache, and lists those; the
   * agent's folder is then where the store lies (`home`/`env`, `logs`). */
  mirror?: 'opencode';
  /** With `mirror`: the store's database file in the agent's folder, or the one the variable `databaseEnv` names
   * (absolute or inside that folder). */
  database?: string;
  databaseEnv?: string;
  /** With `mirror`: agents forked from this one that keep the same store in a data folder of their own, beside the
   * agent's (`<logs>` in place of the agent's `logs`), each copied into a mirror of its own. */
  forks?: StoreFork[];
}

/** A fork's store: its data folder's name, its database file's name (or the one the variable `databaseEnv` names,
 * absolute or inside the data folder), and the agent named on its sessions. */
export interface StoreFork {
  agent: string;
  logs: string;
  database: string;
  databaseEnv?: string;
}

/** Where an agent writes each of a session's sub-agents to a file of its own: `<dir>/<session>/<folder>/`, beside
 * the session's `<dir>/<session>.jsonl`, one `<prefix><agent id>.jsonl` per sub-agent. */
export interface SubAgentFilesPlace {
  folder: string;
  prefix: string;
  /** The files among them that hold the summarization request of one of the session's compactions (Claude Code's
   * `agent-acompact-*.jsonl`): read beside the session, they price what its compactions cost. */
  compactions?: string;
}

/** A format whose files are sessions: the requests an agent really sent, one after another. */
export interface SessionDescriptor {
  /** The agent's name, as pickers and the Sessions view show it. */
  agent: string;
  /** Where the agent's logs live on disk; without it the format's sessions are only opened, never discovered. */
  location?: SessionLocation;
  /** The project and first prompt from the first records (JSON objects, broken lines left out). */
  head(records: Record<string, unknown>[]): SessionHeadFacts;
  /** The same from the file's first bytes as text, for a session file that is one JSON document (no records to
   * read from its start); used instead of `head` when set. */
  headText?: (text: string) => SessionHeadFacts;
  /** A file beside each session that names its working directory where its first bytes do not (Cline's manifest
   * `<id>.json` beside `<id>.messages.json`): that file's path from the session's, and the directory from its text. */
  cwdBeside?: { path: (sessionPath: string) => string; cwd: (text: string) => string | undefined };
  /** Where the agent writes its sub-agents' own files; unset: a session is its one file. */
  subAgentFiles?: SubAgentFilesPlace;
  /** The project named when the records give no working directory; unset: the folder the log sits in. */
  unknownProject?: string;
  /** The project of a log from its path, when the records give no working directory and the folder the log sits
   * in is not the project's (Gemini CLI: `tmp/<project>/chats/`). */
  projectOf?: (path: string) => string | undefined;
  /** How the Sessions view groups the agent's logs: by project, or by the day they were written. */
  groupBy: 'project' | 'day';
  /** The codicon of the agent's row in the Sessions view. */
  icon: string;
  /** The agent sends its instructions and tool definitions with every request: a hidden prefix estimated below
   * this many tokens is flagged as implausible. */
  minHiddenPrefixTokens?: number;
}

export interface FormatAdapter<Id extends string = FormatId> {
  id: Id;
  shape: 'jsonl' | 'json';
  /** What a file of this format looks like, in words (shown when nothing fits). */
  expected: string;
  detect(sniff: Sniff): Verdict;
  parse(sniff: Sniff, reason: string): Transcript;
  /** A nested block of a rewritten tool_result, as this format stores it. */
  nestedBlock(block: Block, original: OriginalValue): unknown;
  /** A tool_result whose output was a list of parts, rewritten to a text, as this format stores it in place of the
   * list (unset: the text itself). */
  textInPlaceOfParts?(text: string): unknown;
  /** The API family whose messages and blocks the format stores (an Anthropic request is built from it as is). */
  wire: 'anthropic' | 'openai';
  /** A record key where the agent keeps its own copy of a tool's output, never sent to the model (an export may
   * drop it from the rewritten records). */
  toolOutputCopy?: string;
  /** The tool names of the agent that writes this format (the defaults of a policy for it). */
  tools: ToolPreset;
  /** The model preset (`MODEL_PRESETS` id) assumed for a file that names no model; unset: the engine's default. */
  defaultModel?: string;
  /** Set when the format's files are sessions; see `SessionDescriptor`. */
  session?: SessionDescriptor;
}

/** Longest diagnostic message: messages quote the transcript (an id, a key, a value), and one quoted 200 MB
 * value made `inspect --json` fail ("Invalid string length") and would fill the Problems view. */
export const DIAGNOSTIC_MAX_CHARS = 1000;

/** Collects diagnostics with positions; one per problem, never thrown. */
export class Diagnostics {
  readonly list: Diagnostic[] = [];
  private readonly seen = new Set<string>();

  add(severity: Diagnostic['severity'], code: string, message: string, line: number, column: number): void {
    const shown =
      message.length > DIAGNOSTIC_MAX_CHARS
        ? `${message.slice(0, DIAGNOSTIC_MAX_CHARS)}… (${message.length - DIAGNOSTIC_MAX_CHARS} more characters)`
        : message;
    this.list.push({ severity, code, message: shown, line, column });
  }

  /** Reports a kind of thing once per file (e.g. each unknown block type), not once per occurrence. */
  once(key: string, severity: Diagnostic['severity'], code: string, message: string, at: SourceRange): void {
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.add(severity, code, message, at.line, at.column);
  }
}
