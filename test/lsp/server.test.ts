// The server over real JSON-RPC: indexing, status, edits, retrieval, and bad requests.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RetrievalResult, StatusResult } from '../../shared/protocol';
import { startServer } from '../helpers/lspClient';
import { writeFixture } from '../helpers/workspace';

const FILES = {
  'src/com/acme/Money.java': `package com.acme;
/** An amount in cents. */
public record Money(long cents) {
  public Money plus(Money other) { return new Money(cents + other.cents); }
}`,
  'src/com/acme/Cart.java': `package com.acme;
import java.util.List;
public class Cart {
  private final List<Money> prices;
  public Cart(List<Money> prices) { this.prices = prices; }
  /** Sums all prices with {@link Money#plus}. */
  public Money total() {
    $0
  }
}`,
};

async function until<T>(what: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await what();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('server: index, status, edits through didChange and disk, retrieval, errors', async (t) => {
  const fx = writeFixture(FILES);
  const cartPath = join(fx.root, 'src/com/acme/Cart.java');
  const cartUri = pathToFileURL(cartPath).toString();
  const s = await startServer([fx.root]);
  t.after(() => s.close());

  const ready = await s.waitReady();
  assert.equal(ready.files, 2);
  assert.ok(ready.symbols >= 7, `symbols: ${ready.symbols}`);

  // An open document supersedes disk: adding a method through didChange shows up in status.
  const text = readFileSync(cartPath, 'utf8');
  await s.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: cartUri, languageId: 'java', version: 1, text } });
  const withMethod = text.replace(/\n}\s*$/, '\n  public int count() { return prices.size(); }\n}\n');
  await s.connection.sendNotification('textDocument/didChange', {
    textDocument: { uri: cartUri, version: 2 },
    contentChanges: [{ text: withMethod }],
  });
  await until(async () => {
    const st = await s.connection.sendRequest<StatusResult>('needle/status', {});
    return st.symbols === ready.symbols + 1 ? st : undefined;
  });

  // A new file on disk is picked up by the watcher.
  const extra = join(fx.root, 'src/com/acme/Coupon.java');
  writeFileSync(extra, 'package com.acme;\npublic class Coupon { Money value; }\n');
  await until(async () => ((await s.connection.sendRequest<StatusResult>('needle/status', {})).files === 3 ? true : undefined));
  unlinkSync(extra);
  await until(async () => ((await s.connection.sendRequest<StatusResult>('needle/status', {})).files === 2 ? true : undefined));

  // Retrieval at the cursor inside total(): the Money record must be in the context.
  const params = { textDocument: { uri: cartUri }, position: { line: fx.cursor!.line, character: fx.cursor!.character } };
  const r = await s.connection.sendRequest<RetrievalResult>('needle/retrieveContext', params);
  assert.ok(r.items.length > 0);
  assert.ok(r.tokens <= 4000);
  assert.ok(r.items.every((i) => i.untrusted === true));
  assert.ok(r.items.some((i) => i.uri.endsWith('Money.java') && i.text.includes('plus')), 'Money#plus retrieved');
  const again = await s.connection.sendRequest<RetrievalResult>('needle/retrieveContext', params);
  assert.deepEqual({ ...again, timingsMs: {} }, { ...r, timingsMs: {} }, 'identical requests give identical results');
  const viaCommand = await s.connection.sendRequest<RetrievalResult>('workspace/executeCommand', { command: 'needle.retrieveContext', arguments: [cartUri, params.position] });
  assert.deepEqual(viaCommand.items.map((i) => i.symbol), r.items.map((i) => i.symbol));

  // Bad requests: readable InvalidParams, MethodNotFound for unknown methods.
  const code = async (method: string, p: unknown) => {
    try { await s.connection.sendRequest(method, p); return 0; } catch (e) { return (e as { code: number }).code; }
  };
  assert.equal(await code('needle/retrieveContext', { textDocument: { uri: cartUri } }), -32602);
  assert.equal(await code('needle/retrieveContext', { textDocument: { uri: 'file:///etc/passwd' }, position: { line: 0, character: 0 } }), -32602);
  assert.equal(await code('needle/retrieveContext', { ...params, position: { line: 9999, character: 0 } }), -32602);
  assert.equal(await code('needle/retrieveContext', { ...params, mode: 'magic' }), -32602);
  assert.equal(await code('needle/nope', {}), -32601);
  assert.equal(s.process.exitCode, null, 'server still running');
});

test('server: a client with no capabilities at all (no progress, no folder events) is served', async (t) => {
  const fx = writeFixture(FILES);
  const s = await startServer([fx.root], {}, {});
  t.after(() => s.close());
  const ready = await s.waitReady();
  assert.equal(ready.files, 2);
  const r = await s.connection.sendRequest<RetrievalResult>('needle/retrieveContext', {
    textDocument: { uri: pathToFileURL(join(fx.root, 'src/com/acme/Cart.java')).toString() },
    position: { line: fx.cursor!.line, character: fx.cursor!.character },
  });
  assert.ok(r.items.length > 0);
  assert.doesNotMatch(s.stderr(), /unhandled|uncaught/);
});
