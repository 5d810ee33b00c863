// Bad jars: each is listed as skipped with its reason, and nothing else is lost.
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { deflateRawSync } from 'node:zlib';
import { defaultDependencySettings } from '../../server/src/deps/discover';
import { ZipArchive, ZipError } from '../../server/src/deps/zip';
import { Indexer } from '../../server/src/index/indexer';
import { compile, jarOf, jdkMissing } from '../helpers/jdk';
import { writeFixture } from '../helpers/workspace';
import { tempDir } from '../helpers/tempDir';

/** A one-entry zip written by hand, with the sizes it claims (a bomb claims the truth: it is just huge). */
function zipOf(name: string, content: Buffer, method: 0 | 8 = 8): Buffer {
  const data = method === 8 ? deflateRawSync(content) : content;
  const nameBuf = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0); local.writeUInt16LE(method, 8);
  local.writeUInt32LE(data.length, 18); local.writeUInt32LE(content.length, 22); local.writeUInt16LE(nameBuf.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0); central.writeUInt16LE(method, 10);
  central.writeUInt32LE(data.length, 20); central.writeUInt32LE(content.length, 24); central.writeUInt16LE(nameBuf.length, 28);
  central.writeUInt32LE(0, 42);
  const dirOffset = local.length + nameBuf.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0); end.writeUInt16LE(1, 8); end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + nameBuf.length, 12); end.writeUInt32LE(dirOffset, 16);
  return Buffer.concat([local, nameBuf, data, central, nameBuf, end]);
}

test('the zip reader refuses bombs, corrupt data and non-zips with reasons', () => {
  const bomb = ZipArchive.fromBuffer(zipOf('a/Bomb.class', Buffer.alloc(50 * 1024 * 1024)));
  const r = bomb.read('a/Bomb.class');
  assert.equal(r.ok, false);
  assert.match((r as { reason: string }).reason, /over the limit/);
  const ratio = ZipArchive.fromBuffer(zipOf('a/R.class', Buffer.alloc(4 * 1024 * 1024)));
  assert.match((ratio.read('a/R.class') as { reason: string }).reason, /compression ratio \d+:1.*zip bomb/);
  const good = zipOf('a/X.java', Buffer.from('package a; class X {}'));
  assert.equal(ZipArchive.fromBuffer(good).read('a/X.java').ok, true);
  const damaged = Buffer.from(good);
  damaged.fill(0xff, 34, 40); // inside the deflated data
  const d = ZipArchive.fromBuffer(damaged).read('a/X.java');
  assert.equal(d.ok, false);
  assert.throws(() => ZipArchive.fromBuffer(Buffer.from('not a zip at all, just text')), ZipError);
});

test('a corrupt jar, a jar bomb and a class of an unknown version are skipped with reasons; the good jar is read', async (t) => {
  const skip = jdkMissing();
  if (skip) return t.skip(skip);
  const ws = writeFixture({
    'src/Main.java': 'import org.good.Good;\nimport org.future.Future;\nimport org.bomb.Bomb;\nimport org.broken.Broken;\nclass Main { Good g; Future f; Bomb b; Broken x; }\n',
  });
  const lib = join(ws.root, 'lib');
  mkdirSync(lib);
  jarOf(compile({ 'org/good/Good.java': 'package org.good; public class Good { public int size() { return 0; } }' }), join(lib, 'good.jar'));
  const futureClasses = compile({ 'org/future/Future.java': 'package org.future; public class Future {}' });
  const cls = join(futureClasses, 'org/future/Future.class');
  const bytes = readFileSync(cls);
  bytes.writeUInt16BE(99, 6);
  writeFileSync(cls, bytes);
  jarOf(futureClasses, join(lib, 'future.jar'));
  writeFileSync(join(lib, 'broken.jar'), 'PK\x03\x04 this is not really a jar');
  writeFileSync(join(lib, 'bomb.jar'), zipOf('org/bomb/Bomb.class', Buffer.alloc(20 * 1024 * 1024)));
  const ix = new Indexer({ cacheDir: tempDir('needle-cache-'), dependencies: defaultDependencySettings() });
  await ix.addFolder(ws.root);
  const st = ix.status();
  const reasons = new Map((st.skipped ?? []).map((s) => [s.path, s.reason]));
  assert.match(reasons.get(join(lib, 'broken.jar')) ?? '', /corrupt jar: not a zip archive/);
  assert.match(reasons.get(`${join(lib, 'bomb.jar')}!/org/bomb/Bomb.class`) ?? '', /compression ratio|over the limit/);
  assert.match(reasons.get(`${join(lib, 'future.jar')}!/org/future/Future.class`) ?? '', /unknown class-file major version 99/);
  const byJar = new Map((st.dependencies ?? []).map((d) => [d.jar, d]));
  assert.equal(byJar.get(join(lib, 'good.jar'))?.typesLoaded, 1);
  assert.match(byJar.get(join(lib, 'broken.jar'))?.problem ?? '', /corrupt jar/);
  assert.ok(ix.index.symbol('org.good.Good#size()'), 'the good jar is read');
  assert.ok(ix.index.symbol('Main'), 'the workspace is indexed');
  // The workspace's reference into the good jar resolves to it.
  const edges = ix.index.file(join(ws.root, 'src/Main.java'))!.resolution!.edges.toArray().map((e) => e.to);
  assert.ok(edges.includes('org.good.Good'), edges.join(' '));
});

test('a changed jar (a new SNAPSHOT) is read again; an unchanged one comes from the cache folder', async (t) => {
  const skip = jdkMissing();
  if (skip) return t.skip(skip);
  const ws = writeFixture({ 'src/Main.java': 'import com.acme.snap.Api;\nclass Main { Api api; }\n' });
  const jar = join(ws.root, 'lib', 'snap.jar');
  jarOf(compile({ 'com/acme/snap/Api.java': 'package com.acme.snap; public class Api { public void v1() {} }' }), jar);
  const cache = tempDir('needle-cache-');
  const run = async () => {
    const ix = new Indexer({ cacheDir: cache, dependencies: defaultDependencySettings() });
    await ix.addFolder(ws.root);
    return ix;
  };
  const first = await run();
  assert.ok(first.index.symbol('com.acme.snap.Api#v1()'));
  const path1 = first.index.symbol('com.acme.snap.Api')!.file.path;
  const warm = await run();
  assert.equal(warm.index.symbol('com.acme.snap.Api')!.file.path, path1, 'same jar, same cache folder');
  jarOf(compile({ 'com/acme/snap/Api.java': 'package com.acme.snap; public class Api { public void v2() {} }' }), jar);
  const changed = await run();
  assert.ok(changed.index.symbol('com.acme.snap.Api#v2()'));
  assert.equal(changed.index.symbol('com.acme.snap.Api#v1()'), undefined);
  assert.notEqual(changed.index.symbol('com.acme.snap.Api')!.file.path, path1);
});

test('only the types the workspace reaches are loaded', async (t) => {
  const skip = jdkMissing();
  if (skip) return t.skip(skip);
  const ws = writeFixture({ 'src/Main.java': 'import com.acme.big.Used;\nclass Main { Used u; }\n' });
  const sources: Record<string, string> = {
    'com/acme/big/Used.java': 'package com.acme.big; import com.acme.big.util.Helper; public class Used extends Base { public Helper helper() { return null; } }',
    'com/acme/big/Base.java': 'package com.acme.big; public class Base { public void inherited() {} }',
    'com/acme/big/util/Helper.java': 'package com.acme.big.util; public class Helper {}',
  };
  for (let i = 0; i < 40; i++) sources[`com/acme/other/Unused${i}.java`] = `package com.acme.other; public class Unused${i} {}`;
  jarOf(compile(sources), join(ws.root, 'lib', 'big.jar'));
  const ix = new Indexer({ cacheDir: tempDir('needle-cache-'), dependencies: defaultDependencySettings() });
  await ix.addFolder(ws.root);
  const dep = ix.status().dependencies!.find((d) => d.jar?.endsWith('big.jar'))!;
  assert.equal(dep.typesLoaded, 3, 'Used, its supertype Base and the Helper it imports');
  assert.ok(ix.index.symbol('com.acme.big.Base#inherited()'));
  assert.equal(ix.index.symbol('com.acme.other.Unused0'), undefined);
});

test('a jar entry whose name climbs out of the cache folder is never written or read', async () => {
  const ws = writeFixture({ 'src/Main.java': 'import evil.Escape;\nclass Main { Escape e; }\n' });
  const lib = join(ws.root, 'lib');
  mkdirSync(lib);
  writeFileSync(join(lib, 'evil.jar'), zipOf('evil/Other.class', Buffer.from('not a class')));
  writeFileSync(join(lib, 'evil-sources.jar'), zipOf('../../evil/Escape.java', Buffer.from('package evil; public class Escape {}')));
  const cache = tempDir('needle-cache-');
  const ix = new Indexer({ cacheDir: join(cache, 'inner'), dependencies: defaultDependencySettings() });
  await ix.addFolder(ws.root);
  assert.equal(ix.index.symbol('evil.Escape'), undefined);
  assert.equal(existsSync(join(cache, 'evil')), false);
  assert.equal(ix.status().dependencies?.[0].typesLoaded, 0);
});
