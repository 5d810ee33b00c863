// The on-disk cache of extracted facts and edges, one file per workspace folder, keyed by each
// file's content hash and the indexer's version (encoding: cacheCodec.ts). A cache that fails
// any check is discarded and rebuilt, never trusted; a cache that cannot be written (full disk,
// read-only) is only logged.

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync, unlinkSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { CorruptCache, decodeFiles, encodeFiles, type CachedFile, type EncodedFiles } from './cacheCodec';

const MAGIC = 'needle-index-cache-2';

export type { CachedFile } from './cacheCodec';

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
    const data = deserialize(readFileSync(file)) as { magic: string; version: string; root: string; encoded: EncodedFiles };
    if (data?.magic !== MAGIC) return { files: new Map(), problem: 'cache has no valid header; rebuilding' };
    if (data.version !== version) return { files: new Map(), problem: 'cache from another indexer version; rebuilding' };
    if (data.root !== root || typeof data.encoded !== 'object' || !data.encoded) return { files: new Map(), problem: 'cache belongs to another folder; rebuilding' };
    return { files: decodeFiles(data.encoded) };
  } catch (e) {
    if (e instanceof CorruptCache) return { files: new Map(), problem: `cache entry malformed (${e.message}); rebuilding` };
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
    writeFileSync(tmp, serialize({ magic: MAGIC, version, root, encoded: encodeFiles(entries) }));
    renameSync(tmp, file);
    return undefined;
  } catch (e) {
    try { unlinkSync(tmp); } catch { /* nothing to clean */ }
    return `could not save the index cache: ${(e as Error).message}`;
  }
}
