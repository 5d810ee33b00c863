// The cache encoding: every declaration and edge survives the round trip exactly, a damaged
// cache is refused, and a warm start trusts a file's size and mtime only as far as documented.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checksum, CorruptCache, decodeFiles, encodeFiles, type CachedFile } from '../../server/src/index/cacheCodec';
import { discoverFiles } from '../../server/src/index/files';
import { Indexer } from '../../server/src/index/indexer';
import { repoRoot } from '../helpers/repoRoot';
import { writeFixture } from '../helpers/workspace';
import { tempDir } from '../helpers/tempDir';

/** Facts as a reader sees them: keys holding undefined are the same as absent keys. */
const plain = (x: unknown) => JSON.parse(JSON.stringify(x));

async function indexedExample(): Promise<[string, CachedFile][]> {
  const ix = new Indexer({ cacheDir: null });
  const root = join(repoRoot(), 'examples', 'acme-shop');
  await ix.addFolder(root);
  return ix.index.allFiles().map((f) => [f.path, { hash: f.hash, facts: f.facts, resolution: f.resolution, stamp: { size: 10, mtimeMs: 1.5e12 + 0.25 } }]);
}

test('declarations, edges and stamps round-trip exactly', async () => {
  const files = await indexedExample();
  assert.ok(files.length > 5 && files.some(([, f]) => f.resolution!.edges.length > 0));
  assert.ok(files.some(([, f]) => f.resolution!.memberLookups.length > 0), 'member lookups round-trip too');
  assert.ok(files.some(([, f]) => f.facts.symbols.some((s) => s.unreadParams?.length)), 'unused parameters round-trip too');
  const decoded = decodeFiles(encodeFiles(files));
  assert.deepEqual([...decoded.keys()], files.map(([p]) => p));
  for (const [path, f] of files) {
    const d = decoded.get(path)!;
    assert.equal(d.hash, f.hash);
    assert.deepEqual(d.stamp, f.stamp);
    assert.deepEqual(plain(d.resolution), plain(f.resolution));
    // Reference sites are not stored: they are re-extracted from the text when needed.
    assert.deepEqual(d.facts.refs, []);
    assert.equal(d.facts.refsReleased, true);
    assert.deepEqual(plain({ ...d.facts, refs: [], refsReleased: true }), plain({ ...f.facts, refs: [], refsReleased: true }));
  }
});

test('a damaged encoding is refused, never half-read', async () => {
  const encoded = encodeFiles(await indexedExample());
  const flipped = { ...encoded, ints: encoded.ints.slice() };
  flipped.ints[Math.floor(flipped.ints.length / 2)] ^= 1;
  assert.throws(() => decodeFiles(flipped), CorruptCache);
  assert.throws(() => decodeFiles({ ...encoded, ints: encoded.ints.slice(0, -7) }), CorruptCache);
  assert.throws(() => decodeFiles({ ...encoded, text: encoded.text.slice(1) }), CorruptCache);
  // Consistent checksums over inconsistent data (a string index out of range): still refused.
  const bad = { ...encoded, ints: encoded.ints.slice() };
  bad.ints[1] = encoded.offsets.length + 5;
  bad.check = checksum(bad.ints);
  assert.throws(() => decodeFiles(bad), CorruptCache);
});

const OLD = new Date('2024-01-01T00:00:00Z');

test('warm start: unchanged stamps skip reading, any stamp change is settled by the content hash', async () => {
  const fx = writeFixture({
    'src/a/Util.java': 'package a;\npublic class Util {\n  public static int twice(int x) { return 2 * x; }\n}\n',
    'src/a/User.java': 'package a;\npublic class User {\n  int f() { return Util.twice(1); }\n}\n',
  });
  const util = join(fx.root, 'src/a/Util.java');
  const user = join(fx.root, 'src/a/User.java');
  for (const p of discoverFiles(fx.root).files) utimesSync(p, OLD, OLD); // stamps are kept for files not modified lately
  const cacheDir = tempDir('needle-cache-');
  const start = async () => {
    const logs: string[] = [];
    const ix = new Indexer({ cacheDir, log: (m) => logs.push(m) });
    await ix.addFolder(fx.root);
    return { ix, log: logs.join('\n') };
  };
  await start();

  // Touched (new mtime) but the same text: nothing is re-parsed.
  utimesSync(user, new Date(), new Date());
  assert.match((await start()).log, /\(0 parsed, 2 from cache/);

  // New text of a different size under the old mtime: the size gives it away.
  writeFileSync(util, readFileSync(util, 'utf8').replace('2 * x', '2 * x + 0'));
  utimesSync(util, OLD, OLD);
  const changed = await start();
  assert.match(changed.log, /\(1 parsed, 1 from cache/);
  assert.ok(changed.ix.index.file(util)!.facts.symbols.length > 0);

  // Same size and the old mtime restored: trusted without reading (the documented limit of stamps).
  const before = statSync(util).size;
  writeFileSync(util, readFileSync(util, 'utf8').replace('twice', 'twise'));
  assert.equal(statSync(util).size, before);
  utimesSync(util, OLD, OLD);
  const trusted = await start();
  assert.ok(trusted.ix.index.file(util)!.facts.symbols.some((s) => s.name === 'twice'));
  // A recent mtime is never trusted: the content decides.
  utimesSync(util, new Date(), new Date());
  const recent = await start();
  assert.ok(recent.ix.index.file(util)!.facts.symbols.some((s) => s.name === 'twise'));
});
