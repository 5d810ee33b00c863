// Confinement: nothing outside the workspace folders is ever read into a result. A secret file is
// planted outside, reached from inside by a file symlink and a folder symlink, named by the code
// and by the query; URIs outside the folders (plain, with .., percent-encoded, through the links)
// are refused. Windows-style traversal (..\, other drives, UNC, 8.3 short names) is probed under
// both path flavours in test/platform/paths.test.ts.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RetrievalResult, StatusResult } from '../../shared/protocol';
import { Indexer } from '../../server/src/index/indexer';
import { defaultSettings, InvalidRequest, retrieveAt } from '../../server/src/service';
import { startServer } from '../helpers/lspClient';
import { ACME, copyWorkspace, prng } from './lib';
import { tempDir } from '../helpers/tempDir';

test('confinement: symlinks out of the workspace are not followed and nothing outside reaches a result', { timeout: 120_000 }, async (t) => {
  const rand = prng(99);
  const marker = `OUTSIDE_SECRET_${Math.floor(rand() * 1e12).toString(36)}`;
  const outside = tempDir('needle-outside-');
  mkdirSync(join(outside, 'pkg'));
  const secretJava = `package com.acme.shop.order;\n/** ${marker} */\npublic class OrderVault {\n  static final String KEY = "${marker}";\n  public static String open(OrderService s) { return "${marker}"; }\n}\n`;
  writeFileSync(join(outside, 'OrderVault.java'), secretJava);
  writeFileSync(join(outside, 'pkg', 'VaultConfig.java'), secretJava.replace('OrderVault', 'VaultConfig'));
  writeFileSync(join(outside, 'vault.properties'), `vault.key=${marker}\n`);
  const root = copyWorkspace(ACME());
  const orderDir = join(root, 'src/main/java/com/acme/shop/order');
  symlinkSync(join(outside, 'OrderVault.java'), join(orderDir, 'OrderVault.java'));
  symlinkSync(join(outside, 'pkg'), join(orderDir, 'vault'));
  symlinkSync(join(outside, 'vault.properties'), join(root, 'src/main/resources/vault.properties'));
  // Code inside names the outside class, so every recall stage has a reason to look for it.
  const user = join(orderDir, 'VaultUser.java');
  writeFileSync(user, 'package com.acme.shop.order;\n\npublic class VaultUser {\n  public String unlock(OrderService s) {\n    return OrderVault.open(s) + VaultConfig.KEY;\n  }\n}\n');

  const outsideUris = [
    pathToFileURL(join(outside, 'OrderVault.java')).toString(),
    pathToFileURL(join(orderDir, 'OrderVault.java')).toString(), // the link itself, inside
    pathToFileURL(join(orderDir, 'vault', 'VaultConfig.java')).toString(),
    pathToFileURL(root).toString() + '/../' + outside.split('/').pop() + '/OrderVault.java',
    pathToFileURL(root).toString() + '/%2e%2e/' + outside.split('/').pop() + '/OrderVault.java',
  ];
  const queries = [undefined, 'OrderVault open KEY', `where is ${marker} used`, 'vault.key VaultConfig', 'vault.properties'];

  // In process: the indexer and retrieveAt.
  const ix = new Indexer({ cacheDir: null });
  await ix.addFolder(root);
  const skipped = ix.status().skipped ?? [];
  for (const p of [join(orderDir, 'OrderVault.java'), join(orderDir, 'vault')]) {
    assert.ok(skipped.some((s) => s.path === p && /outside/.test(s.reason)), `${p} not reported: ${JSON.stringify(skipped)}`);
  }
  assert.ok(!ix.index.allFiles().some((f) => f.facts.symbols.some((s) => /Vault(?!User)/.test(s.name))), 'an outside class was indexed');
  let retrievals = 0;
  for (const query of queries) {
    for (const line of [3, 4]) {
      const r = await retrieveAt(ix, { textDocument: { uri: pathToFileURL(user).toString() }, position: { line, character: 4 }, query }, defaultSettings());
      assert.ok(!JSON.stringify(r).includes(marker), `outside text reached a result (query ${query})`);
      assert.ok(r.items.every((i) => i.uri.startsWith(pathToFileURL(root).toString())), 'an item outside the folder');
      retrievals++;
    }
  }
  for (const uri of outsideUris) {
    await assert.rejects(retrieveAt(ix, { textDocument: { uri }, position: { line: 1, character: 0 } }, defaultSettings()), InvalidRequest, uri);
  }
  // A link created while running (the watcher reports it as a change) is not followed either.
  const late = join(orderDir, 'LateVault.java');
  symlinkSync(join(outside, 'OrderVault.java'), late);
  await ix.diskChanged(late);
  assert.equal(ix.index.file(late), undefined, 'a symlink created later was indexed');
  await assert.rejects(retrieveAt(ix, { textDocument: { uri: pathToFileURL(late).toString() }, position: { line: 1, character: 0 } }, defaultSettings()), InvalidRequest);

  // Through the server.
  const s = await startServer([root]);
  t.after(() => s.close());
  const st: StatusResult = await s.waitReady();
  assert.ok((st.skipped ?? []).some((x) => /outside/.test(x.reason)));
  for (const query of queries) {
    const r = await s.connection.sendRequest<RetrievalResult>('needle/retrieveContext', { textDocument: { uri: pathToFileURL(user).toString() }, position: { line: 4, character: 4 }, query });
    assert.ok(!JSON.stringify(r).includes(marker), `outside text reached a server result (query ${query})`);
    retrievals++;
  }
  for (const uri of outsideUris) {
    const code = await s.connection.sendRequest('needle/retrieveContext', { textDocument: { uri }, position: { line: 1, character: 0 } }).then(() => 0, (e: { code: number }) => e.code);
    assert.equal(code, -32602, `${uri} was not refused`);
  }
  t.diagnostic(`confinement: ${retrievals} retrievals, ${outsideUris.length + 1} outside URIs refused, 0 leaks`);
});
