// What a session is called in the view: its project and its first prompt, not the file's UUID name.

import { isRealPrompt } from './formats/sessionHead';
import type { Transcript } from './model';
import { projectLabel, projectOf } from './sessionProject';

const TITLE_CHARS = 80;

/** "<project> · <first prompt>", or the file name when the transcript holds no prompt. The project is named as
 * the Sessions view names it (core/sessionProject.ts): `project` when read from the log's first records, else what
 * the path says. */
export function sessionTitle(transcript: Transcript, path: string, project?: string): string {
  const file = path.split(/[\\/]/).at(-1) ?? path;
  const label = projectLabel(project ?? projectOf(transcript.format, path));
  let prompt = '';
  for (const m of transcript.messages) {
    if (m.role !== 'user') continue;
    const text = m.blocks
      .map((b) => (b.type === 'text' ? b.text : ''))
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim();
    if (isRealPrompt(text)) {
      // Cline and its forks send the first prompt as "<task>…</task>" before the environment's details.
      prompt = /^<task> ?(.*?) ?<\/task>/.exec(text)?.[1] ?? text;
      break;
    }
  }
  if (!prompt) return file;
  const cut = prompt.length > TITLE_CHARS ? `${prompt.slice(0, TITLE_CHARS - 1)}…` : prompt;
  return label ? `${label} · ${cut}` : cut;
}
