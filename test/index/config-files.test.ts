// The configuration files lexical recall searches are listed by the indexer (discovery, then
// watcher events), so that a request does not walk the workspace for them.
import { strict as assert } from 'node:assert';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Indexer } from '../../server/src/index/indexer';
import { watchFolder } from '../../server/src/index/watcher';
import { retrieveAt, defaultSettings, uriOfPath } from '../../server/src/service';
import { writeFixture } from '../helpers/workspace';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

test('the indexer lists config files as discovery finds them and follows disk events', async () => {
  const ws = writeFixture({
    'src/A.java': 'class A {\n  void run() {\n    \n  }\n}\n',
    'src/app.properties': 'a.b=1\n',
    'conf/app.yml': 'a: 1\n',
    'pom.xml': '<project/>\n',
    'notes.txt': 'not searched\n',
    'target/generated.xml': '<build-output/>\n',
    'ignored/x.json': '{}\n',
    '.gitignore': 'ignored/\n',
  });
  const ix = new Indexer({ cacheDir: null });
  await ix.addFolder(ws.root);
  const at = (rel: string) => join(ws.root, rel);
  assert.deepEqual(ix.configFilesIn([ws.root]), [at('conf/app.yml'), at('pom.xml'), at('src/app.properties')]);
  // Java files stay what the index holds.
  assert.deepEqual(ix.index.allFiles().map((f) => f.path), [at('src/A.java')]);

  writeFileSync(at('src/more.properties'), 'shop.loyalty.rate=0.05\n');
  await ix.diskChanged(at('src/more.properties'));
  assert.ok(ix.configFilesIn([ws.root]).includes(at('src/more.properties')));
  // A folder deleted: every config file beneath it goes.
  rmSync(at('conf'), { recursive: true });
  ix.diskDeleted(at('conf'));
  assert.deepEqual(ix.configFilesIn([ws.root]), [at('pom.xml'), at('src/app.properties'), at('src/more.properties')]);
  // An event for a file that is not there (a late one) lists nothing.
  await ix.diskChanged(at('src/late.xml'));
  assert.ok(!ix.configFilesIn([ws.root]).includes(at('src/late.xml')));

  // A request searches the listed files: a config file's key, named in the query, is found.
  const res = await retrieveAt(ix, { textDocument: { uri: uriOfPath(at('src/A.java')) }, position: { line: 2, character: 4 }, query: 'read "shop.loyalty.rate" from config' }, defaultSettings());
  assert.ok(res.items.some((i) => i.uri.endsWith('more.properties')), res.items.map((i) => i.uri).join(', '));

  ix.removeFolder(ws.root);
  assert.deepEqual(ix.configFilesIn([ws.root]), []);
});

test('the watcher reports config files; pom.xml both as a dependency file and as a config file', async (t) => {
  const ws = writeFixture({ 'src/A.java': 'class A {}\n' });
  const changed: string[] = [], deleted: string[] = [], deps: string[] = [];
  const watcher = watchFolder(ws.root, { changed: (p) => changed.push(p), deleted: (p) => deleted.push(p), dependencyFile: (p) => deps.push(p) });
  t.after(() => watcher.close());
  await new Promise<void>((r) => { watcher.once('ready', () => r()); setTimeout(r, 10_000).unref(); });
  mkdirSync(join(ws.root, 'conf'));
  writeFileSync(join(ws.root, 'conf/app.yaml'), 'a: 1\n');
  writeFileSync(join(ws.root, 'conf/notes.txt'), 'no\n');
  writeFileSync(join(ws.root, 'pom.xml'), '<project/>\n');
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline && !(changed.length >= 2 && deps.length >= 1)) await sleep(25);
  rmSync(join(ws.root, 'conf/app.yaml'));
  while (Date.now() < deadline && !deleted.length) await sleep(25);
  assert.deepEqual([...new Set(changed)].sort(), [join(ws.root, 'conf/app.yaml'), join(ws.root, 'pom.xml')]);
  assert.deepEqual([...new Set(deps)], [join(ws.root, 'pom.xml')]);
  assert.deepEqual(deleted, [join(ws.root, 'conf/app.yaml')]);
});
