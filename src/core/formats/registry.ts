// The five formats, in the order detection asks them (JSONL logs first: they are cheap to recognise).
import type { FormatId } from '../model';
import { anthropicMessages } from './anthropicMessages';
import { claudeCode } from './claudeCode';
import { codex } from './codex';
import { openaiChat } from './openaiChat';
import { openaiResponses } from './openaiResponses';
import type { FormatAdapter } from './types';

export const FORMATS: readonly FormatAdapter[] = [
  claudeCode,
  codex,
  anthropicMessages,
  openaiChat,
  openaiResponses,
];

export function adapterFor(id: FormatId): FormatAdapter {
  const adapter = FORMATS.find((f) => f.id === id);
  if (!adapter) throw new Error(`unknown format "${id}"`);
  return adapter;
}
