// The words of "Recommend a Strategy" as the editor shows them (no `vscode` import: unit tests read them as is): a
// Markdown document, the file's name in it through the Markdown target's one escaping helper.
import { basename } from 'node:path';
import { markdownText } from '../core/markdown';
import type { RecommendReply } from './recommendWorker';

/** The document's text: a title, then the recommendation in the words `context-lens recommend` prints. */
export function recommendationDocument(
  fileName: string,
  reply: Extract<RecommendReply, { ok: true }>,
): string {
  return [
    `# Context Lens: which strategy costs least on ${markdownText(basename(fileName))}`,
    '',
    `Every policy, each under a few settings around the ones in force, replayed over the ${reply.requests} requests of the main conversation beside "none".`,
    '',
    ...reply.lines,
    '',
  ].join('\n');
}
