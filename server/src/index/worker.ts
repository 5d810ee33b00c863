// Worker thread entry (dist/worker.js): parses and extracts batches of files off the main thread,
// and, when the request names a derivation, derives more from each parsed file's text and facts.

import { parentPort } from 'node:worker_threads';
import { javaTextRows } from '../org/facts';
import type { EncodedFiles } from './cacheCodec';
import { hashText } from './files';
import { parseSource } from './parseFile';
import { encodeOutcomes, transferables } from './transferCodec';

/**
 * What a worker can derive from a file it parsed. 'org-publish': the rows of the organisation
 * index that the text and facts alone decide (org/facts.ts javaTextRows), so publishing spreads
 * vetting and chunking over the workers instead of doing it after the index in one thread.
 */
export type Derivation = 'org-publish';

export interface WorkerJob { path: string; text?: string; hash?: string }
export interface WorkerRequest { id: number; jobs: WorkerJob[]; derive?: Derivation }
/** `outcomes` holds the batch's ParseOutcome[], encoded; `derived` (structured-cloned) what the request's derivation gave each, in order. */
export interface WorkerReply { id: number; outcomes: EncodedFiles; derived?: unknown[] }

// Batches run one after the other (the pool keeps the next one queued here, so no waiting).
let queue = Promise.resolve();
parentPort?.on('message', (msg: WorkerRequest) => { queue = queue.then(() => runBatch(msg)); });

async function runBatch(msg: WorkerRequest): Promise<void> {
  const results = [];
  const derived: unknown[] = [];
  for (const job of msg.jobs) {
    const { outcome, text } = await parseSource(job.path, job.text, job.hash);
    results.push(outcome);
    if (msg.derive) derived.push(outcome.ok && text !== undefined ? derive(msg.derive, outcome.path, text, outcome.hash || hashText(text), outcome.facts) : undefined);
  }
  // Encoded, with the typed arrays transferred: cheaper than JSON text or a structured clone of the facts.
  const reply: WorkerReply = { id: msg.id, outcomes: encodeOutcomes(results), derived: msg.derive ? derived : undefined };
  parentPort?.postMessage(reply, transferables(reply.outcomes));
}

function derive(kind: Derivation, path: string, text: string, hash: string, facts: Parameters<typeof javaTextRows>[3]): unknown {
  try {
    if (kind === 'org-publish') return javaTextRows(path, text, hash, facts);
  } catch {
    // The main thread derives it again and meets the same error there, where it is reported.
  }
  return undefined;
}
