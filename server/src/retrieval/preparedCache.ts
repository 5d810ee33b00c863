// Retrieval's prepared structures saved beside the index cache, so that a warm start loads them
// instead of rebuilding them (issue 16 §1). Only what measured expensive to rebuild and cheap to
// validate is saved: the words of each file (word -> files; java.base: ~3 s of a warm start's
// preparing, nearly all of it reading and scanning 54 MB of text). Each file's words are kept with
// the content hash of the text they came from, and a warm start takes them only for a file whose
// indexed hash is the same; every other file is read as on a first build, so the structure is
// the one a fresh build makes. The file uses the index cache's framing (persist.ts: checksummed,
// written atomically); a file from another indexer version or word definition, or one that fails
// any check, is ignored and rewritten.

import { createHash } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { checksum, CorruptCache, Reader, Writer } from '../index/cacheCodec';
import { cacheFileFor, readFramed, writeFramed } from '../index/persist';
import { WORD_DEFINITION, type FileWords } from './recall/wordFiles';

/** Where a workspace's saved words live: beside its first folder's index cache, keyed by all its folders. */
export function wordsFileFor(cacheDir: string, folders: readonly string[]): string {
  return cacheFileFor(cacheDir, folders.join('\0')).replace(/\.cache$/, '.words');
}

function versionOf(indexerVersion: string): string {
  return createHash('sha1').update(`${indexerVersion}\0${WORD_DEFINITION}`).digest('hex');
}

/** The saved words, or none and why (nothing when there is no file yet). */
export function loadWords(file: string, indexerVersion: string, folders: readonly string[]): { words: Map<string, FileWords>; problem?: string } {
  const r = readFramed(file, versionOf(indexerVersion), folders.join('\0'));
  if (!r.encoded) return { words: new Map(), problem: r.problem && `saved words: ${r.problem}; rebuilding` };
  try {
    const e = r.encoded;
    if (checksum(e.ints) !== e.check || checksum(e.offsets) !== e.stringsCheck) throw new CorruptCache('checksum mismatch');
    const reader = new Reader(e);
    const words = new Map<string, FileWords>();
    const n = reader.count();
    for (let i = 0; i < n; i++) {
      const path = reader.str();
      words.set(path, { hash: reader.str(), words: reader.strs() });
    }
    if (!reader.done) throw new CorruptCache('trailing data');
    return { words };
  } catch (e) {
    return { words: new Map(), problem: `saved words malformed (${(e as Error).message}); rebuilding` };
  }
}

/** Saves the words atomically; returns a problem to log, or undefined. */
export function saveWords(file: string, indexerVersion: string, folders: readonly string[], words: ReadonlyMap<string, FileWords>): string | undefined {
  try {
    const w = new Writer();
    w.list([...words.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)), ([path, f]) => { w.str(path); w.str(f.hash); w.strs(f.words); });
    mkdirSync(dirname(file), { recursive: true });
    writeFramed(file, versionOf(indexerVersion), folders.join('\0'), w.finish());
    return undefined;
  } catch (e) {
    rmSync(file, { force: true }); // an old file would only be checked and discarded again
    return `could not save the prepared words: ${(e as Error).message}`;
  }
}

/** Whether `now` differs from what was loaded (then it is worth saving). */
export function wordsChanged(loaded: ReadonlyMap<string, FileWords>, now: ReadonlyMap<string, FileWords>): boolean {
  if (loaded.size !== now.size) return true;
  for (const [path, f] of now) if (loaded.get(path)?.hash !== f.hash) return true;
  return false;
}
