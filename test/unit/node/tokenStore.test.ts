// Token counts kept on disk: found again by another counter, bounded, safe when damaged or shared by processes.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  mkdtempSync,
  readFileSync,
  symlinkSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { crc32 } from 'node:zlib';
import { analyzeSync } from '../../../src/core/analysis';
import { DEFAULT_POLICY } from '../../../src/core/engine/policy';
import { countCacheKey, keyDigest, TokenCounter } from '../../../src/core/tokens/counter';
import { backCounters, TokenStore } from '../../../src/node/tokenStore';
import { mergeRecords, readRecords, storeFile } from '../../../src/node/tokenStoreFile';
import { toolLoop } from '../transcripts';

const scratch = () => mkdtempSync(join(tmpdir(), 'context-lens-tokens-'));
const texts = (n: number, tag = 't') =>
  Array.from({ length: n }, (_, i) => (i % 3 === 0 ? `${tag} long ${i} `.repeat(40) : `${tag} short ${i}`));

test('the digest of a long text is the one its cache key holds; a short text is hashed', () => {
  const long = 'x'.repeat(1000);
  const short = 'hello';
  assert.equal(keyDigest(countCacheKey(long)).length, 16);
  assert.deepEqual(keyDigest(countCacheKey(long)), keyDigest(`#${countCacheKey(long).slice(1)}`));
  assert.notDeepEqual(keyDigest(countCacheKey(short)), keyDigest(countCacheKey('hellp')));
});

test('counts saved by one counter are found by another, which tokenizes nothing and counts the same', async () => {
  const dir = scratch();
  const first = new TokenCounter('o200k_base');
  const a = backCounters(dir, {}, [first]);
  const t = toolLoop(40);
  const reference = analyzeSync(t, DEFAULT_POLICY, { counter: first }).analysis;
  assert.ok(first.misses > 0);
  await a.save();
  const second = new TokenCounter('o200k_base');
  const b = backCounters(dir, {}, [second]);
  const again = analyzeSync(t, DEFAULT_POLICY, { counter: second }).analysis;
  assert.equal(second.misses, 0, 'nothing tokenized the second time');
  assert.equal(second.backingHits, first.misses);
  assert.deepEqual(again.totals, reference.totals);
  assert.deepEqual(
    again.messages.map((m) => [m.tokensBefore, m.tokensAfter]),
    reference.messages.map((m) => [m.tokensBefore, m.tokensAfter]),
  );
  assert.equal(b.stores()[0].dirty, false, 'a run that found everything has nothing to write');
});

test('a store finds every count it saved, however many share a bucket', async () => {
  const dir = scratch();
  const s = TokenStore.open(dir, 'o200k_base');
  const all = texts(3000);
  all.forEach((t, i) => {
    s.put(countCacheKey(t), i);
  });
  assert.ok(await s.save());
  const r = TokenStore.open(dir, 'o200k_base');
  assert.equal(r.size, all.length);
  all.forEach((t, i) => {
    assert.equal(r.get(countCacheKey(t)), i);
  });
  assert.equal(r.get(countCacheKey('never counted')), undefined);
});

test('a damaged, cut or foreign file is ignored with a warning, and rebuilt by the next save', async () => {
  const dir = scratch();
  const s = TokenStore.open(dir, 'o200k_base');
  for (const t of texts(50)) s.put(countCacheKey(t), t.length);
  await s.save();
  const file = storeFile(dir, 'o200k_base');
  const good = readFileSync(file);
  const damaged = Buffer.from(good);
  damaged[good.length - 3] ^= 0xff; // one count changed: the checksum no longer matches
  for (const bad of [
    damaged,
    good.subarray(0, good.length - 7),
    Buffer.from('not a store at all'),
    Buffer.alloc(0),
  ]) {
    writeFileSync(file, bad);
    const warnings: string[] = [];
    const r = TokenStore.open(dir, 'o200k_base', { warn: (m) => warnings.push(m) });
    assert.equal(r.size, 0);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /not a valid store.*ignored and rebuilt/);
    r.put(countCacheKey('after the damage'), 3);
    assert.ok(await r.save());
    assert.ok(readRecords(readFileSync(file)), 'rebuilt as a valid store');
    assert.equal(TokenStore.open(dir, 'o200k_base').get(countCacheKey('after the damage')), 3);
  }
});

test('an unwritable folder warns and keeps going', async () => {
  const dir = scratch();
  writeFileSync(join(dir, 'file'), '');
  const warnings: string[] = [];
  const s = TokenStore.open(join(dir, 'file', 'tokens'), 'o200k_base', { warn: (m) => warnings.push(m) });
  s.put(countCacheKey('x'), 1);
  assert.equal(await s.save(), false);
  assert.match(warnings.join('\n'), /cannot create the folder/);
  assert.equal(s.get(countCacheKey('x')), 1, 'still answers from memory');
});

test('the bound evicts the least recently used counts first', () => {
  const record = (digest: number, tokens: number, stamp: number) => {
    const b = Buffer.alloc(24);
    b.writeUInt32BE(digest, 0);
    b.writeUInt32LE(tokens, 16);
    b.writeUInt32LE(stamp, 20);
    return b;
  };
  const records = Buffer.concat([
    record(1, 10, 100),
    record(2, 20, 50),
    record(3, 30, 300),
    record(5, 50, 60),
  ]);
  const added = new Map<string, [number, number]>([
    [record(4, 40, 0).subarray(0, 16).toString('latin1'), [40, 200]],
    [record(2, 20, 0).subarray(0, 16).toString('latin1'), [20, 400]], // used again: re-stamped
  ]);
  const merged = mergeRecords(records, added, 3);
  const rows = [];
  for (let i = 0; i < merged.length; i += 24)
    rows.push([merged.readUInt32BE(i), merged.readUInt32LE(i + 16), merged.readUInt32LE(i + 20)]);
  // Five distinct counts, three kept: stamps 400 (2), 300 (3), 200 (4); 100 (1) and 60 (5) go.
  assert.deepEqual(rows, [
    [2, 20, 400],
    [3, 30, 300],
    [4, 40, 200],
  ]);
});

test('a store opened with a bound never saves more than it', async () => {
  const dir = scratch();
  const s = TokenStore.open(dir, 'o200k_base', { maxEntries: 100 });
  for (const t of texts(150)) s.put(countCacheKey(t), 1);
  await s.save();
  assert.equal(TokenStore.open(dir, 'o200k_base').size, 100);
});

test('a snapshot read in another thread answers the same, and what it adds is saved by the owner', async () => {
  const dir = scratch();
  const owner = TokenStore.open(dir, 'o200k_base');
  const old = texts(20, 'old');
  for (const t of old) owner.put(countCacheKey(t), 7);
  await owner.save();
  const view = TokenStore.fromSnapshot(owner.snapshot());
  for (const t of old) assert.equal(view.get(countCacheKey(t)), 7);
  const fresh = texts(10, 'new');
  for (const t of fresh) view.put(countCacheKey(t), 9);
  assert.equal(await view.save(), true, 'a snapshot never writes');
  owner.addTaken(view.takeAdded());
  assert.equal(view.dirty, false);
  await owner.save();
  const r = TokenStore.open(dir, 'o200k_base');
  for (const t of fresh) assert.equal(r.get(countCacheKey(t)), 9);
  assert.equal(r.size, 30);
});

test('a lock left by a dead process is taken over; a live one makes the save give up, not fail', async () => {
  const dir = scratch();
  const file = storeFile(dir, 'o200k_base');
  const s = TokenStore.open(dir, 'o200k_base');
  s.put(countCacheKey('a'), 1);
  await s.save();
  writeFileSync(`${file}.lock`, '99999');
  const warnings: string[] = [];
  const busy = TokenStore.open(dir, 'o200k_base', { lockWaitMs: 200, warn: (m) => warnings.push(m) });
  busy.put(countCacheKey('b'), 2);
  assert.equal(await busy.save(), false);
  assert.match(warnings[0], /another process holds/);
  const old = new Date(Date.now() - 60_000);
  utimesSync(`${file}.lock`, old, old);
  assert.equal(await busy.save(), true);
  const r = TokenStore.open(dir, 'o200k_base');
  assert.equal(r.get(countCacheKey('a')), 1);
  assert.equal(r.get(countCacheKey('b')), 2);
});

test('processes saving at the same time keep every count', async () => {
  const dir = scratch();
  // A script file (not -e): tsx compiles the repository's modules as CommonJS, which an ESM -e cannot name.
  const script = join(dir, 'saver.ts');
  writeFileSync(
    script,
    `import { countCacheKey } from ${JSON.stringify(join(process.cwd(), 'src/core/tokens/counter'))};
     import { TokenStore } from ${JSON.stringify(join(process.cwd(), 'src/node/tokenStore'))};
     const [dir, tag] = process.argv.slice(-2);
     const s = TokenStore.open(dir, 'o200k_base');
     // Twenty saves each, so that the four processes' saves overlap.
     (async () => {
       let ok = true;
       for (let i = 0; i < 2000; i++) {
         s.put(countCacheKey(tag + ' ' + i), i);
         if (i % 100 === 99) ok = (await s.save()) && ok;
       }
       process.exitCode = ok ? 0 : 1;
     })();`,
  );
  const tags = ['p0', 'p1', 'p2', 'p3'];
  const codes = await Promise.all(
    tags.map(
      (tag) =>
        new Promise<number | null>((resolve) => {
          const child = spawn(process.execPath, ['--import', 'tsx', script, dir, tag], { stdio: 'inherit' });
          child.on('exit', resolve);
        }),
    ),
  );
  assert.deepEqual(codes, [0, 0, 0, 0]);
  const r = TokenStore.open(dir, 'o200k_base');
  assert.equal(r.size, 8000);
  for (const tag of tags)
    for (let i = 0; i < 2000; i += 97) assert.equal(r.get(countCacheKey(`${tag} ${i}`)), i);
});

/** Runs `body` (TypeScript, with `TokenStore`, `storeFile`, `countCacheKey` and `readRecords` in scope) in a child
 * process and returns what it printed as JSON; a child that hangs (a FIFO read) is killed and fails the test. */
function inChild(body: string, args: string[], options: { uid?: number; gid?: number } = {}): unknown {
  const dir = scratch();
  const script = join(dir, 'child.ts');
  writeFileSync(
    script,
    `import { countCacheKey } from ${JSON.stringify(join(process.cwd(), 'src/core/tokens/counter'))};
     import { TokenStore } from ${JSON.stringify(join(process.cwd(), 'src/node/tokenStore'))};
     import { readRecords, storeFile } from ${JSON.stringify(join(process.cwd(), 'src/node/tokenStoreFile'))};
     void countCacheKey; void readRecords; void storeFile;
     const args = process.argv.slice(2);
     (async () => { ${body} })().then((r) => process.stdout.write(JSON.stringify(r)));`,
  );
  chmodSync(dir, 0o755);
  chmodSync(script, 0o644);
  const r = spawnSync(process.execPath, ['--import', 'tsx', script, ...args], {
    encoding: 'utf8',
    timeout: 120_000,
    cwd: process.cwd(),
    ...options,
  });
  assert.equal(r.signal, null, `the child was killed (${r.signal}): it hung reading the store`);
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

test('a FIFO, a device or a file larger than a store can be in its place is never read: ignored with a warning, replaced by the next save', () => {
  const made: Record<string, string> = {};
  const fifoDir = scratch();
  const fifo = spawnSync('mkfifo', [storeFile(fifoDir, 'o200k_base')]);
  assert.equal(fifo.status, 0, `mkfifo: ${fifo.stderr}`);
  made['a FIFO \\(named pipe\\)'] = fifoDir;
  const zeroDir = scratch();
  symlinkSync('/dev/zero', storeFile(zeroDir, 'o200k_base'));
  made['a character device'] = zeroDir;
  const hugeDir = scratch();
  // Sparse: 64 MB of nothing, more than the 48 MB the default bound of 2 million counts can fill.
  writeFileSync(storeFile(hugeDir, 'o200k_base'), '');
  truncateSync(storeFile(hugeDir, 'o200k_base'), 64 * 1024 * 1024);
  made['more than the \\d+ it can hold'] = hugeDir;
  const dirs = Object.values(made);
  const results = inChild(
    `const out = [];
     for (const dir of args) {
       const warnings = [];
       const s = TokenStore.open(dir, 'o200k_base', { warn: (m) => warnings.push(m) });
       const size = s.size;
       s.put(countCacheKey('after'), 5);
       const saved = await s.save();
       const again = TokenStore.open(dir, 'o200k_base').get(countCacheKey('after'));
       out.push({ size, warnings, saved, again });
     }
     return out;`,
    dirs,
  ) as { size: number; warnings: string[]; saved: boolean; again: number }[];
  Object.keys(made).forEach((kind, i) => {
    const r = results[i];
    assert.equal(r.size, 0, kind);
    assert.match(r.warnings[0] ?? '', new RegExp(`token cache .* is ${kind}|${kind}`), kind);
    assert.match(r.warnings[0], /ignored and rebuilt/);
    assert.equal(r.warnings.length, 1, `${kind}: said once, not again when the save reads it under the lock`);
    assert.equal(r.saved, true, `${kind}: ${r.warnings.join('; ')}`);
    assert.equal(r.again, 5, `${kind}: a valid store now stands in its place`);
  });
});

test('a folder the cache cannot write in is reported as such, not as a lock another process holds', (t) => {
  const dir = scratch();
  const s = TokenStore.open(dir, 'o200k_base');
  s.put(countCacheKey('a'), 1);
  return s.save().then(() => {
    chmodSync(dir, 0o555);
    t.after(() => chmodSync(dir, 0o755));
    // Root writes anywhere: the save then runs as an unprivileged user.
    const root = process.getuid?.() === 0;
    const warnings = inChild(
      `const warnings = [];
       const s = TokenStore.open(args[0], 'o200k_base', { lockWaitMs: 200, warn: (m) => warnings.push(m) });
       s.put(countCacheKey('b'), 2);
       const saved = await s.save();
       return { saved, warnings, read: s.get(countCacheKey('a')) };`,
      [dir],
      root ? { uid: 65534, gid: 65534 } : {},
    ) as { saved: boolean; warnings: string[]; read: number };
    assert.equal(warnings.saved, false);
    assert.equal(warnings.read, 1, 'the kept counts are still read');
    assert.equal(warnings.warnings.length, 1);
    assert.match(warnings.warnings[0], /cannot write in the folder \(EACCES\)/);
    assert.doesNotMatch(warnings.warnings[0], /another process/);
  });
});

/** The store file with every count halved and its checksum made again: valid, and wrong. */
function poison(file: string): void {
  const bytes = readFileSync(file);
  const records = readRecords(bytes) as Buffer;
  for (let at = 0; at < records.length; at += 24)
    records.writeUInt32LE(Math.floor(records.readUInt32LE(at + 16) / 2), at + 16);
  bytes.writeUInt32LE(crc32(records), 20);
  writeFileSync(file, bytes);
}

test('a store whose counts were edited (checksum made again) bends no figure: found out, discarded with a warning, rebuilt', async () => {
  const dir = scratch();
  const first = new TokenCounter('o200k_base');
  const a = backCounters(dir, {}, [first]);
  const t = toolLoop(40);
  const reference = analyzeSync(t, DEFAULT_POLICY, { counter: first }).analysis;
  await a.save();
  a.detach();
  poison(storeFile(dir, 'o200k_base'));
  const warnings: string[] = [];
  const second = new TokenCounter('o200k_base');
  const b = backCounters(dir, { warn: (m) => warnings.push(m) }, [second]);
  const again = analyzeSync(t, DEFAULT_POLICY, { counter: second }).analysis;
  assert.deepEqual(again.totals, reference.totals, 'the figures are the tokenizer’s, not the file’s');
  assert.equal(warnings.length, 1, warnings.join('\n'));
  assert.match(
    warnings[0],
    /a kept count differs from the tokenizer's .*discarded, counted anew and the cache rebuilt/,
  );
  assert.equal(second.backingHits, 0, 'no count of the edited file was used');
  await b.save();
  b.detach();
  // Rebuilt from the counts made anew: a third run finds them all, right.
  const third = new TokenCounter('o200k_base');
  const quiet: string[] = [];
  backCounters(dir, { warn: (m) => quiet.push(m) }, [third]);
  const last = analyzeSync(t, DEFAULT_POLICY, { counter: third }).analysis;
  assert.deepEqual(last.totals, reference.totals);
  assert.equal(third.misses, 0);
  assert.deepEqual(quiet, []);
});

test('counts the caller cannot tokenize in place (the editor) are checked when the workers have counted them', async () => {
  const dir = scratch();
  const s = TokenStore.open(dir, 'o200k_base');
  const all = texts(30);
  const counter = new TokenCounter('o200k_base');
  for (const x of all) s.put(countCacheKey(x), counter.count(x));
  await s.save();
  poison(storeFile(dir, 'o200k_base'));
  const warnings: string[] = [];
  const editor = new TokenCounter('o200k_base');
  editor.backing = TokenStore.open(dir, 'o200k_base', { warn: (m) => warnings.push(m) });
  // Due for a check: not known, so that the workers count it.
  const missing = all.filter((x) => !editor.known(x));
  assert.ok(missing.length > 0);
  editor.prime(
    missing,
    missing.map((x) => counter.count(x)),
  );
  assert.match(warnings.join('\n'), /differs from the tokenizer's/);
  for (const x of all) assert.equal(editor.count(x), counter.count(x));
});

test('a check deferred by known() is made when the caller then counts the text in place', async () => {
  const dir = scratch();
  const s = TokenStore.open(dir, 'o200k_base');
  const all = texts(30);
  const counter = new TokenCounter('o200k_base');
  for (const x of all) s.put(countCacheKey(x), counter.count(x));
  await s.save();
  poison(storeFile(dir, 'o200k_base'));
  const warnings: string[] = [];
  const editor = new TokenCounter('o200k_base');
  editor.backing = TokenStore.open(dir, 'o200k_base', { warn: (m) => warnings.push(m) });
  // Past the first checks, none at random: only the deferred ones are checked.
  editor.random = () => 1;
  const missing = all.filter((x) => !editor.known(x));
  assert.ok(missing.length > 0);
  assert.equal(editor.count(missing[0]), counter.count(missing[0]));
  assert.match(warnings.join('\n'), /differs from the tokenizer's/);
});
