// Protocol robustness over real JSON-RPC: malformed params of many shapes answer InvalidParams
// with a readable message, unknown methods MethodNotFound, $/cancelRequest stops a running
// retrieval with RequestCancelled (the time from cancel to answer is measured), and a request
// sent right after a didChange is answered for the new text.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CancellationTokenSource } from 'vscode-jsonrpc/node';
import type { RetrievalResult } from '../../shared/protocol';
import { startServer } from '../helpers/lspClient';
import { copyWorkspace, ACME, percentile, prng, int, sleep } from './lib';

const ORDER = 'src/main/java/com/acme/shop/order/OrderService.java';

async function errorOf(p: Promise<unknown>): Promise<{ code: number; message: string } | undefined> {
  try { await p; return undefined; } catch (e) { return e as { code: number; message: string }; }
}

test('protocol: malformed params, unknown methods, cancellation, stale requests', { timeout: 120_000 }, async (t) => {
  const root = copyWorkspace(ACME());
  // A generated package makes retrieval slow enough to cancel mid-flight.
  const gen = join(root, 'src/main/java/com/acme/gen');
  mkdirSync(gen, { recursive: true });
  for (let i = 0; i < 150; i++) {
    const calls = Array.from({ length: 8 }, (_, k) => `    total += new Part${(i * 7 + k * 13) % 150}().step${k}(total);`).join('\n');
    const methods = Array.from({ length: 8 }, (_, k) => `  /** Step ${k} of part ${i}: adjusts the order total. */\n  public long step${k}(long total) {\n${calls}\n    return total;\n  }`).join('\n');
    writeFileSync(join(gen, `Part${i}.java`), `package com.acme.gen;\n\npublic class Part${i} {\n${methods}\n}\n`);
  }
  const s = await startServer([root]);
  t.after(() => s.close());
  await s.waitReady();
  const uri = pathToFileURL(join(root, ORDER)).toString();
  const good = { textDocument: { uri }, position: { line: 20, character: 4 } };
  const c = s.connection;

  // ---- malformed params: every shape answers -32602 with a short, readable message ----
  const huge = 'x'.repeat(1_000_000);
  const shapes: [string, unknown][] = [
    ['no params', undefined], ['null', null], ['number', 42], ['string', 'hello'], ['array', [good]], ['empty object', {}],
    ['textDocument string', { ...good, textDocument: uri }], ['textDocument array', { ...good, textDocument: [uri] }],
    ['uri missing', { ...good, textDocument: {} }], ['uri number', { ...good, textDocument: { uri: 7 } }],
    ['uri empty', { ...good, textDocument: { uri: '' } }], ['uri http', { ...good, textDocument: { uri: 'http://example.com/A.java' } }],
    ['uri garbage', { ...good, textDocument: { uri: 'file://%%%' } }], ['uri huge', { ...good, textDocument: { uri: 'file:///' + huge } }],
    ['uri outside', { ...good, textDocument: { uri: 'file:///etc/passwd' } }],
    ['uri dotdot', { ...good, textDocument: { uri: pathToFileURL(root).toString() + '/../../etc/passwd' } }],
    ['uri missing file', { ...good, textDocument: { uri: pathToFileURL(join(root, 'src/Nope.java')).toString() } }],
    ['position missing', { textDocument: { uri } }], ['position array', { ...good, position: [20, 4] }],
    ['position string', { ...good, position: '20:4' }], ['line negative', { ...good, position: { line: -1, character: 0 } }],
    ['character negative', { ...good, position: { line: 0, character: -5 } }], ['line float', { ...good, position: { line: 1.5, character: 0 } }],
    ['line string', { ...good, position: { line: '3', character: 0 } }], ['line huge', { ...good, position: { line: 1e300, character: 0 } }],
    ['line beyond', { ...good, position: { line: 99_999, character: 0 } }], ['character beyond', { ...good, position: { line: 0, character: 99_999 } }],
    ['line null', { ...good, position: { line: null, character: 0 } }],
    ['query number', { ...good, query: 5 }], ['query object', { ...good, query: { q: 1 } }],
    ['budget zero', { ...good, budgetTokens: 0 }], ['budget negative', { ...good, budgetTokens: -100 }],
    ['budget string', { ...good, budgetTokens: '4000' }], ['budget float', { ...good, budgetTokens: 10.5 }],
    ['mode unknown', { ...good, mode: 'magic' }], ['mode number', { ...good, mode: 1 }],
    ['maxRounds negative', { ...good, maxRounds: -1 }], ['maxRounds string', { ...good, maxRounds: 'two' }],
  ];
  const bad: string[] = [];
  for (const [name, params] of shapes) {
    const e = await errorOf(params === undefined ? c.sendRequest('needle/retrieveContext') : c.sendRequest('needle/retrieveContext', params));
    if (!e || e.code !== -32602 || !e.message || e.message.length > 300 || /\n\s+at /.test(e.message)) bad.push(`${name}: ${e ? `${e.code} ${String(e.message).slice(0, 200)}` : 'answered'}`);
  }
  // The command form takes positional arguments: the same shapes arrive there.
  const commandShapes: [string, unknown][] = [
    ['arguments missing', undefined], ['arguments number', 5], ['arguments string', 'file:///x'], ['arguments object', { uri }],
    ['uri number', [5, { line: 0, character: 0 }]], ['position missing', [uri]], ['options string', [uri, { line: 20, character: 4 }, 'fast']],
    ['options bad budget', [uri, { line: 20, character: 4 }, { budgetTokens: -1 }]],
  ];
  for (const [name, args] of commandShapes) {
    const e = await errorOf(c.sendRequest('workspace/executeCommand', { command: 'needle.retrieveContext', arguments: args }));
    if (!e || e.code !== -32602 || !e.message || /\n\s+at /.test(e.message)) bad.push(`command ${name}: ${e ? `${e.code} ${String(e.message).slice(0, 200)}` : 'answered'}`);
  }
  const unknownCommand = await errorOf(c.sendRequest('workspace/executeCommand', { command: 'needle.nope', arguments: [] }));
  assert.equal(unknownCommand?.code, -32602);
  assert.deepEqual(bad, [], 'malformed params not answered with a readable InvalidParams');
  // The query may be long (a stack trace, a log): a 1 MB query is served, not refused.
  const long = await c.sendRequest<RetrievalResult>('needle/retrieveContext', { ...good, query: 'NullPointerException in OrderService.place '.repeat(2000) });
  assert.ok(Array.isArray(long.items));

  for (const m of ['needle/nope', 'textDocument/nope', 'needle/retrieveContext2', '$/nope/request']) {
    assert.equal((await errorOf(c.sendRequest(m, {})))?.code, -32601, m);
  }
  // Status ignores its params, whatever they are.
  for (const p of [{}, [], null, { junk: 1 }]) assert.ok((await c.sendRequest<{ state: string }>('needle/status', p)).state);

  // ---- cancellation: RequestCancelled, measured from $/cancelRequest to the answer ----
  const genUri = pathToFileURL(join(gen, 'Part3.java')).toString();
  const slowParams = { textDocument: { uri: genUri }, position: { line: 6, character: 4 }, query: 'order total step adjusts part', budgetTokens: 8000 };
  // The first request builds the lazy caches; cancel points are drawn within a warm request's span,
  // else most requests finish before their cancel arrives.
  await c.sendRequest('needle/retrieveContext', slowParams);
  const t0 = performance.now();
  await c.sendRequest('needle/retrieveContext', { ...slowParams, position: { line: 7, character: 4 } });
  const full = performance.now() - t0;
  const latencies: number[] = [];
  let finishedFirst = 0;
  const rand = prng(11);
  for (let i = 0; i < 12; i++) {
    const src = new CancellationTokenSource();
    const p = c.sendRequest('needle/retrieveContext', { ...slowParams, position: { line: 6 + int(rand, 3), character: 4 } }, src.token);
    await sleep(Math.min(full * 0.5, 30) * rand());
    const sent = performance.now();
    src.cancel();
    const e = await errorOf(p);
    if (process.env.NEEDLE_DEBUG_CANCEL) process.stderr.write(`cancel ${i}: answered ${Math.round(performance.now() - sent)} ms after cancel: ${e ? e.code : 'result'}\n`);
    if (!e) { finishedFirst++; continue; }
    assert.equal(e.code, -32800, `cancelled request answered ${e.code} ${e.message}`);
    latencies.push(performance.now() - sent);
  }
  const summary = { uncancelledMs: Math.round(full), cancelled: latencies.length, finishedBeforeCancel: finishedFirst, cancelToAnswerMs: { p50: Math.round(percentile(latencies, 50)), max: Math.round(Math.max(...latencies)) } };
  t.diagnostic(`cancel: ${JSON.stringify(summary)}`);
  assert.ok(latencies.length >= 3, `too few requests were still running when cancelled: ${JSON.stringify(summary)}`);
  assert.ok(percentile(latencies, 50) <= 250, `cancel latency ${JSON.stringify(summary)}`);
  // The server still answers normally afterwards.
  assert.ok((await c.sendRequest<RetrievalResult>('needle/retrieveContext', good)).items.length > 0);

  // ---- stale requests: a retrieval sent right after a change is answered for the new text ----
  const path = join(root, ORDER);
  const text = (await import('node:fs')).readFileSync(path, 'utf8');
  await c.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'java', version: 1, text } });
  for (let v = 2; v < 6; v++) {
    const lines = text.split('\n');
    const close = lines.lastIndexOf('}');
    const marker = `freshMethod${v}`;
    const edited = [...lines.slice(0, close), `    public int ${marker}() {`, `        return ${v} * 7;`, '    }', ...lines.slice(close)].join('\n');
    await c.sendNotification('textDocument/didChange', { textDocument: { uri, version: v }, contentChanges: [{ text: edited }] });
    // No wait: the request races the change; the line only exists in the new version.
    const r = await c.sendRequest<RetrievalResult>('needle/retrieveContext', { textDocument: { uri }, position: { line: close + 1, character: 8 } });
    assert.ok(r.items.some((it) => it.text.includes(marker)), `version ${v}: the answer does not show ${marker}`);
    assert.ok(!r.items.some((it) => v > 2 && it.text.includes(`freshMethod${v - 1}`)), `version ${v}: the answer shows the previous version`);
  }
  assert.equal(s.process.exitCode, null);
  assert.doesNotMatch(s.stderr(), /uncaught|unhandled/);
});
