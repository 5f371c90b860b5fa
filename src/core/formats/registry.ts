// The formats, in the order detection asks them (JSONL logs first: they are cheap to recognise). Each adapter carries
// what the rest of the code asks of its format (tool presets, default model, whether and where it keeps sessions);
// `FormatId` is this list's ids, so a new format is its adapter and one line here.
import { anthropicMessages } from './anthropicMessages';
import { claudeCode } from './claudeCode';
import { clineSession } from './clineSession';
import { clineTask } from './clineTask';
import { codex } from './codex';
import { copilotChat } from './copilotChat';
import { copilotChatJson } from './copilotChatJson';
import { copilotCli } from './copilotCli';
import { geminiCli } from './geminiCli';
import { geminiCliJson } from './geminiCliJson';
import { openaiChat } from './openaiChat';
import { openaiResponses } from './openaiResponses';
import { opencode } from './opencode';
import { qwenCode } from './qwenCode';
import type { FormatAdapter } from './types';

export const FORMATS = [
  claudeCode,
  codex,
  qwenCode,
  clineTask,
  clineSession,
  geminiCli,
  copilotCli,
  copilotChat,
  anthropicMessages,
  openaiChat,
  openaiResponses,
  geminiCliJson,
  copilotChatJson,
  opencode,
] as const;

export type FormatId = (typeof FORMATS)[number]['id'];

export function adapterFor(id: FormatId): FormatAdapter {
  const adapter: FormatAdapter | undefined = FORMATS.find((f) => f.id === id);
  if (!adapter) throw new Error(`unknown format "${id}"`);
  return adapter;
}

/** The formats whose files are sessions an agent keeps in a known place: the ones session discovery looks for. */
export function discoverableFormats(): FormatAdapter[] {
  return FORMATS.filter((f: FormatAdapter) => f.session?.location !== undefined);
}
