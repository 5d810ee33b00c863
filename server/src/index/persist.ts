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
interface StoredFile { hash: string; facts: FileFacts; resolution?: PackedResolution }

/**
 * Edges are stored packed: a per-file string table and one Int32Array of
 * [from, to, kind, line, col] rows. v8 serialization of typed arrays is a memcpy, while ~400k
 * small edge objects with repeated id strings made a java.base cache 3× larger and slower to load.
 */
interface PackedResolution { strings: string[]; rows: Int32Array; unresolved: FileResolution['unresolved']; external: number; consulted: string[] }

function packResolution(r: FileResolution): PackedResolution {
  const strings: string[] = [];
  const index = new Map<string, number>();
  const id = (s: string) => { let i = index.get(s); if (i === undefined) { i = strings.length; strings.push(s); index.set(s, i); } return i; };
  const rows = new Int32Array(r.edges.length * 5);
  r.edges.forEach((e, i) => { rows.set([id(e.from), id(e.to), id(e.kind), e.line, e.col], i * 5); });
  return { strings, rows, unresolved: r.unresolved, external: r.external, consulted: r.consulted };
}

function unpackResolution(p: PackedResolution): FileResolution {
  const edges: FileResolution['edges'] = [];
  for (let i = 0; i < p.rows.length; i += 5) {
    edges.push({ from: p.strings[p.rows[i]], to: p.strings[p.rows[i + 1]], kind: p.strings[p.rows[i + 2]] as FileResolution['edges'][number]['kind'], line: p.rows[i + 3], col: p.rows[i + 4] });
  }
  return { edges, unresolved: p.unresolved, external: p.external, consulted: p.consulted };
}

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
    const data = deserialize(readFileSync(file)) as { magic: string; version: string; root: string; files: [string, StoredFile][] };
    if (data?.magic !== MAGIC) return { files: new Map(), problem: 'cache has no valid header; rebuilding' };
    if (data.version !== version) return { files: new Map(), problem: 'cache from another indexer version; rebuilding' };
    if (data.root !== root || !Array.isArray(data.files)) return { files: new Map(), problem: 'cache belongs to another folder; rebuilding' };
    const files = new Map<string, CachedFile>();
    for (const [path, entry] of data.files) {
      const r = entry?.resolution;
      if (typeof path !== 'string' || typeof entry?.hash !== 'string' || !Array.isArray(entry.facts?.symbols) || !Array.isArray(entry.facts?.refs)
        || (r !== undefined && (!(r.rows instanceof Int32Array) || r.rows.length % 5 !== 0 || !Array.isArray(r.strings) || !Array.isArray(r.consulted) || !Array.isArray(r.unresolved)
          || r.rows.some((v, i) => (i % 5 < 3 ? v < 0 || v >= r.strings.length : false))))) {
        return { files: new Map(), problem: 'cache entry malformed; rebuilding' };
      }
      files.set(path, { hash: entry.hash, facts: entry.facts, resolution: r && unpackResolution(r) });
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
    const entries: [string, StoredFile][] = [...files.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))
      .map(([p, e]) => [p, { hash: e.hash, facts: e.facts, resolution: e.resolution && packResolution(e.resolution) }]);
    writeFileSync(tmp, serialize({ magic: MAGIC, version, root, files: entries }));
    renameSync(tmp, file);
    return undefined;
  } catch (e) {
    try { unlinkSync(tmp); } catch { /* nothing to clean */ }
    return `could not save the index cache: ${(e as Error).message}`;
  }
}
