// The words of "Recommend a Strategy" as the editor shows them (no `vscode` import: unit tests read them as is).
import { basename } from 'node:path';
import { untrusted } from './escape';
import type { RecommendReply } from './recommendWorker';

/** The document's text: a title, then the recommendation in the words `context-lens recommend` prints. */
export function recommendationDocument(
  fileName: string,
  reply: Extract<RecommendReply, { ok: true }>,
): string {
  return [
    `# Context Lens: which strategy costs least on ${untrusted(basename(fileName))}`,
    '',
    `Every policy, each under a few settings around the ones in force, replayed over the ${reply.requests} requests of the main conversation beside "none".`,
    '',
    ...reply.lines,
    '',
  ].join('\n');
}
