// The on-disk cache of extracted facts, one file per workspace folder, keyed by each file's
// content hash and the indexer's version. A cache that fails any check is discarded and
// rebuilt, never trusted; a cache that cannot be written (full disk, read-only) is only logged.

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync, unlinkSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { FileFacts } from '../java/facts';
import type { FileResolution } from '../java/resolve';

const MAGIC = 'needle-index-cache';

/** A file's facts and, when the snapshot was consistent, its resolution (edges) too. */
export interface CachedFile { hash: string; facts: FileFacts; resolution?: FileResolution }

export function defaultCacheDir(): string {
  return process.env.NEEDLE_CACHE_DIR ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'needle');
}

export function cacheFileFor(cacheDir: string, root: string): string {
  return join(cacheDir, createHash('sha1').update(root).digest('hex').slice(0, 16) + '.v8');
}

export function loadCache(cacheDir: string, root: string, version: string): { files: Map<string, CachedFile>; problem?: string } {
  const file = cacheFileFor(cacheDir, root);
  if (!existsSync(file)) return { files: new Map() };
  try {
    const data = deserialize(readFileSync(file)) as { magic: string; version: string; root: string; files: [string, CachedFile][] };
    if (data?.magic !== MAGIC) return { files: new Map(), problem: 'cache has no valid header; rebuilding' };
    if (data.version !== version) return { files: new Map(), problem: 'cache from another indexer version; rebuilding' };
    if (data.root !== root || !Array.isArray(data.files)) return { files: new Map(), problem: 'cache belongs to another folder; rebuilding' };
    const files = new Map<string, CachedFile>();
    for (const [path, entry] of data.files) {
      if (typeof path !== 'string' || typeof entry?.hash !== 'string' || !Array.isArray(entry.facts?.symbols) || !Array.isArray(entry.facts?.refs)
        || (entry.resolution !== undefined && (!Array.isArray(entry.resolution.edges) || !Array.isArray(entry.resolution.consulted) || !Array.isArray(entry.resolution.unresolved)))) {
        return { files: new Map(), problem: 'cache entry malformed; rebuilding' };
      }
      files.set(path, entry);
    }
    return { files };
  } catch (e) {
    return { files: new Map(), problem: `cache unreadable (${(e as Error).message}); rebuilding` };
  }
}

/** Writes atomically (temp file + rename), so a crash mid-write leaves the old cache or none. */
export function saveCache(cacheDir: string, root: string, version: string, files: Map<string, CachedFile>): string | undefined {
  const file = cacheFileFor(cacheDir, root);
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(cacheDir, { recursive: true });
    const entries = [...files.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1));
    writeFileSync(tmp, serialize({ magic: MAGIC, version, root, files: entries }));
    renameSync(tmp, file);
    return undefined;
  } catch (e) {
    try { unlinkSync(tmp); } catch { /* nothing to clean */ }
    return `could not save the index cache: ${(e as Error).message}`;
  }
}
