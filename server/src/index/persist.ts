// The on-disk cache of extracted facts and edges, one file per workspace folder, keyed by each
// file's content hash and the indexer's version (encoding: cacheCodec.ts). A cache that fails
// any check is discarded and rebuilt, never trusted; a cache that cannot be written (full disk,
// read-only) is only logged. Crash safety: a save writes a temporary file, flushes it to disk and
// renames it over the old cache, so a process killed at any point leaves the old cache or the new
// one, never a mix; a digest of every byte after it, kept in the file's prefix, catches truncation
// and flipped bits anywhere;
// temporary files of writers that died are removed by the next save.

import { createHash } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { CorruptCache, decodeFiles, encodeFiles, type CachedFile, type EncodedFiles } from './cacheCodec';

/** Eight bytes that open every cache file of this format. */
const MAGIC = 'NEEDLEC4';

export type { CachedFile } from './cacheCodec';

export function defaultCacheDir(): string {
  return process.env.NEEDLE_CACHE_DIR ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'needle');
}

export function cacheFileFor(cacheDir: string, root: string): string {
  return join(cacheDir, createHash('sha1').update(root).digest('hex').slice(0, 16) + '.cache');
}

/**
 * The file: 8 bytes of magic, a 4-byte header length, the 20-byte SHA-1 of everything after the
 * prefix, a JSON header (version, root, section sizes, checksums), then the raw sections: ints, string offsets, stamps, string text. Written
 * section by section and read back with one copy per section, so neither direction builds one
 * big serialized object (that was ~100 MB of peak memory at the end of a java.base cold index).
 */
interface Header {
  version: string; root: string;
  ints: number; offsets: number; floats: number;
  textBytes: number; wide: boolean; check: number; stringsCheck: number;
}

const DIGEST_AT = 12;
const PREFIX = DIGEST_AT + 20;

function align8(n: number): number {
  return (n + 7) & ~7;
}

export function loadCache(cacheDir: string, root: string, version: string): { files: Map<string, CachedFile>; problem?: string } {
  // Decoding copies out everything it keeps, so the sections may be views of the file's bytes.
  const r = readFramed(cacheFileFor(cacheDir, root), version, root, { views: true });
  if (!r.encoded) return { files: new Map(), problem: r.problem && `${r.problem}; rebuilding` };
  try {
    return { files: decodeFiles(r.encoded) };
  } catch (e) {
    if (e instanceof CorruptCache) return { files: new Map(), problem: `cache entry malformed (${e.message}); rebuilding` };
    return { files: new Map(), problem: `cache unreadable (${(e as Error).message}); rebuilding` };
  }
}

/**
 * Reads a file written by writeFramed for this version and root: the encoded sections, checked
 * (magic, digest, version, root, section sizes), or why not (nothing when the file does not exist).
 * The digest covers every byte of the sections, so their own checksums need no second pass
 * (`digested`). `views`: the integer sections are views of the file's bytes where aligned, not
 * copies (for a decoder that keeps none of them: a view keeps the whole file alive).
 */
export function readFramed(file: string, version: string, root: string, opts: { views?: boolean } = {}): { encoded?: EncodedFiles; problem?: string } {
  if (!existsSync(file)) return {};
  try {
    const buf = readFileSync(file);
    if (buf.length < PREFIX || buf.toString('latin1', 0, 8) !== MAGIC) return { problem: 'cache has no valid header' };
    const headerBytes = buf.readUInt32LE(8);
    if (PREFIX + headerBytes > buf.length) return { problem: 'cache has no valid header' };
    if (!createHash('sha1').update(buf.subarray(PREFIX)).digest().equals(buf.subarray(DIGEST_AT, PREFIX))) throw new CorruptCache('cache digest mismatch: truncated or damaged');
    const h = JSON.parse(buf.toString('utf8', PREFIX, PREFIX + headerBytes)) as Header;
    if (h?.version !== version) return { problem: 'cache from another indexer version' };
    if (h.root !== root) return { problem: 'cache belongs to another folder' };
    const sizes = [h.ints, h.offsets, h.floats, h.textBytes];
    if (!sizes.every((n) => Number.isSafeInteger(n) && n >= 0)) throw new CorruptCache('section sizes malformed');
    let at = align8(PREFIX + headerBytes);
    const section = <A>(bytes: number, as: (b: ArrayBuffer, offset: number, bytes: number) => A): A => {
      if (at + bytes > buf.length) throw new CorruptCache('cache data ends early');
      const from = at;
      at = align8(at + bytes);
      // Typed arrays need aligned memory: else (and unless views are asked for) a copy.
      if (opts.views && (buf.byteOffset + from) % 8 === 0) return as(buf.buffer as ArrayBuffer, buf.byteOffset + from, bytes);
      const out = new Uint8Array(bytes);
      out.set(buf.subarray(from, from + bytes));
      return as(out.buffer, 0, bytes);
    };
    const ints = section(h.ints * 4, (b, o, n) => new Int32Array(b, o, n / 4));
    const offsets = section(h.offsets * 4, (b, o, n) => new Int32Array(b, o, n / 4));
    const floats = section(h.floats * 8, (b, o, n) => new Float64Array(b, o, n / 8));
    if (at + h.textBytes !== buf.length) throw new CorruptCache('cache length does not match its header');
    const text = buf.toString(h.wide ? 'utf16le' : 'latin1', at, at + h.textBytes);
    return { encoded: { text, offsets, ints, floats, check: h.check, stringsCheck: h.stringsCheck, digested: true } };
  } catch (e) {
    if (e instanceof CorruptCache) return { problem: `cache entry malformed (${e.message})` };
    return { problem: `cache unreadable (${(e as Error).message})` };
  }
}

/** Temporary files of earlier saves of this cache whose writer is no longer running (killed mid-save). */
function removeDeadWriters(file: string): void {
  const prefix = basename(file) + '.';
  let names: string[];
  try { names = readdirSync(dirname(file)); } catch { return; }
  for (const name of names) {
    const m = name.startsWith(prefix) ? /^(\d+)\.tmp$/.exec(name.slice(prefix.length)) : null;
    if (!m || Number(m[1]) === process.pid || alive(Number(m[1]))) continue;
    rmSync(join(dirname(file), name), { force: true });
  }
}

function alive(pid: number): boolean {
  try { process.kill(pid, 0); return true; } catch (e) { return (e as NodeJS.ErrnoException).code === 'EPERM'; }
}

/** Writes atomically (temp file, flushed, renamed), so a crash mid-write leaves the old cache or none. */
export function saveCache(cacheDir: string, root: string, version: string, files: Map<string, CachedFile>): string | undefined {
  const file = cacheFileFor(cacheDir, root);
  try {
    mkdirSync(cacheDir, { recursive: true });
    const entries = [...files.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1));
    writeFramed(file, version, root, encodeFiles(entries));
    rmSync(file.replace(/\.cache$/, '.v8'), { force: true }); // the previous format's file, superseded
    return undefined;
  } catch (e) {
    return `could not save the index cache: ${(e as Error).message}`;
  }
}

/** Writes encoded sections to `file` atomically (temp file, flushed, renamed); throws on failure, leaving no temporary file. */
export function writeFramed(file: string, version: string, root: string, e: EncodedFiles): void {
  const tmp = `${file}.${process.pid}.tmp`;
  let fd: number | undefined;
  try {
    const wide = /[^\u0000-\u00ff]/.test(e.text);
    const text = Buffer.from(e.text, wide ? 'utf16le' : 'latin1');
    // The sections as written after the header, each padded to 8 bytes (typed arrays need alignment).
    const sections: Uint8Array[] = [];
    let size = 0;
    for (const a of [e.ints, e.offsets, e.floats]) {
      sections.push(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
      size += a.byteLength;
      if (align8(size) > size) { sections.push(Buffer.alloc(align8(size) - size)); size = align8(size); }
    }
    sections.push(text);
    const header = Buffer.from(JSON.stringify({
      version, root, ints: e.ints.length, offsets: e.offsets.length, floats: e.floats.length,
      textBytes: text.length, wide, check: e.check, stringsCheck: e.stringsCheck,
    } satisfies Header));
    const end = PREFIX + header.length;
    const body = [header, Buffer.alloc(align8(end) - end), ...sections];
    const digest = createHash('sha1');
    for (const b of body) digest.update(b);
    const prefix = Buffer.alloc(PREFIX);
    prefix.write(MAGIC, 0, 'latin1');
    prefix.writeUInt32LE(header.length, 8);
    digest.digest().copy(prefix, DIGEST_AT);
    removeDeadWriters(file);
    fd = openSync(tmp, 'w');
    writeSync(fd, prefix);
    for (const b of body) writeSync(fd, b);
    // On disk before the rename: after a crash the name points at a whole file, old or new.
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(tmp, file);
  } catch (err) {
    if (fd !== undefined) try { closeSync(fd); } catch { /* already closed */ }
    try { unlinkSync(tmp); } catch { /* nothing to clean */ }
    throw err;
  }
}
