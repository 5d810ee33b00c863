// A small pool of worker threads for cold indexing. Without the worker bundle (some test
// setups) it parses in the main thread, with identical results.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { parsePath, type ParseOutcome } from './parseFile';
import { decodeOutcomes } from './transferCodec';
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
  const count = Math.max(1, Math.min(options.workers ?? DEFAULT_WORKERS, Math.ceil(jobs.length / BATCH)));
  let next = 0;
  const waitWhilePaused = async () => { while (options.shouldPause?.()) await new Promise((r) => setTimeout(r, 100)); };

  if (!script || jobs.length < BATCH) {
    for (let i = 0; i < jobs.length; i++) {
      await waitWhilePaused();
      results[i] = await parsePath(jobs[i].path, jobs[i].text, jobs[i].hash);
      options.onResult?.(results[i]);
    }
    return results;
  }

  const runWorker = (): Promise<void> => new Promise((resolve, reject) => {
    const worker = new Worker(script, { resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB } });
    /** Batch id -> index of its first job. */
    const inFlight = new Map<number, number>();
    let id = 0;
    let finished = false;
    const send = async () => {
      await waitWhilePaused();
      if (finished) return;
      if (next >= jobs.length) {
        if (!inFlight.size) { finished = true; worker.terminate().then(() => resolve(), reject); }
        return;
      }
      const start = next;
      const end = Math.min(jobs.length, start + BATCH);
      next = end;
      inFlight.set(++id, start);
      const req: WorkerRequest = { id, jobs: jobs.slice(start, end), derive: options.derive };
      worker.postMessage(req);
    };
    worker.on('message', (msg: WorkerReply) => {
      const at = inFlight.get(msg.id);
      if (at === undefined) return;
      inFlight.delete(msg.id);
      const t = performance.now();
      const outcomes = decodeOutcomes(msg.outcomes);
      if (options.timing) options.timing.decodeMs += performance.now() - t;
      outcomes.forEach((r, i) => { results[at + i] = r; options.onResult?.(r, msg.derived?.[i]); });
      void send();
    });
    // A crashed worker loses nothing: its unfinished batches are parsed in this thread below.
    worker.on('error', () => { finished = true; resolve(); });
    // Two batches in flight, so a worker starts the next one while this thread takes in the last.
    void send();
    void send();
  });
  await Promise.all(Array.from({ length: count }, runWorker));
  // Anything a crashed worker did not finish is parsed here.
  for (let i = 0; i < jobs.length; i++) {
    if (!results[i]) { results[i] = await parsePath(jobs[i].path, jobs[i].text, jobs[i].hash); options.onResult?.(results[i]); }
  }
  return results;
}
