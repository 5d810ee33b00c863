// Retrieval's prepared structures saved beside the index cache, so that a warm start loads them
// instead of rebuilding them (issue 16 §1). Saved are the three structures whose rebuild is mostly
// reading, scanning or tokenizing text: word -> files, the similar-code corpus and the
// description index, in their finished form (pools and tables as they are in memory, read back
// as typed-array views without adding a document: on the whole JDK the first two were 7 s and
// 13.5 s rebuilt from per-file shares, the third 3.6 s from saved tokens). Each is kept
// with the content hash of the text each file's part came from, and a warm start takes a file's
// part only when its indexed hash is the same; every other file is updated as after an edit (or
// read, for descriptions), so the structure is the one a fresh build makes. The files use the
// index cache's framing (persist.ts: a digest of every byte, written atomically); one from other
// code (the hash of every source that derives them, set by the build), other folders, or that
// fails any check is ignored and rewritten.

import { mkdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { CorruptCache, type Reader, verifiedReader, Writer } from '../index/cacheCodec';
import { cacheFileFor, readFramed, writeFramed } from '../index/persist';

declare const __NEEDLE_PREPARED_VERSION__: string | undefined;

/** A hash of the sources that derive the saved structures, set by the build. */
export function preparedVersion(): string {
  return typeof __NEEDLE_PREPARED_VERSION__ === 'string' ? __NEEDLE_PREPARED_VERSION__ : 'dev';
}

/** One saved structure: its file's suffix, its encoding, and the hash of each file's part of it. */
export interface SavedKind<S> {
  name: string;
  suffix: string;
  /** Throws when the structure cannot be saved (then the file is removed). */
  write: (w: Writer, s: S) => void;
  /** Throws on anything inconsistent (the file is then reported, ignored and rewritten). */
  read: (r: Reader) => S;
  /** Per path, the content hash its part was derived from (files whose part is of other text left out). */
  hashes: (s: S) => ReadonlyMap<string, { hash: string }>;
}

/** The hashes of the parts whose text is known (`hash` set): what a SavedKind's `hashes` gives for a map of per-file parts. */
export function knownHashes(parts: ReadonlyMap<string, { hash?: string }>): Map<string, { hash: string }> {
  const out = new Map<string, { hash: string }>();
  for (const [path, part] of parts) if (part.hash !== undefined) out.set(path, { hash: part.hash });
  return out;
}

/** Where a workspace's saved structure of a kind lives: beside its index cache, keyed by all its folders. */
export function savedFileFor(cacheDir: string, folders: readonly string[], kind: Pick<SavedKind<unknown>, 'suffix'>): string {
  return cacheFileFor(cacheDir, folders.join('\0')).replace(/\.cache$/, kind.suffix);
}

/** The saved structure, or none and why (nothing when there is no file yet). */
export function loadSaved<S>(kind: SavedKind<S>, file: string, folders: readonly string[]): { saved?: S; problem?: string } {
  const r = readFramed(file, preparedVersion(), folders.join('\0'));
  if (!r.encoded) return { problem: r.problem && `${kind.name}: ${r.problem}; rebuilding` };
  try {
    const reader = verifiedReader(r.encoded);
    const saved = kind.read(reader);
    if (!reader.done) throw new CorruptCache('trailing data');
    return { saved };
  } catch (e) {
    return { problem: `${kind.name} malformed (${(e as Error).message}); rebuilding` };
  }
}

/** Saves the structure atomically; returns a problem to log, or undefined. */
export function saveSaved<S>(kind: SavedKind<S>, file: string, folders: readonly string[], s: S): string | undefined {
  try {
    const w = new Writer();
    kind.write(w, s);
    mkdirSync(dirname(file), { recursive: true });
    writeFramed(file, preparedVersion(), folders.join('\0'), w.finish());
    return undefined;
  } catch (e) {
    rmSync(file, { force: true }); // an old file would only be checked and discarded again
    return `could not save the ${kind.name}: ${(e as Error).message}`;
  }
}

/**
 * Saving costs about as much as the scan it saves (java.base: seconds), so a file that serves
 * most files as it is stays: it is rewritten once more than this share of the current files'
 * shares are not in it as they are now (changed, new or gone). Files outside it are scanned on
 * every start until then; results never depend on it.
 */
export const STALE_SHARE = 0.1;

/** Whether what was loaded is stale enough against `now` to be worth saving again. */
export function worthSaving(loaded: ReadonlyMap<string, { hash: string }>, now: ReadonlyMap<string, { hash: string }>): boolean {
  let stale = 0;
  for (const [path, f] of now) if (loaded.get(path)?.hash !== f.hash) stale++;
  for (const path of loaded.keys()) if (!now.has(path)) stale++;
  return stale > 0 && (loaded.size === 0 || stale > STALE_SHARE * now.size);
}

/**
 * Where the saved shares are: the cache folder and the workspace's folders (what they must match).
 * `ignore`: names of kinds built as if nothing were saved, and not saved (benches: what one saved
 * file spares a start).
 */
export interface SavedPlace { cacheDir: string; folders: readonly string[]; log: (message: string) => void; ignore?: readonly string[] }

/**
 * Builds a structure from the one an earlier start saved (`build`), then saves it as it is now
 * (`current`) when what was loaded is missing or stale (worthSaving); without a place, builds
 * from the index alone.
 */
export function buildWithSaved<S>(kind: SavedKind<S>, place: SavedPlace | undefined, build: (saved?: S) => void, current: () => S): void {
  if (!place || place.ignore?.includes(kind.name)) { build(); return; }
  const file = savedFileFor(place.cacheDir, place.folders, kind);
  const loaded = loadSaved(kind, file, place.folders);
  if (loaded.problem) place.log(loaded.problem);
  // The hashes before building: a loaded structure becomes the live one, which the build updates.
  const before = loaded.saved === undefined ? new Map<string, { hash: string }>() : new Map(kind.hashes(loaded.saved));
  build(loaded.saved);
  const now = current();
  if (!worthSaving(before, kind.hashes(now))) return;
  const problem = saveSaved(kind, file, place.folders, now);
  if (problem) place.log(problem);
}
