// A small read-only zip reader for jars, over node:zlib's raw inflate. It reads the central
// directory (not local headers, which may lie), and refuses what a hostile or broken archive
// could do to us: entries larger than a limit, compression ratios of a zip bomb, offsets outside
// the file, unknown compression methods. Every refusal is a reason, never a throw to the caller.
// Opened from a path, only the central directory is read up front, entries when asked: a project
// with hundreds of jars pays for the directories, not for the bytes of classes nobody reaches.

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';

export interface ZipLimits {
  /** Largest uncompressed entry read (a class or source file is far below it). */
  maxEntryBytes: number;
  /** Largest uncompressed/compressed ratio accepted for an entry (zip bombs reach thousands). */
  maxRatio: number;
  /** Most entries read from one archive. */
  maxEntries: number;
}

export const DEFAULT_ZIP_LIMITS: ZipLimits = { maxEntryBytes: 8 * 1024 * 1024, maxRatio: 200, maxEntries: 200_000 };

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  /** Offset of the local file header. */
  localOffset: number;
}

export class ZipError extends Error {}

/** Reads `length` bytes at `offset` (fewer at the end of the file). */
type ReadAt = (offset: number, length: number) => Buffer;

export class ZipArchive {
  readonly entries = new Map<string, ZipEntry>();

  private constructor(private readAt: ReadAt, private size: number, private limits: ZipLimits, private fd?: number) {}

  /** Opens an archive held in memory; throws ZipError with the reason if its directory is unusable. */
  static fromBuffer(data: Buffer, limits: ZipLimits = DEFAULT_ZIP_LIMITS): ZipArchive {
    const zip = new ZipArchive((o, n) => data.subarray(o, Math.min(data.length, o + n)), data.length, limits);
    zip.readDirectory();
    return zip;
  }

  /** Opens an archive on disk, reading its central directory; close() releases the file. */
  static open(path: string, limits: ZipLimits = DEFAULT_ZIP_LIMITS): ZipArchive {
    const fd = openSync(path, 'r');
    try {
      const size = fstatSync(fd).size;
      const readAt: ReadAt = (o, n) => {
        const len = Math.max(0, Math.min(n, size - o));
        const buf = Buffer.allocUnsafe(len);
        let done = 0;
        while (done < len) {
          const got = readSync(fd, buf, done, len - done, o + done);
          if (got <= 0) break;
          done += got;
        }
        return buf.subarray(0, done);
      };
      const zip = new ZipArchive(readAt, size, limits, fd);
      zip.readDirectory();
      return zip;
    } catch (e) {
      closeSync(fd);
      throw e;
    }
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private readDirectory(): void {
    // End of central directory: 22 bytes plus a comment of at most 65535 bytes, searched from the end.
    const tailStart = Math.max(0, this.size - 22 - 0xffff);
    const tail = this.readAt(tailStart, this.size - tailStart);
    let eocd = -1;
    for (let i = tail.length - 22; i >= 0; i--) {
      if (tail.readUInt32LE(i) === 0x06054b50) { eocd = i; break; }
    }
    if (eocd < 0) throw new ZipError('not a zip archive (no end of central directory)');
    const count = tail.readUInt16LE(eocd + 10);
    const dirSize = tail.readUInt32LE(eocd + 12);
    const dirOffset = tail.readUInt32LE(eocd + 16);
    if (count === 0xffff || dirOffset === 0xffffffff) throw new ZipError('zip64 archives are not read');
    if (dirOffset + dirSize > this.size) throw new ZipError('central directory lies outside the file');
    if (count > this.limits.maxEntries) throw new ZipError(`${count} entries, over the limit of ${this.limits.maxEntries}`);
    const d = this.readAt(dirOffset, dirSize);
    let p = 0;
    for (let n = 0; n < count; n++) {
      if (p + 46 > d.length || d.readUInt32LE(p) !== 0x02014b50) throw new ZipError(`corrupt central directory at entry ${n}`);
      const method = d.readUInt16LE(p + 10);
      const compressedSize = d.readUInt32LE(p + 20);
      const size = d.readUInt32LE(p + 24);
      const nameLen = d.readUInt16LE(p + 28);
      const extraLen = d.readUInt16LE(p + 30);
      const commentLen = d.readUInt16LE(p + 32);
      const localOffset = d.readUInt32LE(p + 42);
      const name = d.toString('utf8', p + 46, p + 46 + nameLen);
      p += 46 + nameLen + extraLen + commentLen;
      if (!name.endsWith('/')) this.entries.set(name, { name, method, compressedSize, size, localOffset });
    }
  }

  /** An entry's bytes, or the reason it is not read. */
  read(name: string): { ok: true; data: Buffer } | { ok: false; reason: string } {
    const e = this.entries.get(name);
    if (!e) return { ok: false, reason: 'no such entry' };
    const { maxEntryBytes, maxRatio } = this.limits;
    if (e.size > maxEntryBytes) return { ok: false, reason: `entry of ${e.size} bytes, over the limit of ${maxEntryBytes}` };
    if (e.compressedSize > 0 && e.size / e.compressedSize > maxRatio) {
      return { ok: false, reason: `compression ratio ${Math.round(e.size / e.compressedSize)}:1, over the limit of ${maxRatio}:1 (zip bomb?)` };
    }
    const h = e.localOffset;
    const header = this.readAt(h, 30);
    if (header.length < 30 || header.readUInt32LE(0) !== 0x04034b50) return { ok: false, reason: 'corrupt local header' };
    const start = h + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
    if (start + e.compressedSize > this.size) return { ok: false, reason: 'entry data lies outside the file' };
    const raw = this.readAt(start, e.compressedSize);
    if (e.method === 0) {
      return e.compressedSize === e.size ? { ok: true, data: Buffer.from(raw) } : { ok: false, reason: 'stored entry with mismatched sizes' };
    }
    if (e.method !== 8) return { ok: false, reason: `compression method ${e.method} is not read` };
    try {
      // maxOutputLength stops a lying size field from inflating past the limit.
      const data = inflateRawSync(raw, { maxOutputLength: Math.max(1, e.size) });
      if (data.length !== e.size) return { ok: false, reason: `inflated to ${data.length} bytes, directory says ${e.size}` };
      return { ok: true, data };
    } catch (err) {
      return { ok: false, reason: `corrupt compressed data: ${(err as Error).message}` };
    }
  }
}
