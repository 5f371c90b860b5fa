// Runs end-to-end test files one after the other in this one process, so that their suites share one editor
// (code-server and Chromium, started once; each suite still has a window and a workspace of its own):
//   node --import tsx test/e2e/oneProcess.ts test/e2e/burst.test.ts test/e2e/live.test.ts
// Each file stays runnable alone (`node --import tsx --test FILE`), with an editor of its own.
import { basename, resolve } from 'node:path';
import { after } from 'node:test';
import { pathToFileURL } from 'node:url';
import { shareOneEditor, stopSharedEditor } from './session';

shareOneEditor();
// At the top level: after every suite of every file.
after(stopSharedEditor);

/** The files whose suites start an editor of their own, which ends the shared one (`endSharedEditor`): they run
 * after the others, so that the shared editor is started once. editor.test.ts first: its first suite shares it. */
const OWN_EDITOR_LAST = ['editor', 'live', 'open', 'sessionsView', 'start'].map((name) => `${name}.test.ts`);
const rank = (file: string) => OWN_EDITOR_LAST.indexOf(basename(file));
const files = process.argv.slice(2);
files.sort((a, b) => rank(a) - rank(b));

void (async () => {
  // One at a time, in that order: a file's suites are queued behind those of the files before it. A file that
  // cannot be loaded fails the run, and the others still run.
  for (const file of files) {
    try {
      await import(pathToFileURL(resolve(file)).href);
    } catch (error) {
      console.error(`${file} could not be loaded:`, error);
      process.exitCode = 1;
    }
  }
})();
