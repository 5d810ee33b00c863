// Worker thread entry (dist/worker.js): parses and extracts batches of files off the main thread,
// and, when the request names a derivation, derives more from each parsed file's text and facts;
// or, for files whose facts a warm cache gave (a derive-only request), reads each file and derives
// from its text and the facts sent.

import { parentPort } from 'node:worker_threads';
import { javaTextRows } from '../org/facts';
import type { EncodedFiles } from './cacheCodec';
import { hashText, readSourceFile } from './files';
import { parseSource } from './parseFile';
import { decodeOutcomes, encodeOutcomes, transferables } from './transferCodec';

/**
 * What a worker can derive from a file it parsed. 'org-publish': the rows of the organisation
 * index that the text and facts alone decide (org/facts.ts javaTextRows), so publishing spreads
 * vetting and chunking over the workers instead of doing it after the index in one thread.
 */
export type Derivation = 'org-publish';

export interface WorkerJob { path: string; text?: string; hash?: string }
/**
 * `jobs` to parse; or, with `known` (ParseOutcome[] encoded without reference sites: the files'
 * paths, hashes and facts), nothing to parse: the files are only read and derived from.
 */
export interface WorkerRequest { id: number; jobs: WorkerJob[]; derive?: Derivation; known?: EncodedFiles }
/**
 * `outcomes` holds the batch's ParseOutcome[], encoded (absent for a derive-only request); `derived`
 * (structured-cloned) what the request's derivation gave each file, in order (undefined: nothing).
 */
export interface WorkerReply { id: number; outcomes?: EncodedFiles; derived?: unknown[] }

// Batches run one after the other (the pool keeps the next one queued here, so no waiting).
let queue = Promise.resolve();
parentPort?.on('message', (msg: WorkerRequest) => { queue = queue.then(() => (msg.known ? deriveBatch(msg, msg.known) : runBatch(msg))); });

async function runBatch(msg: WorkerRequest): Promise<void> {
  const results = [];
  const derived: unknown[] = [];
  for (const job of msg.jobs) {
    const { outcome, text } = await parseSource(job.path, job.text, job.hash);
    results.push(outcome);
    if (msg.derive) derived.push(outcome.ok && text !== undefined ? derive(msg.derive, outcome.path, text, outcome.hash || hashText(text), outcome.facts) : undefined);
  }
  // Encoded, with the typed arrays transferred: cheaper than JSON text or a structured clone of the facts.
  const outcomes = encodeOutcomes(results);
  const reply: WorkerReply = { id: msg.id, outcomes, derived: msg.derive ? derived : undefined };
  parentPort?.postMessage(reply, transferables(outcomes));
}

/** A derive-only batch: each file is read again, and derived from only if its text is the one its facts came from. */
function deriveBatch(msg: WorkerRequest, known: EncodedFiles): void {
  const derived = decodeOutcomes(known, false).map((f) => {
    if (!f.ok || !msg.derive) return undefined;
    const r = readSourceFile(f.path);
    return r.ok && r.hash === f.hash ? derive(msg.derive, f.path, r.text, f.hash, f.facts) : undefined;
  });
  const reply: WorkerReply = { id: msg.id, derived };
  parentPort?.postMessage(reply);
}

function derive(kind: Derivation, path: string, text: string, hash: string, facts: Parameters<typeof javaTextRows>[3]): unknown {
  try {
    if (kind === 'org-publish') return javaTextRows(path, text, hash, facts);
  } catch {
    // The main thread derives it again and meets the same error there, where it is reported.
  }
  return undefined;
}
