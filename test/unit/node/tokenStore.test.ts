// Token counts kept on disk: found again by another counter, bounded, safe when damaged or shared by processes.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyzeSync } from '../../../src/core/analysis';
import { DEFAULT_POLICY } from '../../../src/core/engine/policy';
import { countCacheKey, keyDigest, TokenCounter } from '../../../src/core/tokens/counter';
import { backCounters, mergeRecords, readRecords, storeFile, TokenStore } from '../../../src/node/tokenStore';
import { toolLoop } from '../engine/helpers';

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
