// The editor's kept files (model summaries, views' snapshots) are files another process can replace: a FIFO, a
// device or a file too large in their place is never read (a FIFO would block the read for ever), only reported.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

test('a FIFO or /dev/zero in place of the summary cache or a view snapshot: reported, never read', () => {
  const dir = mkdtempSync(join(tmpdir(), 'context-lens-kept-'));
  assert.equal(spawnSync('mkfifo', [join(dir, 'fifo.json')]).status, 0);
  assert.equal(spawnSync('mkfifo', [join(dir, 'fifo.view.json')]).status, 0);
  symlinkSync('/dev/zero', join(dir, 'zero.json'));
  symlinkSync('/dev/zero', join(dir, 'zero.view.json'));
  const script = join(dir, 'child.ts');
  const src = (p: string) => JSON.stringify(join(process.cwd(), 'src', p));
  writeFileSync(
    script,
    `import { SummaryStore } from ${src('host/summaryStore')};
     import { ViewSnapshots } from ${src('host/viewSnapshots')};
     (async () => {
       const out: unknown[] = [];
       for (const name of ['fifo', 'zero']) {
         const store = new SummaryStore(${JSON.stringify(dir)} + '/' + name + '.json');
         await store.load();
         const snapshot = await new ViewSnapshots(${JSON.stringify(dir)}, 'b').find(name);
         out.push({ problem: store.loadProblem, size: store.size, snapshot });
       }
       process.stdout.write(JSON.stringify(out));
     })();`,
  );
  const r = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.signal, null, 'the child hung reading a kept file');
  assert.equal(r.status, 0, r.stderr);
  const [fifo, zero] = JSON.parse(r.stdout) as { problem: string; size: number; snapshot: unknown }[];
  assert.match(fifo.problem, /is a FIFO \(named pipe\).*starting empty/);
  assert.match(zero.problem, /is a character device.*starting empty/);
  for (const x of [fifo, zero]) {
    assert.equal(x.size, 0);
    assert.equal(x.snapshot, null);
  }
});
