// A warm start with dependency jars: the library types come back from the folder cache with the
// workspace, so nothing is re-resolved, and the index equals a fresh build.
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { test } from 'node:test';
import { defaultDependencySettings } from '../../server/src/deps/discover';
import { Indexer } from '../../server/src/index/indexer';
import { compile, jarOf, jdkMissing } from '../helpers/jdk';
import { writeFixture } from '../helpers/workspace';
import { tempDir } from '../helpers/tempDir';

const FILES = {
  'src/Main.java': 'import com.acme.kit.Api;\nclass Main { Api api; void run() { api.send(new Other().id()); } }\n',
  'src/Other.java': 'import com.acme.kit.Api;\nclass Other { Api api; String id() { return api.name(); } }\n',
};
const LIB = { 'com/acme/kit/Api.java': 'package com.acme.kit; public class Api extends Base { public void send(String s) {} }', 'com/acme/kit/Base.java': 'package com.acme.kit; public class Base { public String name() { return ""; } }' };

async function indexed(root: string, cacheDir: string, dependencies: ReturnType<typeof defaultDependencySettings> | false = defaultDependencySettings()) {
  const ix = new Indexer({ cacheDir, dependencies });
  // What a warm start redoes: every incremental update or removal re-resolves what refers to the file.
  const redone: string[] = [];
  const { update, remove } = ix.index;
  ix.index.update = (path, ...rest) => { redone.push(path); return update.call(ix.index, path, ...rest); };
  ix.index.remove = (path) => { redone.push(path); return remove.call(ix.index, path); };
  await ix.addFolder(root);
  return { ix, redone };
}

/** The fixture with its jar in lib/, and an empty cache folder. */
function workspaceWithJar(): { root: string; cache: string } {
  const ws = writeFixture(FILES);
  jarOf(compile(LIB), join(ws.root, 'lib', 'kit.jar'));
  return { root: ws.root, cache: tempDir('needle-cache-') };
}

test('a warm start restores library types from the cache and re-resolves nothing', async (t) => {
  const skip = jdkMissing();
  if (skip) return t.skip(skip);
  const { root, cache } = workspaceWithJar();
  const cold = await indexed(root, cache);
  const api = cold.ix.index.symbol('com.acme.kit.Api#send(String)');
  assert.ok(api, 'the jar type is loaded');
  const warm = await indexed(root, cache);
  assert.deepEqual(warm.redone, [], 'nothing re-resolved on a warm start');
  assert.equal(warm.ix.index.canonical(), cold.ix.index.canonical(), 'warm equals the cold build');
  assert.ok(warm.ix.index.libraryOf(api.file.path), 'still marked as a library file');
  assert.equal(warm.ix.textOf(api.file.path), cold.ix.textOf(api.file.path));
});

test('library types restored by a warm start leave when dependencies are turned off', async (t) => {
  const skip = jdkMissing();
  if (skip) return t.skip(skip);
  const { root, cache } = workspaceWithJar();
  await indexed(root, cache);
  const off = await indexed(root, cache, false);
  assert.equal(off.ix.index.symbol('com.acme.kit.Api'), undefined);
  const fresh = await indexed(root, tempDir('needle-cache-'), false);
  assert.equal(off.ix.index.canonical(), fresh.ix.index.canonical());
});
