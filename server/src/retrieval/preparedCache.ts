// Retrieval's prepared structures saved beside the index cache, so that a warm start loads them
// instead of rebuilding them (issue 16 §1). Saved are the per-file shares of the three structures
// whose rebuild is mostly reading, scanning or tokenizing text: each file's words (word -> files),
// each file's similar-code chunks with their counted terms (java.base: 54 MB read for these two),
// and the tokens of each file's declaration descriptions (the description index). Each share is kept
// with the content hash of the text it came from, and a warm start takes it only for a file whose
// indexed hash is the same; every other file is read as on a first build, so the structure is
// the one a fresh build makes. The files use the index cache's framing (persist.ts: a digest of
// every byte, written atomically); one from other code (the hash of every source that derives
// them, set by the build), other folders, or that fails any check is ignored and rewritten.

import { mkdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { CorruptCache, Reader, verifiedReader, Writer } from '../index/cacheCodec';
import { cacheFileFor, readFramed, writeFramed } from '../index/persist';
import type { FileWords } from './recall/wordFiles';
import type { SavedChunks } from './recall/similar';
import type { SavedDescriptions } from './recall/descriptions';
import { FIELDS } from './recall/descriptionTable';

declare const __NEEDLE_PREPARED_VERSION__: string | undefined;

/** A hash of the sources that derive the saved structures, set by the build. */
export function preparedVersion(): string {
  return typeof __NEEDLE_PREPARED_VERSION__ === 'string' ? __NEEDLE_PREPARED_VERSION__ : 'dev';
}

/** One kind of saved share: its file's suffix and its encoding. */
export interface SavedKind<V extends { hash: string }> {
  name: string;
  suffix: string;
  write: (w: Writer, v: V) => void;
  read: (r: Reader) => V;
}

export const SAVED_WORDS: SavedKind<FileWords> = {
  name: 'saved words', suffix: '.words',
  write: (w, v) => { w.str(v.hash); w.strs(v.words); },
  read: (r) => ({ hash: r.str(), words: r.strs() }),
};

export const SAVED_CHUNKS: SavedKind<SavedChunks> = {
  name: 'saved similar-code chunks', suffix: '.chunks',
  write: (w, v) => {
    w.str(v.hash);
    w.list(v.chunks, (c) => { w.int(c.startLine); w.int(c.endLine); w.str(c.kind); w.optStr(c.symbol); });
    w.list(v.terms, (ts) => w.list(ts, ([t, n]) => { w.str(t); w.int(n); }));
  },
  read: (r) => {
    const hash = r.str();
    const chunks = r.list(() => {
      const c: SavedChunks['chunks'][number] = { startLine: r.int(), endLine: r.int(), kind: r.str() };
      const symbol = r.optStr(); if (symbol !== undefined) c.symbol = symbol;
      return c;
    });
    const terms = r.list(() => r.list((): [string, number] => [r.str(), r.int()]));
    if (terms.length !== chunks.length) throw new CorruptCache('terms do not match chunks');
    return { hash, chunks, terms };
  },
};

export const SAVED_DESCRIPTIONS: SavedKind<SavedDescriptions> = {
  name: 'saved descriptions', suffix: '.descriptions',
  write: (w, v) => { w.str(v.hash); w.list(v.counts, (n) => w.int(n)); w.strs(v.tokens); },
  read: (r) => {
    const v = { hash: r.str(), counts: r.list(() => r.int()), tokens: r.strs() };
    if (v.counts.length % FIELDS.length || v.counts.some((n) => n < 0) || v.counts.reduce((a, n) => a + n, 0) !== v.tokens.length) throw new CorruptCache('token counts do not match tokens');
    return v;
  },
};

/** Where a workspace's saved shares of a kind live: beside its index cache, keyed by all its folders. */
export function savedFileFor(cacheDir: string, folders: readonly string[], kind: Pick<SavedKind<{ hash: string }>, 'suffix'>): string {
  return cacheFileFor(cacheDir, folders.join('\0')).replace(/\.cache$/, kind.suffix);
}

/** The saved shares by path, or none and why (nothing when there is no file yet). */
export function loadSaved<V extends { hash: string }>(kind: SavedKind<V>, file: string, folders: readonly string[]): { parts: Map<string, V>; problem?: string } {
  const r = readFramed(file, preparedVersion(), folders.join('\0'));
  if (!r.encoded) return { parts: new Map(), problem: r.problem && `${kind.name}: ${r.problem}; rebuilding` };
  try {
    const reader = verifiedReader(r.encoded);
    const parts = new Map<string, V>();
    const n = reader.count();
    for (let i = 0; i < n; i++) {
      const path = reader.str();
      parts.set(path, kind.read(reader));
    }
    if (!reader.done) throw new CorruptCache('trailing data');
    return { parts };
  } catch (e) {
    return { parts: new Map(), problem: `${kind.name} malformed (${(e as Error).message}); rebuilding` };
  }
}

/** Saves the shares atomically; returns a problem to log, or undefined. */
export function saveSaved<V extends { hash: string }>(kind: SavedKind<V>, file: string, folders: readonly string[], parts: ReadonlyMap<string, V>): string | undefined {
  try {
    const w = new Writer();
    w.list([...parts.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)), ([path, v]) => { w.str(path); kind.write(w, v); });
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
 * Builds a structure from the saved shares of unchanged files (`build`), then saves its shares
 * (`current`) when what was loaded is missing or stale (worthSaving); without a place, builds
 * from the index alone.
 */
export function buildWithSaved<V extends { hash: string }>(kind: SavedKind<V>, place: SavedPlace | undefined, build: (saved?: ReadonlyMap<string, V>) => void, current: () => ReadonlyMap<string, V>): void {
  if (!place || place.ignore?.includes(kind.name)) { build(); return; }
  const file = savedFileFor(place.cacheDir, place.folders, kind);
  const loaded = loadSaved(kind, file, place.folders);
  if (loaded.problem) place.log(loaded.problem);
  build(loaded.parts);
  const now = current();
  if (!worthSaving(loaded.parts, now)) return;
  const problem = saveSaved(kind, file, place.folders, now);
  if (problem) place.log(problem);
}
