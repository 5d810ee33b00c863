// The watcher reports a file as written, not as the empty moment of an in-place save: a writer that
// truncates and writes a few milliseconds later must leave the index with what it wrote.
import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { watchFolder } from '../../server/src/index/watcher';
import { writeFixture } from '../helpers/workspace';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

test('a save that truncates and then writes is reported with the written text', async (t) => {
  const ws = writeFixture({ 'src/A.java': 'class A {}\n' });
  const file = join(ws.root, 'src/A.java');
  const reported: string[] = [];
  const watcher = watchFolder(ws.root, { changed: (p) => reported.push(readFileSync(p, 'utf8')), deleted: () => undefined });
  t.after(() => watcher.close());
  await new Promise<void>((r) => { watcher.once('ready', () => r()); setTimeout(r, 10_000).unref(); });

  const written = 'class A { int x; }\n';
  writeFileSync(file, '');
  await sleep(20);
  writeFileSync(file, written);
  // The last report must be the written text; a watcher that reports the truncation and folds the
  // write into it leaves '' here for good.
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline && reported.at(-1) !== written) await sleep(25);
  assert.equal(reported.at(-1), written, `reports: ${JSON.stringify(reported)}`);
});
