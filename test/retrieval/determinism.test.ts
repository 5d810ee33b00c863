// Identical requests on an identical workspace state give identical results (docs/protocol.md):
// whether a file is open in the editor with the same text as on disk must not matter, nor
// must other requests running at the same time.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Indexer } from '../../server/src/index/indexer';
import { defaultSettings, retrieveAt, uriOfPath } from '../../server/src/service';
import type { RetrievalResult } from '../../shared/protocol';

const ROOT = join(__dirname, '..', '..', '..', 'examples', 'acme-shop');
const strip = (r: RetrievalResult) => JSON.stringify({ ...r, timingsMs: {} });

test('open documents with unchanged text and concurrent requests do not change results', async () => {
  const ix = new Indexer({ cacheDir: null });
  await ix.addFolder(ROOT);
  const file = join(ROOT, 'src/main/java/com/acme/shop/order/OrderService.java');
  const text = ix.textOf(file)!;
  const line = text.split('\n').findIndex((l) => l.includes('// TODO'));
  assert.ok(line > 0);
  const params = { textDocument: { uri: uriOfPath(file) }, position: { line, character: 8 } };
  const before = await retrieveAt(ix, params, defaultSettings());
  assert.ok(before.items.length > 0);

  await ix.setDocument(file, text);
  await ix.setDocument(join(ROOT, 'src/main/java/com/acme/platform/core/Outcome.java'), ix.textOf(join(ROOT, 'src/main/java/com/acme/platform/core/Outcome.java'))!);
  const opened = await retrieveAt(ix, params, defaultSettings());
  assert.equal(strip(opened), strip(before), 'an open document with the same text as disk');

  const others = ix.index.allFiles().flatMap((f) => f.facts.symbols.filter((s) => s.kind === 'method').slice(0, 2)
    .map((s) => ({ textDocument: { uri: uriOfPath(f.path) }, position: { line: s.nameSpan.sl, character: s.nameSpan.sc } }))).slice(0, 20);
  const [concurrent] = await Promise.all([retrieveAt(ix, params, defaultSettings()), ...others.map((o) => retrieveAt(ix, o, defaultSettings()))]);
  assert.equal(strip(concurrent), strip(before), 'with 20 other requests in flight');
});
