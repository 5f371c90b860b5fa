// The canonical transcript model (SPEC §1). Formats produce it; the engine reads it; nothing here knows a format.

/** Where something sits in the source file. Lines and columns are 1-based (columns count UTF-16 units of the
 * decoded line, as editors do); `start`/`end` are byte offsets into the file, end exclusive, used to splice. */
export interface SourceRange {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  start: number;
  end: number;
}

export type Role = 'system' | 'user' | 'assistant';

// The registry's ids (a type-only edge, erased at run time): a format is declared once, by its adapter.
import type { FormatId } from './formats/registry';

export type { FormatId };

/** Where write-back finds a block: the JSON text holding it (one JSONL record, or the whole file for the JSON
 * formats) and the JSON path inside that text. Paths instead of offsets of every value keep parsing at
 * `JSON.parse` speed; the writer (and `locateBlock`) resolve them with jsonc-parser on the touched record only. */
export interface ValueLocation {
  /** Byte range of the JSON text: a JSONL line without its line break, or the whole file. */
  recordStart: number;
  recordEnd: number;
  /** 1-based line of the record's first byte. */
  recordLine: number;
  /** Path from that text's root to the block (for text from a string `content`: to the string itself). */
  path: (string | number)[];
  /** Path to the value a Rewrite replaces: tool_result `content`/`output`, text `text`. Defaults to `path`. */
  valuePath?: (string | number)[];
}

interface BlockBase {
  /** The range of the whole block in the source (for "Reveal in source"). JSONL formats give the record's
   * line here (cheap); `locateBlock` in core/formats computes the exact range on demand. */
  source?: SourceRange;
  /** Set by every format parser: lets `writeTranscript` splice a rewrite into this block's own record. */
  location?: ValueLocation;
}

export interface TextBlock extends BlockBase {
  type: 'text';
  text: string;
}

export interface ThinkingBlock extends BlockBase {
  type: 'thinking';
  text: string;
  /** `redacted_thinking` (Anthropic) or encrypted reasoning (OpenAI): never a compression candidate. */
  redacted: boolean;
}

export interface ToolUseBlock extends BlockBase {
  type: 'tool_use';
  id: string;
  name: string;
  /** The parsed input. When the format stores arguments as a string that is not valid JSON, this is the
   * string itself and `inputInvalid` is true (reported as a diagnostic, never thrown). */
  input: unknown;
  inputInvalid?: boolean;
  /** A call that loads tool definitions (a tool search), not a tool the agent ran. */
  loadsTools?: boolean;
}

export interface ToolResultBlock extends BlockBase {
  type: 'tool_result';
  toolUseId: string;
  /** A string, or nested blocks (text and image). */
  content: string | Block[];
  isError: boolean;
  /** The file cannot hold a rewrite of it (the tool definitions a Codex tool search loaded: the agent parses them,
   * and text in their place would break the log): no policy rewrites it. */
  fixed?: boolean;
}

export interface ImageBlock extends BlockBase {
  type: 'image';
  mediaType?: string;
  /** Length of the encoded data in characters, when the image is inline. */
  dataLength?: number;
}

/** Anything else (documents, server tool results, unknown block types): kept byte-for-byte, shown by kind. */
export interface OtherBlock extends BlockBase {
  type: 'other';
  kind: string;
  raw: string;
}

export type Block = TextBlock | ThinkingBlock | ToolUseBlock | ToolResultBlock | ImageBlock | OtherBlock;

/** Token usage that the agent recorded for one request (Claude Code `message.usage`, Codex `token_count`). */
export interface RecordedUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadInputTokens: number;
  cacheCreationInputTokens: number;
  /** Of the cache writes, those made with the 1-hour lifetime (Anthropic `cache_creation.ephemeral_1h_input_tokens`);
   * the rest are 5-minute writes. */
  cacheCreation1hInputTokens?: number;
  /** Of the output, the reasoning the model produced (OpenAI `reasoning_output_tokens`): the size of the encrypted
   * reasoning item the agent sends back. */
  reasoningOutputTokens?: number;
}

/** One reply the file records usage for, wherever it sits: the main thread, a sub-agent, or off the branch shown.
 * What the session cost is the sum over these, each at its own model and cache lifetime. */
export interface RecordedReply {
  /** `main`, or the id of the sub-agent conversation. */
  thread: string;
  /** False for replies on an abandoned branch (a rewound or edited turn): paid for, never replayed. */
  onBranch: boolean;
  /** The model that answered (`message.model`; Codex `turn_context`). */
  model?: string;
  usage: RecordedUsage;
  timestamp?: string;
  /** 1-based line of the record that carries the usage. */
  line: number;
  /** What the agent itself recorded the reply cost, in USD (Cline's, Roo Code's and OpenCode's `cost`): shown beside the list-price cost. */
  agentCost?: number;
  /** The summarizing pass of a server-side compaction within the reply's request (Anthropic `usage.iterations` of
   * type `compaction`, which the top-level usage leaves out): paid for with the reply, no reply of its own. */
  compaction?: boolean;
}

/** A summarization request the agent logged in a file of its own: the replies it records (usually one). */
export interface LoggedSummarization {
  /** The file's name, as shown beside the figures it priced. */
  file: string;
  replies: RecordedReply[];
}

export interface Reload {
  /** The requests that send message `at` and the later ones leave out what follows. */
  at: number;
  forgotten: number[];
  /** Blocks [message, block] sent from `at` on as a placeholder of a few tokens, not their content (a Claude Code
   * microcompaction clears tool results one by one: a message may keep the others). */
  cleared?: [number, number][];
}

export interface Message {
  /** Position in `Transcript.messages`. */
  index: number;
  role: Role;
  blocks: Block[];
  /** The record(s) this message came from: first line to last line. */
  source?: SourceRange;
  /** ISO timestamp of the (first) record, when the format has one. */
  timestamp?: string;
  /** On assistant messages: the usage recorded for the request that produced this reply, once per reply. */
  usage?: RecordedUsage;
  /** On assistant messages: the model that answered, as the log names it (`claude-opus-4-6`, `gpt-5.2-codex`). */
  model?: string;
  /** On assistant messages: the agent's mode the request was sent in, where each mode has a system prompt of its own
   * (Roo Code's and Kilo Code's `<slug>`: `code`, `architect`, `orchestrator`…). */
  agentMode?: string;
  /** Format-specific flags worth showing (e.g. Claude Code `isMeta`, `isCompactSummary`). */
  flags?: string[];
}

/** Something in the log that is not a message but must stay visible: a compaction, an unknown record type. */
export interface Marker {
  kind: 'compaction' | 'unknown-record' | 'meta-record';
  /** What the record said it was (e.g. `compact_boundary`, `summary`, `file-history-snapshot`). */
  label: string;
  /** The marker sits before the message with this index (`messages.length` when after the last one). */
  beforeMessage: number;
  /** A compaction that kept the messages from this one on (before `beforeMessage`): the requests after it send them
   * after its summary (OpenCode's `tail_start_id`). */
  keptFrom?: number;
  source?: SourceRange;
  text?: string;
  /** On a compaction whose summary no message holds (Codex `compacted`): the text the agent sends in place of the
   * older messages. A Claude Code summary is a message of its own (`isCompactSummary`). */
  summary?: string;
  /** On a compaction: the tokens the agent counted before it (Claude Code `compactMetadata.preTokens`). */
  preTokens?: number;
}

export interface Diagnostic {
  severity: 'error' | 'warning' | 'info';
  /** A stable code, e.g. `invalid-json`, `unpaired-tool-use`, `invalid-arguments`, `unknown-record`. */
  code: string;
  message: string;
  line: number;
  column: number;
}

/** The settings of a request body, as read (each checked where it is read). */
export interface RequestSettings {
  /** The most tokens a reply may have: Anthropic `max_tokens`, OpenAI `max_completion_tokens`/`max_tokens`,
   * Responses `max_output_tokens`. */
  maxTokens?: number;
  /** The body's `tool_choice`, in its own format's shape. */
  toolChoice?: unknown;
  /** Anthropic `thinking`. */
  thinking?: Record<string, unknown>;
  /** OpenAI `parallel_tool_calls`. */
  parallelToolCalls?: boolean;
}

/** A sub-agent (sidechain) conversation, kept apart from the main one. */
export interface Conversation {
  id: string;
  messages: Message[];
  /** Its messages are the copies the parent's progress records carry: the sub-agent's own file holds them. */
  echoed?: boolean;
}

/** What an agent recorded of one model over a session, without a figure per request. */
export interface RecordedTotal {
  model: string;
  requests: number;
  promptTokens: number;
}

export interface Transcript {
  format: FormatId;
  /** Why detection chose this format, in words shown to the user. */
  formatReason: string;
  /** System prompt text and tool definitions when the file holds them (request logs do; session logs don't). */
  system?: string;
  tools?: unknown[];
  /** A request body's own settings besides its messages (request logs only): what an export as another request
   * carries over. */
  requestSettings?: RequestSettings;
  messages: Message[];
  markers: Marker[];
  sidechains: Conversation[];
  diagnostics: Diagnostic[];
  /** The model that answered most replies of the conversation shown (used to choose the session's preset). */
  model?: string;
  /** Every reply with recorded usage, in file order (main thread, sub-agents, off-branch). */
  replies?: RecordedReply[];
  /** An agent that records no usage per request but its totals per model over the session (Copilot CLI's
   * shutdowns): each model's requests (sub-agents' included) and their prompt tokens, cache reads and writes
   * included. */
  recordedTotals?: RecordedTotal[];
  /** The agent sends the model's reasoning back within a turn and drops it at the next user message (the OpenAI
   * Responses way: Codex). Its reasoning then counts at its recorded size, until the turn ends. */
  reasoningKeptWithinTurn?: boolean;
  /** Where the agent reloaded the conversation from its own log (Claude Code restarted mid-session): from message
   * `at` on, the requests no longer send `forgotten` (ascending indices before `at`), the messages the log's chain
   * leaves out although the agent had sent them before. */
  reloads?: Reload[];
  /** The summarization requests of the log's compactions where the agent writes them to files of their own (Claude
   * Code: `<session>/subagents/agent-acompact-*.jsonl`), read beside the transcript: one entry per file. Unset when
   * nobody looked (then, like a file not kept, each summarization request is estimated). */
  summarizations?: LoggedSummarization[];
  /** The file's bytes as read: `write` splices rewrites into them, so every untouched byte survives. */
  raw: Uint8Array;
}

/** One rewritten value: the new content of a tool_result block, or the new text of a text block. */
export interface Rewrite {
  messageIndex: number;
  blockIndex: number;
  content: string | Block[];
}
