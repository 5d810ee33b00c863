// The persisted index: a warm start equals a fresh build even when files changed, vanished or
// appeared while the server was down; a corrupt or truncated cache is detected and rebuilt.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Indexer } from '../../server/src/index/indexer';
import { writeFixture } from '../helpers/workspace';
import { tempDir } from '../helpers/tempDir';

const FILES = {
  'src/a/Util.java': 'package a;\npublic class Util {\n  public static int twice(int x) { return 2 * x; }\n  public static int half(int x) { return x / 2; }\n}\n',
  'src/a/User.java': 'package a;\npublic class User {\n  int f() { return Util.twice(1) + Util.half(2); }\n}\n',
  'src/b/Other.java': 'package b;\nimport a.Util;\npublic class Other {\n  int g() { return Util.twice(3); }\n}\n',
};

async function indexed(root: string, cacheDir: string | null): Promise<Indexer> {
  const ix = new Indexer({ cacheDir });
  await ix.addFolder(root);
  return ix;
}

test('warm start restores the snapshot and applies changes made while stopped', async () => {
  const fx = writeFixture(FILES);
  const cacheDir = tempDir('needle-cache-');
  const first = await indexed(fx.root, cacheDir);
  assert.equal((await indexed(fx.root, cacheDir)).index.canonical(), first.index.canonical(), 'unchanged workspace: identical');

  // While "stopped": a shape change (half removed), a deletion and a new file.
  writeFileSync(join(fx.root, 'src/a/Util.java'), 'package a;\npublic class Util {\n  public static int twice(int x) { return 2 * x; }\n}\n');
  unlinkSync(join(fx.root, 'src/b/Other.java'));
  writeFileSync(join(fx.root, 'src/b/New.java'), 'package b;\npublic class New {\n  int h() { return a.Util.twice(4); }\n}\n');
  const warm = await indexed(fx.root, cacheDir);
  const fresh = await indexed(fx.root, null);
  assert.equal(warm.index.canonical(), fresh.index.canonical());
  const user = warm.index.allFiles().find((f) => f.path.endsWith('User.java'))!;
  const targets = user.resolution!.edges.toArray().map((e) => e.to);
  assert.ok(targets.includes('a.Util#twice(int)'));
  assert.ok(!targets.includes('a.Util#half(int)'), 'the caller of the removed method was re-resolved');
});

test('after a warm start an edit that changes a shape re-resolves the files that consulted the type, the consulters built at the edit or in idle time before it', async () => {
  const fx = writeFixture(FILES);
  const cacheDir = tempDir('needle-cache-');
  await indexed(fx.root, cacheDir);
  const removeHalf = 'package a;\npublic class Util {\n  public static int twice(int x) { return 2 * x; }\n}\n';
  for (const idleFirst of [false, true]) {
    const warm = await indexed(fx.root, cacheDir);
    if (idleFirst) warm.index.prepareConsultedBy();
    await warm.setDocument(join(fx.root, 'src/a/Util.java'), removeHalf);
    const user = warm.index.allFiles().find((f) => f.path.endsWith('User.java'))!;
    const targets = user.resolution!.edges.toArray().map((e) => e.to);
    assert.ok(!targets.includes('a.Util#half(int)'), `the caller of the removed method was re-resolved (idle first: ${idleFirst})`);
    assert.ok(targets.includes('a.Util#twice(int)'));
    // And the other way: the method back, its caller resolves to it again (the map kept in step with the re-resolution).
    await warm.setDocument(join(fx.root, 'src/a/Util.java'), FILES['src/a/Util.java']);
    const again = warm.index.allFiles().find((f) => f.path.endsWith('User.java'))!.resolution!.edges.toArray().map((e) => e.to);
    assert.ok(again.includes('a.Util#half(int)'), `re-resolved once more (idle first: ${idleFirst})`);
    await warm.closeDocument(join(fx.root, 'src/a/Util.java'));
  }
});

test('a corrupt or truncated cache is never trusted', async () => {
  const fx = writeFixture(FILES);
  const cacheDir = tempDir('needle-cache-');
  const fresh = (await indexed(fx.root, cacheDir)).index.canonical();
  const [cacheFile] = readdirSync(cacheDir);
  truncateSync(join(cacheDir, cacheFile), 100);
  const logs: string[] = [];
  const ix = new Indexer({ cacheDir, log: (m) => logs.push(m) });
  await ix.addFolder(fx.root);
  assert.equal(ix.index.canonical(), fresh);
  assert.ok(logs.some((m) => /rebuilding/.test(m)), logs.join('\n'));
  writeFileSync(join(cacheDir, cacheFile), 'not a cache at all');
  assert.equal((await indexed(fx.root, cacheDir)).index.canonical(), fresh);
  rmSync(cacheDir, { recursive: true, force: true });
});

test('a flipped bit anywhere in the cache file is detected, reported and rebuilt', async () => {
  const fx = writeFixture(FILES);
  const cacheDir = tempDir('needle-cache-');
  const fresh = (await indexed(fx.root, cacheDir)).index.canonical();
  const [cacheFile] = readdirSync(cacheDir);
  const path = join(cacheDir, cacheFile);
  const good = readFileSync(path);
  // Every part of the file: magic, header length, digest, JSON header, each section, the last byte.
  const positions = [...new Set([0, 9, 15, 40, ...Array.from({ length: 24 }, (_, k) => Math.floor((good.length - 1) * (k + 1) / 24))])];
  for (const at of positions) {
    for (const bit of [0x01, 0x80]) {
      const bad = Buffer.from(good);
      bad[at] ^= bit;
      writeFileSync(path, bad);
      const logs: string[] = [];
      const ix = new Indexer({ cacheDir, log: (m) => logs.push(m) });
      await ix.addFolder(fx.root);
      assert.equal(ix.index.canonical(), fresh, `bit ${bit} of byte ${at} of ${good.length}`);
      assert.ok(logs.some((m) => /rebuilding/.test(m)), `byte ${at}: not reported: ${logs.join('\n')}`);
    }
  }
  rmSync(cacheDir, { recursive: true, force: true });
});

test('an unwritable cache location is reported, not fatal', async () => {
  const fx = writeFixture(FILES);
  const blocker = join(tempDir('needle-cache-'), 'file');
  writeFileSync(blocker, 'x'); // a file where the cache folder should be
  const logs: string[] = [];
  const ix = new Indexer({ cacheDir: join(blocker, 'cache'), log: (m) => logs.push(m) });
  await ix.addFolder(fx.root);
  assert.equal(ix.index.stats().files, 3);
  assert.ok(logs.some((m) => /could not save the index cache/.test(m)), logs.join('\n'));
});
