// A small pool of worker threads for cold indexing (parse jobs), and for deriving from files a
// warm cache gave (derive-only jobs). Without the worker bundle (some test
// setups) it parses in the main thread, with identical results.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { parsePath, type ParseOutcome } from './parseFile';
import type { FileFacts } from '../java/facts';
import { decodeOutcomes, encodeOutcomes, transferables } from './transferCodec';
import type { Derivation, WorkerJob, WorkerReply, WorkerRequest } from './worker';

/** Two workers: the machines we target have two cores, and the main thread resolves meanwhile. */
export const DEFAULT_WORKERS = 2;
const BATCH = 16;
/**
 * A worker's young generation (V8's default is 48 MB): a batch's facts stay alive until the batch
 * is encoded, so with the default they survived scavenges and were copied and promoted. Measured on
 * java.base (index.bench.js cold, two interleaved pairs): 96 MB cut the parse phase's CPU by 12 %
 * (18.0/17.8 → 15.7/15.6 s) for 60–90 MB more peak RSS while the workers live (they end with the parse).
 */
const WORKER_YOUNG_GENERATION_MB = 96;

function workerScript(): string | undefined {
  // Beside this bundle (dist/), one or two folders above it (dist/bench/, dist/test/<area>/), or from the repository root.
  for (const c of [join(__dirname, 'worker.js'), join(__dirname, '..', 'worker.js'), join(__dirname, '..', '..', 'worker.js'), join(__dirname, '..', '..', 'dist', 'worker.js')]) {
    if (existsSync(c)) return c;
  }
  return undefined;
}

export async function parseAll(jobs: WorkerJob[], options: {
  workers?: number;
  /** `derived`: what the worker derived from the file (options.derive), when a worker parsed it. */
  onResult?: (r: ParseOutcome, derived?: unknown) => void;
  shouldPause?: () => boolean;
  /** A derivation the workers run on each file they parse (worker.ts); the main thread never does. */
  derive?: Derivation;
  /** Adds the main thread's time decoding the workers' replies, in ms. */
  timing?: { decodeMs: number };
} = {}): Promise<ParseOutcome[]> {
  const results: ParseOutcome[] = new Array(jobs.length);
  const script = workerScript();
  const waitWhilePaused = async () => { while (options.shouldPause?.()) await new Promise((r) => setTimeout(r, 100)); };

  if (!script || jobs.length < BATCH) {
    for (let i = 0; i < jobs.length; i++) {
      await waitWhilePaused();
      results[i] = await parsePath(jobs[i].path, jobs[i].text, jobs[i].hash);
      options.onResult?.(results[i]);
    }
    return results;
  }

  await onWorkers(script, jobs.length, options.workers, waitWhilePaused, (id, start, end) => ({ request: { id, jobs: jobs.slice(start, end), derive: options.derive } }), (at, msg) => {
    const t = performance.now();
    const outcomes = decodeOutcomes(msg.outcomes!);
    if (options.timing) options.timing.decodeMs += performance.now() - t;
    outcomes.forEach((r, i) => { results[at + i] = r; options.onResult?.(r, msg.derived?.[i]); });
  });
  // Anything a crashed worker did not finish is parsed here.
  for (let i = 0; i < jobs.length; i++) {
    if (!results[i]) { results[i] = await parsePath(jobs[i].path, jobs[i].text, jobs[i].hash); options.onResult?.(results[i]); }
  }
  return results;
}

/** A file whose facts are known (a warm index cache gave them): what a derive-only job needs. */
export interface KnownFile { path: string; hash: string; facts: FileFacts }

/**
 * Runs `derive` in worker threads on files that are not parsed again: each worker reads the file,
 * and derives from it only if its text still has `hash` (the facts are the text's). `onDerived` gets
 * each result; files without one (no worker bundle, too few files to start a worker for, a text
 * that changed, a worker that crashed or failed) are left to the caller, which derives them itself.
 */
export async function deriveAll(files: readonly KnownFile[], derive: Derivation, options: {
  workers?: number;
  onDerived: (path: string, derived: unknown) => void;
  shouldPause?: () => boolean;
}): Promise<void> {
  const script = workerScript();
  if (!script || files.length < BATCH) return;
  const waitWhilePaused = async () => { while (options.shouldPause?.()) await new Promise((r) => setTimeout(r, 100)); };
  await onWorkers(script, files.length, options.workers, waitWhilePaused, (id, start, end) => {
    // The facts travel in the transfer encoding, without reference sites (no derivation reads them).
    const known = encodeOutcomes(files.slice(start, end).map((f) => ({ path: f.path, ok: true, hash: f.hash, facts: f.facts })), false);
    return { request: { id, jobs: [], derive, known }, transfer: transferables(known) };
  }, (at, msg) => {
    msg.derived?.forEach((d, i) => { if (d !== undefined) options.onDerived(files[at + i].path, d); });
  });
}

/**
 * Sends jobs [0, total) in batches of BATCH to up to `workers` worker threads (two batches in flight
 * each, so a worker starts the next one while this thread takes in the last), and hands each reply
 * to `take` with its batch's first job. A crashed worker's unfinished batches get no reply.
 */
async function onWorkers(script: string, total: number, workers: number | undefined, waitWhilePaused: () => Promise<void>,
  request: (id: number, start: number, end: number) => { request: WorkerRequest; transfer?: ArrayBuffer[] },
  take: (at: number, reply: WorkerReply) => void): Promise<void> {
  const count = Math.max(1, Math.min(workers ?? DEFAULT_WORKERS, Math.ceil(total / BATCH)));
  let next = 0;
  const runWorker = (): Promise<void> => new Promise((resolve, reject) => {
    const worker = new Worker(script, { resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB } });
    /** Batch id -> index of its first job. */
    const inFlight = new Map<number, number>();
    let id = 0;
    let finished = false;
    const send = async () => {
      await waitWhilePaused();
      if (finished) return;
      if (next >= total) {
        if (!inFlight.size) { finished = true; worker.terminate().then(() => resolve(), reject); }
        return;
      }
      const start = next;
      const end = Math.min(total, start + BATCH);
      next = end;
      inFlight.set(++id, start);
      const r = request(id, start, end);
      worker.postMessage(r.request, r.transfer);
    };
    worker.on('message', (msg: WorkerReply) => {
      const at = inFlight.get(msg.id);
      if (at === undefined) return;
      inFlight.delete(msg.id);
      take(at, msg);
      void send();
    });
    // A crashed worker loses nothing: its unfinished batches are the caller's to redo.
    worker.on('error', () => { finished = true; resolve(); });
    void send();
    void send();
  });
  await Promise.all(Array.from({ length: count }, runWorker));
}
