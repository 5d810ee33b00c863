// One file's text -> its facts. Runs in worker threads during cold indexing and in the main
// thread for single-file updates, so both paths produce identical facts.

import { extractFacts } from '../java/extract';
import type { FileFacts } from '../java/facts';
import { parseJava } from '../java/parser';
import { readSourceFile } from './files';

export type ParseOutcome =
  | { path: string; ok: true; hash: string; facts: FileFacts }
  | { path: string; ok: false; reason: string };

export async function factsOfText(text: string): Promise<FileFacts> {
  const tree = await parseJava(text);
  try {
    return extractFacts(tree);
  } finally {
    tree.delete(); // wasm memory is not garbage-collected
  }
}

/** Reads (unless text is given) and extracts; never throws: failures come back with a reason. */
export async function parsePath(path: string, text?: string, hash?: string): Promise<ParseOutcome> {
  let source = text;
  let digest = hash;
  if (source === undefined) {
    const r = readSourceFile(path);
    if (!r.ok) return { path, ok: false, reason: r.reason };
    source = r.text;
    digest = r.hash;
  }
  try {
    const facts = await factsOfText(source);
    return { path, ok: true, hash: digest ?? '', facts };
  } catch (e) {
    return { path, ok: false, reason: `parser failure: ${(e as Error).message}` };
  }
}
