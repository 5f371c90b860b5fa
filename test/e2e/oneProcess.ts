// Runs end-to-end test files one after the other in this one process, so that their suites share one editor
// (code-server and Chromium, started once; each suite still has a window and a workspace of its own):
//   node --import tsx test/e2e/oneProcess.ts test/e2e/burst.test.ts test/e2e/live.test.ts
// Each file stays runnable alone (`node --import tsx --test FILE`), with an editor of its own.
import { resolve } from 'node:path';
import { after } from 'node:test';
import { pathToFileURL } from 'node:url';
import { shareOneEditor, stopSharedEditor } from './session';

shareOneEditor();
// At the top level: after every suite of every file.
after(stopSharedEditor);

void (async () => {
  // One at a time, in the order given: a file's suites are queued behind those of the files before it. A file that
  // cannot be loaded fails the run, and the others still run.
  for (const file of process.argv.slice(2)) {
    try {
      await import(pathToFileURL(resolve(file)).href);
    } catch (error) {
      console.error(`${file} could not be loaded:`, error);
      process.exitCode = 1;
    }
  }
})();
