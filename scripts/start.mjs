// `npm start`: opens Context Lens in the real editor (code-server, the editor's workbench served over HTTP) on
// the bundled sample transcripts. `npm start` has built the bundles already; this script installs the editor on
// first use (scripts/install-editor.sh, reused afterwards), writes the generated samples when missing,
// starts the editor on 127.0.0.1 with a scratch home, loads the extension from source and prints the URL.
// Ctrl-C stops the editor's whole process group and removes the scratch folder.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { tsImport } from 'tsx/esm/api';

const repoRoot = resolve(import.meta.dirname, '..');
const samplesDir = join(repoRoot, 'samples');
const install = spawnSync('bash', [join(repoRoot, 'scripts', 'install-editor.sh')], { stdio: 'inherit' });
if (install.status !== 0) process.exit(install.status ?? 1);

const editor = await tsImport('./lib/editor.ts', import.meta.url);
const samples = await tsImport('./lib/samples.ts', import.meta.url);

samples.ensureStartSample(samplesDir);
samples.ensureGeneratedSample(samplesDir);
const sample = join(samplesDir, samples.startSample);
const scratch = mkdtempSync(join(tmpdir(), 'context-lens-editor-'));
const server = await editor.startEditor({
  scratch,
  workspace: samplesDir,
  settings: samples.startSettings(),
});

let stopping = false;
async function stop(code) {
  if (stopping) return;
  stopping = true;
  await server.stop();
  // After a crash the scratch folder stays, with the editor's log in it.
  if (code === 0) rmSync(scratch, { recursive: true, force: true });
  process.exit(code);
}
process.on('SIGINT', () => {
  console.log('\nstopping the editor…');
  void stop(0);
});
process.on('SIGTERM', () => void stop(0));
process.on('SIGHUP', () => void stop(0)); // the terminal was closed
void server.exited.then((how) => {
  if (stopping) return;
  console.error(`the editor exited on its own (${how}); its log: ${server.logPath}`);
  void stop(1);
});

// Every browser window that connects gets the sample opened in Context Lens, through the window's command-line
// socket (an `openFile` URL would open it before the custom editor is registered: in the text editor).
const served = new Set();
const opener = setInterval(() => {
  for (const socket of server.windowSockets()) {
    if (served.has(socket)) continue;
    served.add(socket);
    server
      .openInWindow(socket, sample)
      .catch((error) => console.error(`(could not open the sample: ${error.message})`));
  }
}, 300);
opener.unref();

console.log(`
The editor is running (code-server ${editor.codeServerVersion()}) with Context Lens loaded from source, on samples/.
Open this URL in a browser on this machine:

  ${server.workbenchUrl({ extensionDevelopmentPath: repoRoot })}

Context Lens opens on ${relative(samplesDir, sample)}; in this session every *.jsonl and *.request.json of the
samples opens in Context Lens with a click (elsewhere: right-click → Open With… → Context Lens).

Ctrl-C stops the editor.`);
