// Worker thread entry (dist/worker.js): parses and extracts batches of files off the main thread.

import { parentPort } from 'node:worker_threads';
import type { EncodedFiles } from './cacheCodec';
import { parsePath } from './parseFile';
import { encodeOutcomes, transferables } from './transferCodec';

export interface WorkerJob { path: string; text?: string; hash?: string }
export interface WorkerRequest { id: number; jobs: WorkerJob[] }
/** `outcomes` holds the batch's ParseOutcome[], encoded. */
export interface WorkerReply { id: number; outcomes: EncodedFiles }

// Batches run one after the other (the pool keeps the next one queued here, so no waiting).
let queue = Promise.resolve();
parentPort?.on('message', (msg: WorkerRequest) => { queue = queue.then(() => runBatch(msg)); });

async function runBatch(msg: WorkerRequest): Promise<void> {
  const results = [];
  for (const job of msg.jobs) results.push(await parsePath(job.path, job.text, job.hash));
  // Encoded, with the typed arrays transferred: cheaper than JSON text or a structured clone of the facts.
  const reply: WorkerReply = { id: msg.id, outcomes: encodeOutcomes(results) };
  parentPort?.postMessage(reply, transferables(reply.outcomes));
}
