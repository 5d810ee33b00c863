// The load run shared by the short load test (normal test run) and `npm run bench:load`:
// `concurrency` clients send needle/retrieveContext back to back while a writer edits files
// continuously (didChange on open documents and writes on disk); measures latency under load
// next to idle latency, errors, and the server's resident memory before, during and after.

import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RetrievalResult, StatusResult } from '../../shared/protocol';
import { startServer, type ServerSession } from '../helpers/lspClient';
import { ACME, choose, copyWorkspace, cpuMsOf, javaFilesUnder, percentile, prng, rssOf, sleep } from './lib';

export interface LoadOptions { seconds: number; concurrency: number; idleRequests: number; writerIntervalMs: number; seed?: number; log?: (m: string) => void;
  /** Wait for memory to come back to the baseline after the load (the bench does; the short test does not). */
  settleMemory?: boolean }

export interface LoadReport {
  requests: number; errors: string[]; edits: number;
  idle: { p50: number; p95: number; mean: number }; load: { p50: number; p95: number; max: number; mean: number }; ratioP95: number;
  /** Requests answered per second during the load (closed loop: mean latency = concurrency / throughput). */
  throughput: number;
  /**
   * Server CPU per answered request, idle and under load (the load's includes applying the
   * writer's edits), its own threads and its children (ripgrep); and the server's CPU use during
   * the load in cores. Undefined where /proc is missing.
   */
  cpu?: { idleMsPerRequest: number; loadMsPerRequest: number; childMsPerRequest: number; loadCores: number };
  rss: { baselineMb: number; peakMb: number; afterMb: number } | undefined;
  serverAlive: boolean; stderrProblems: boolean;
}

const mb = (b: number | undefined) => Math.round((b ?? 0) / 1048576);
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

interface Target { uri: string; line: number }

/** Statement lines in the upper part of each file (the writers only add at the end). */
function targetsIn(files: string[]): Target[] {
  const targets: Target[] = [];
  for (const f of files) {
    const lines = readFileSync(f, 'utf8').split('\n');
    lines.forEach((l, i) => { if (i < lines.length * 0.7 && /^ {8}\S/.test(l)) targets.push({ uri: pathToFileURL(f).toString(), line: i }); });
  }
  return targets;
}

const QUERIES = [undefined, undefined, 'order total is wrong after a refund', 'NullPointerException in InvoiceService', 'retry budget exhausted'];

function asker(c: ServerSession['connection'], rand: () => number) {
  return (t: Target) => c.sendRequest<RetrievalResult>('needle/retrieveContext', { textDocument: { uri: t.uri }, position: { line: t.line, character: 8 }, query: choose(rand, QUERIES), budgetTokens: 3000 });
}

/** Latencies of `n` requests sent one at a time to random targets (a pause of `pauseMs` after each). */
async function oneAtATime(ask: (t: Target) => Promise<unknown>, rand: () => number, targets: Target[], n: number, pauseMs = 0): Promise<number[]> {
  const lat: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await ask(choose(rand, targets));
    lat.push(performance.now() - t0);
    if (pauseMs) await sleep(pauseMs);
  }
  return lat;
}

/** What every load starts from: a fresh copy of acme-shop with the server on it, ready. */
interface LoadWorkspace {
  root: string;
  /** The files `pick` chose from the copy's src/main; `targets` are theirs. */
  files: string[];
  targets: Target[];
  s: ServerSession;
  c: ServerSession['connection'];
  rand: () => number;
  ask: (t: Target) => Promise<RetrievalResult>;
}

/**
 * The start-up and tear-down the closed, open and background loads share: copy acme-shop, pick
 * the files the load works on, start the server and wait until it is ready; afterwards close it
 * and remove the copy, whatever `run` did.
 */
async function onAcmeCopy<T>(prefix: string, seed: number, pick: (files: string[]) => string[], run: (w: LoadWorkspace) => Promise<T>): Promise<T> {
  const rand = prng(seed);
  const root = copyWorkspace(ACME(), prefix);
  const files = pick(javaFilesUnder(join(root, 'src/main')));
  const targets = targetsIn(files);
  const s = await startServer([root]);
  try {
    await s.waitReady();
    return await run({ root, files, targets, s, c: s.connection, rand, ask: asker(s.connection, rand) });
  } finally {
    await s.close();
    rmSync(root, { recursive: true, force: true });
  }
}

export async function runLoad(o: LoadOptions): Promise<LoadReport> {
  const log = o.log ?? (() => {});
  return onAcmeCopy('needle-load-', o.seed ?? 3, (all) => all, async ({ root, files, targets, s, c, rand, ask }) => {

    // Idle: one request at a time.
    const pid = s.process.pid!;
    const cpuIdle0 = cpuMsOf(pid);
    const idle = await oneAtATime(ask, rand, targets, o.idleRequests);
    const cpuIdle1 = cpuMsOf(pid);
    await sleep(300);
    const baseline = rssOf(s.process.pid!);
    let peak = baseline ?? 0;
    log(`idle: ${idle.length} requests, p95 ${Math.round(percentile(idle, 95))} ms, rss ${mb(baseline)} MB`);

    // Load: clients and a writer until the deadline.
    const cpuLoad0 = cpuMsOf(pid);
    const loadStart = performance.now();
    const deadline = Date.now() + o.seconds * 1000;
    const lat: number[] = [];
    const errors: string[] = [];
    let edits = 0;
    const client = async () => {
      while (Date.now() < deadline) {
        const t = choose(rand, targets);
        const t0 = performance.now();
        try { await ask(t); lat.push(performance.now() - t0); } catch (e) { errors.push(`${relative(root, t.uri.replace('file://', ''))}:${t.line}: ${(e as Error).message}`); }
      }
    };
    const opened = new Map<string, { text: string; version: number }>();
    const writer = async () => {
      const extra = join(root, 'src/main/java/com/acme/shop/order/LoadScratch.java');
      while (Date.now() < deadline) {
        const f = choose(rand, files);
        const uri = pathToFileURL(f).toString();
        const k = edits % 4;
        if (k === 0 || k === 1) {
          // Editor: open and type a new method at the end of the class.
          const doc = opened.get(uri) ?? { text: readFileSync(f, 'utf8'), version: 1 };
          if (!opened.has(uri)) { opened.set(uri, doc); await c.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'java', version: 1, text: doc.text } }); }
          const close = doc.text.lastIndexOf('}');
          doc.text = doc.text.slice(0, close) + `    int load${edits}() { return ${edits}; }\n` + doc.text.slice(close);
          doc.version++;
          await c.sendNotification('textDocument/didChange', { textDocument: { uri, version: doc.version }, contentChanges: [{ text: doc.text }] });
        } else if (k === 2) {
          // Disk: a file changes under the watcher (a method appended, as a save from elsewhere).
          // Saved whole, by rename: writeFileSync truncates first, and a request that reads the file
          // in that moment is rightly refused (its line is outside an empty document).
          if (!opened.has(uri)) {
            const text = readFileSync(f, 'utf8');
            const close = text.lastIndexOf('}');
            const saving = `${f}.needle-save.tmp`;
            writeFileSync(saving, text.slice(0, close) + `    int disk${edits}() { return ${edits}; }\n` + text.slice(close));
            renameSync(saving, f);
          }
        } else {
          // A file that comes and goes.
          if (edits % 8 === 3) writeFileSync(extra, `package com.acme.shop.order;\n\npublic class LoadScratch {\n    public Order touch(Order o) { return o; }\n    int v${edits};\n}\n`);
          else rmSync(extra, { force: true });
        }
        edits++;
        const r = rssOf(s.process.pid!);
        if (r && r > peak) peak = r;
        await sleep(o.writerIntervalMs);
      }
    };
    await Promise.all([writer(), ...Array.from({ length: o.concurrency }, client)]);
    const loadMs = performance.now() - loadStart;
    const cpuLoad1 = cpuMsOf(pid);
    log(`load: ${lat.length} answered, ${errors.length} errors, ${edits} edits, p95 ${Math.round(percentile(lat, 95))} ms, peak rss ${mb(peak)} MB`);

    // Settle: updates drained, then memory compared with the baseline.
    for (const [uri] of opened) await c.sendNotification('textDocument/didClose', { textDocument: { uri } });
    const until = Date.now() + 20_000;
    while (Date.now() < until && (await c.sendRequest<StatusResult>('needle/status', {})).state !== 'ready') await sleep(100);
    if (o.settleMemory !== false) for (let i = 0; i < o.idleRequests; i++) await ask(choose(rand, targets)); // touch the caches once more, as idle did
    let after = rssOf(s.process.pid!);
    const memUntil = Date.now() + (o.settleMemory === false ? 0 : 15_000);
    while (after && baseline && after > baseline * 1.25 && Date.now() < memUntil) { await sleep(500); after = rssOf(s.process.pid!); }
    return {
      requests: lat.length, errors, edits,
      idle: { p50: Math.round(percentile(idle, 50)), p95: Math.round(percentile(idle, 95)), mean: Math.round(mean(idle)) },
      load: { p50: Math.round(percentile(lat, 50)), p95: Math.round(percentile(lat, 95)), max: Math.round(Math.max(...lat)), mean: Math.round(mean(lat)) },
      throughput: Math.round((lat.length / loadMs) * 10000) / 10,
      cpu: cpuIdle0 && cpuIdle1 && cpuLoad0 && cpuLoad1 && lat.length ? {
        idleMsPerRequest: Math.round((cpuIdle1.own - cpuIdle0.own) / idle.length),
        loadMsPerRequest: Math.round((cpuLoad1.own - cpuLoad0.own) / lat.length),
        childMsPerRequest: Math.round((cpuLoad1.children - cpuLoad0.children) / lat.length),
        loadCores: Math.round(((cpuLoad1.own - cpuLoad0.own) / loadMs) * 100) / 100,
      } : undefined,
      ratioP95: Math.round((percentile(lat, 95) / percentile(idle, 95)) * 100) / 100,
      rss: baseline ? { baselineMb: mb(baseline), peakMb: mb(peak), afterMb: mb(after) } : undefined,
      serverAlive: s.process.exitCode === null,
      stderrProblems: /uncaught|unhandled/.test(s.stderr()),
    };
  });
}

export interface OpenLoopOptions {
  /** Arrival rates to run, requests per second. */
  rates: number[];
  secondsPerRate: number;
  /** Open documents the requests come from. */
  documents: number;
  idleRequests: number;
  /** The writer types one character into an open file this often. */
  keystrokeMs: number;
  seed?: number;
  log?: (m: string) => void;
}

export interface OpenLoopReport {
  idle: { p50: number; p95: number };
  rates: { rate: number; sent: number; answered: number; errors: number; p50: number; p95: number; max: number; ratioP95: number }[];
  /** The highest rate up to which every rate's p95 stays within 3 x the idle p95 (0 when none does). */
  highestRateWithin3x: number;
}

/**
 * Load as editors make it: requests arrive at a fixed mean rate (Poisson: exponential gaps,
 * whether or not earlier ones have been answered), from cursors in several open documents, while
 * a writer types into one of them a character at a time.
 */
export async function runOpenLoop(o: OpenLoopOptions): Promise<OpenLoopReport> {
  const log = o.log ?? (() => {});
  return onAcmeCopy('needle-openloop-', o.seed ?? 5, (all) => all.slice(0, Math.max(2, o.documents)), async ({ files: docs, targets, s, c, rand, ask }) => {
    const texts = new Map<string, { text: string; version: number }>();
    for (const f of docs) {
      const uri = pathToFileURL(f).toString();
      const text = readFileSync(f, 'utf8');
      texts.set(uri, { text, version: 1 });
      await c.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'java', version: 1, text } });
    }
    await s.waitReady();
    const idle = await oneAtATime(ask, rand, targets, o.idleRequests);
    const idleP95 = percentile(idle, 95);
    log(`idle: ${idle.length} requests, p50 ${Math.round(percentile(idle, 50))} ms, p95 ${Math.round(idleP95)} ms`);
    // The writer: a new method typed at the end of the first document, one keystroke at a time.
    const typed = pathToFileURL(docs[0]).toString();
    const doc = texts.get(typed)!;
    const close = doc.text.lastIndexOf('}');
    const head = doc.text.slice(0, close), tail = doc.text.slice(close);
    const method = '    int typed(int x) {\n        int y = x * 2;\n        if (y > 10) {\n            return y - 1;\n        }\n        return y;\n    }\n';
    const rates: OpenLoopReport['rates'] = [];
    for (const rate of o.rates) {
      const lat: number[] = [];
      let errors = 0, sent = 0;
      const inflight: Promise<void>[] = [];
      const end = performance.now() + o.secondsPerRate * 1000;
      let typing = true;
      const writer = (async () => {
        let k = 0;
        while (typing) {
          k = (k % method.length) + 1;
          doc.version++;
          doc.text = head + method.slice(0, k) + tail;
          await c.sendNotification('textDocument/didChange', { textDocument: { uri: typed, version: doc.version }, contentChanges: [{ text: doc.text }] });
          await sleep(o.keystrokeMs);
        }
      })();
      // Arrivals on a fixed schedule: each request is sent at its time, answered or not.
      let next = performance.now();
      while (next < end) {
        next += (-Math.log(1 - rand()) / rate) * 1000;
        const wait = next - performance.now();
        if (wait > 0) await sleep(wait);
        const t0 = performance.now();
        sent++;
        inflight.push(ask(choose(rand, targets)).then(() => { lat.push(performance.now() - t0); }, () => { errors++; }));
      }
      await Promise.all(inflight);
      typing = false;
      await writer;
      const p95 = percentile(lat, 95);
      rates.push({ rate, sent, answered: lat.length, errors, p50: Math.round(percentile(lat, 50)), p95: Math.round(p95), max: Math.round(Math.max(...lat)), ratioP95: Math.round((p95 / idleP95) * 100) / 100 });
      log(`rate ${rate}/s: ${sent} sent, ${lat.length} answered, p50 ${Math.round(percentile(lat, 50))} ms, p95 ${Math.round(p95)} ms (${(p95 / idleP95).toFixed(2)} x idle)`);
    }
    // Up to the first rate that breaks the bound: beyond it the server is saturated.
    let highest = 0;
    for (const r of [...rates].sort((x, y) => x.rate - y.rate)) { if (r.ratioP95 > 3) break; highest = r.rate; }
    return { idle: { p50: Math.round(percentile(idle, 50)), p95: Math.round(idleP95) }, rates, highestRateWithin3x: highest };
  });
}

export interface BackgroundLoadOptions { files: number; requests: number; seed?: number; log?: (m: string) => void }

export interface BackgroundLoadReport {
  idle: { p50: number; p95: number };
  loaded: { p50: number; p95: number; max: number };
  ratioP95: number;
  /** Code lenses resolved while the user's requests ran (the background load). */
  lensesResolved: number;
}

/**
 * A user's retrievals while the editor keeps the server busy with background work: `files`
 * documents open, their diagnostics passes running and every code lens of each resolved over and
 * over. Reports the user's latency against the same requests on an idle server.
 */
export async function runBackgroundLoad(o: BackgroundLoadOptions): Promise<BackgroundLoadReport> {
  return onAcmeCopy('needle-lenses-', o.seed ?? 7, (all) => all.slice(0, o.files), async ({ files, targets, c, rand, ask }) => {
    const timed = (n: number) => oneAtATime(ask, rand, targets, n, 50);
    const idle = await timed(o.requests);
    let stop = false, resolved = 0;
    const uris = files.map((f) => pathToFileURL(f).toString());
    for (const [i, uri] of uris.entries()) await c.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'java', version: 1, text: readFileSync(files[i], 'utf8') } });
    const lensClient = async (uri: string) => {
      while (!stop) {
        const lenses = await c.sendRequest<{ data: unknown; range: unknown }[]>('textDocument/codeLens', { textDocument: { uri } });
        for (const l of lenses) {
          if (stop) return;
          await c.sendRequest('codeLens/resolve', l).then(() => { resolved++; }, () => undefined);
        }
      }
    };
    const background = uris.map(lensClient);
    await sleep(1000); // the diagnostics passes start after their debounce
    const loaded = await timed(o.requests);
    stop = true;
    await Promise.all(background);
    const idleP95 = percentile(idle, 95);
    o.log?.(`idle p95 ${Math.round(idleP95)} ms; with ${o.files} files' lenses and diagnostics p95 ${Math.round(percentile(loaded, 95))} ms; ${resolved} lenses resolved meanwhile`);
    return {
      idle: { p50: Math.round(percentile(idle, 50)), p95: Math.round(idleP95) },
      loaded: { p50: Math.round(percentile(loaded, 50)), p95: Math.round(percentile(loaded, 95)), max: Math.round(Math.max(...loaded)) },
      ratioP95: Math.round((percentile(loaded, 95) / idleP95) * 100) / 100,
      lensesResolved: resolved,
    };
  });
}
