// Worker thread entry (dist/worker.js): parses and extracts batches of files off the main thread.

import { parentPort } from 'node:worker_threads';
import { parsePath } from './parseFile';

export interface WorkerJob { path: string; text?: string; hash?: string }
export interface WorkerRequest { id: number; jobs: WorkerJob[] }

parentPort?.on('message', async (msg: WorkerRequest) => {
  const results = [];
  for (const job of msg.jobs) results.push(await parsePath(job.path, job.text, job.hash));
  parentPort?.postMessage({ id: msg.id, results });
});
