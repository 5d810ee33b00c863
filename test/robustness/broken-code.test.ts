// Broken code: real Java files truncated, byte-mutated, token-mutated, spliced and stuffed with
// pathological constructs. The extractor (factsOfText), the index (through Indexer.setDocument →
// WorkspaceIndex.update) and retrieveAt must answer every case without throwing or hanging.
// Seeded and reproducible. The normal run uses examples/acme-shop (a few hundred cases);
// `npm run fuzz` raises the count and points it at the corpora:
//   NEEDLE_FUZZ_CASES=10000 NEEDLE_FUZZ_CORPORA=dir1,dir2 NEEDLE_FUZZ_SEED=7 node scripts/test.mjs /robustness/broken-code

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { RetrievalResult } from '../../shared/protocol';
import { Indexer } from '../../server/src/index/indexer';
import { factsOfText } from '../../server/src/index/parseFile';
import { defaultSettings, InvalidRequest, retrieveAt } from '../../server/src/service';
import { startServer } from '../helpers/lspClient';
import { ACME, choose, int, javaFilesUnder, KINDS, mutate, prng, randomPosition, readText, within } from './lib';

const CASES = Number(process.env.NEEDLE_FUZZ_CASES ?? 300);
const SEED = Number(process.env.NEEDLE_FUZZ_SEED ?? 7);
const CORPORA = (process.env.NEEDLE_FUZZ_CORPORA ?? '').split(',').filter(Boolean);
/** Folders the Indexer indexes (mutations of files elsewhere go through extraction only). */
const INDEX_ROOTS = (process.env.NEEDLE_FUZZ_INDEX_ROOTS ?? '').split(',').filter(Boolean);
/** Retrieval is ~100× the cost of extraction: run it on every n-th case. */
const RETRIEVE_EVERY = Number(process.env.NEEDLE_FUZZ_RETRIEVE_EVERY ?? (CASES > 1000 ? 50 : 10));
/** …and an index update (a shape change re-resolves dependents: ~20 ms) on every n-th; extraction runs on all. */
const UPDATE_EVERY = Number(process.env.NEEDLE_FUZZ_UPDATE_EVERY ?? (CASES > 1000 ? 10 : 5));
const HANG_MS = 20_000;

function report(obj: object): void {
  if (process.env.NEEDLE_FUZZ_REPORT) appendFileSync(process.env.NEEDLE_FUZZ_REPORT, JSON.stringify(obj) + '\n');
}

test(`broken code: ${CASES} mutated files through factsOfText, Indexer.setDocument and retrieveAt (seed ${SEED})`, { timeout: 3_600_000 }, async (t) => {
  const roots = CORPORA.length ? CORPORA : [ACME()];
  const files = roots.flatMap((r) => javaFilesUnder(r));
  assert.ok(files.length > 0, `no Java files under ${roots.join(', ')}`);
  const indexer = new Indexer({ cacheDir: null });
  for (const r of INDEX_ROOTS.length ? INDEX_ROOTS : roots) await indexer.addFolder(r);
  let extractionOnly = 0;
  const settings = { ...defaultSettings(), budgetTokens: 2000, maxRounds: 1 };
  const rand = prng(SEED);
  const counts: Record<string, number> = {};
  let updates = 0, retrievals = 0, invalid = 0, slowestParse = 0, slowestRetrieval = 0;
  const spent = { parse: 0, update: 0, retrieve: 0 };
  const slow: string[] = [];
  const open: string[] = [];

  const runCase = async (i: number, kind: string, path: string, text: string) => {
    const where = `case ${i} (${kind}, seed ${SEED}) on ${path}`;
    if (process.env.NEEDLE_FUZZ_VERBOSE) { process.stderr.write(`${where}\n`); writeFileSync(process.env.NEEDLE_FUZZ_VERBOSE, text); }
    const t0 = performance.now();
    try {
      await within(HANG_MS, where, factsOfText(text));
    } catch (e) {
      assert.fail(`${where}: factsOfText threw ${(e as Error).stack}`);
    }
    slowestParse = Math.max(slowestParse, performance.now() - t0);
    spent.parse += performance.now() - t0;
    counts[kind] = (counts[kind] ?? 0) + 1;
    if (!indexer.rootOf(path)) { extractionOnly++; return; }
    if (i % UPDATE_EVERY !== 0) return;
    updates++;
    const tu = performance.now();
    await within(HANG_MS, where, indexer.setDocument(path, text));
    const skip = indexer.status().skipped?.find((s) => s.path === path);
    assert.equal(skip, undefined, `${where}: the index refused the text: ${skip?.reason}`);
    open.push(path);
    if (open.length > 4) await indexer.closeDocument(open.shift()!);
    spent.update += performance.now() - tu;
    if (i % RETRIEVE_EVERY !== 0) return;
    const position = randomPosition(rand, text);
    const query = rand() < 0.3 ? text.slice(int(rand, text.length), int(rand, text.length) + 80) : undefined;
    const t1 = performance.now();
    if (process.env.NEEDLE_FUZZ_VERBOSE) process.stderr.write(`  retrieve at ${JSON.stringify(position)} query ${JSON.stringify(query?.slice(0, 40))}\n`);
    try {
      const r: RetrievalResult = await within(HANG_MS, where, retrieveAt(indexer, { textDocument: { uri: pathToFileURL(path).toString() }, position, query }, settings));
      assert.ok(Array.isArray(r.items) && r.tokens <= settings.budgetTokens, `${where}: malformed result`);
      retrievals++;
    } catch (e) {
      // A position past a line that was merged away (e.g. \r inserted) is a refused request, not a crash.
      if (!(e instanceof InvalidRequest)) assert.fail(`${where} at ${JSON.stringify(position)}: retrieveAt threw ${(e as Error).stack}`);
      invalid++;
    }
    if (performance.now() - t1 > 1000 && process.env.NEEDLE_FUZZ_VERBOSE) writeFileSync(`${process.env.NEEDLE_FUZZ_VERBOSE}.slow-${i}`, JSON.stringify({ path, text, position, query }));
    if (performance.now() - t1 > 1000) slow.push(`${where} at ${JSON.stringify(position)}: retrieval ${Math.round(performance.now() - t1)} ms`);
    slowestRetrieval = Math.max(slowestRetrieval, performance.now() - t1);
    spent.retrieve += performance.now() - t1;
  };

  let i = 0;
  // Every corpus file truncated at a random point (fuzz mode only: the normal run mutates acme-shop below).
  if (CORPORA.length) {
    for (const path of files) {
      const text = readText(path);
      await runCase(i++, 'truncate-each', path, text.slice(0, int(rand, text.length + 1)));
    }
  }
  const texts = new Map<string, string>();
  const textOf = (p: string) => texts.get(p) ?? (texts.set(p, readText(p)), texts.get(p)!);
  for (let n = 0; n < CASES; n++) {
    const path = choose(rand, files);
    const kind = KINDS[n % KINDS.length];
    await runCase(i++, kind, path, mutate(rand, kind, textOf(path), textOf(choose(rand, files))));
  }
  for (const p of open.splice(0)) await indexer.closeDocument(p);
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const summary = { test: 'broken-code', seed: SEED, cases: total, byKind: counts, extractionOnly, indexUpdates: updates, retrievals, refusedPositions: invalid, slowestParseMs: Math.round(slowestParse), slowestRetrievalMs: Math.round(slowestRetrieval), spentMs: Object.fromEntries(Object.entries(spent).map(([k, v]) => [k, Math.round(v)])) };
  t.diagnostic(JSON.stringify(summary));
  for (const x of slow) t.diagnostic(`slow: ${x}`);
  report(summary);
  assert.ok(total >= Math.min(CASES, 300));
});

test('broken code through the server: mutated open documents are indexed and answered', { timeout: 120_000 }, async (t) => {
  const root = ACME();
  const files = javaFilesUnder(root);
  const s = await startServer([root]);
  t.after(() => s.close());
  await s.waitReady();
  const rand = prng(SEED + 1);
  let answered = 0;
  const n = Number(process.env.NEEDLE_FUZZ_SERVER_CASES ?? 8);
  for (let i = 0; i < n; i++) {
    const path = choose(rand, files);
    const uri = pathToFileURL(path).toString();
    const text = mutate(rand, KINDS[i % KINDS.length], readText(path), readText(choose(rand, files)));
    await s.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'java', version: 1, text } });
    try {
      const r = await within(HANG_MS, `server case ${i}`, s.connection.sendRequest<RetrievalResult>('needle/retrieveContext', { textDocument: { uri }, position: randomPosition(rand, text), budgetTokens: 1500 }));
      assert.ok(Array.isArray(r.items));
      answered++;
    } catch (e) {
      assert.equal((e as { code?: number }).code, -32602, `server case ${i}: ${(e as Error).message}`);
    }
    await s.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
  }
  const st = await s.connection.sendRequest<{ state: string; skipped?: { path: string; reason: string }[] }>('needle/status', {});
  assert.equal(st.state, 'ready');
  assert.deepEqual((st.skipped ?? []).filter((x) => /parser failure/.test(x.reason)), []);
  assert.equal(s.process.exitCode, null, 'server still running');
  assert.doesNotMatch(s.stderr(), /uncaught|unhandled/);
  t.diagnostic(`server: ${n} mutated documents, ${answered} answered, ${n - answered} refused positions`);
  report({ test: 'broken-code-server', cases: n, answered });
});
