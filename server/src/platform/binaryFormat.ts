// What an executable was built for, read from its header: ELF (Linux), Mach-O (macOS, thin or
// universal) or PE (Windows). The extension uses it to tell whether the ripgrep it carries can run
// here; the packaging test uses it to check each platform package carries its own.

import { closeSync, openSync, readSync } from 'node:fs';

export type BinaryOs = 'linux' | 'darwin' | 'win32';

export interface BinaryFormat {
  os: BinaryOs;
  /** Node's names (`process.arch`): x64, arm64, ia32, arm; another machine type as `machine-0x…`. */
  archs: string[];
  /** ELF only: no program interpreter (PT_INTERP), so it runs on any libc (musl on Alpine too). */
  staticLinked?: boolean;
}

const ELF_MACHINES: Record<number, string> = { 0x3e: 'x64', 0xb7: 'arm64', 0x03: 'ia32', 0x28: 'arm' };
const MACHO_CPUS: Record<number, string> = { 0x01000007: 'x64', 0x0100000c: 'arm64', 0x07: 'ia32', 0x0c: 'arm' };
const PE_MACHINES: Record<number, string> = { 0x8664: 'x64', 0xaa64: 'arm64', 0x014c: 'ia32', 0x01c4: 'arm' };
const PT_INTERP = 3;

const named = (table: Record<number, string>, n: number) => table[n] ?? `machine-0x${n.toString(16)}`;

/** The format of an executable from its first bytes (64 KB is plenty), or undefined when it is none of the three. */
export function binaryFormatOf(b: Buffer): BinaryFormat | undefined {
  if (b.length >= 64 && b.readUInt32BE(0) === 0x7f454c46) return elf(b);
  if (b.length >= 8) {
    const le = b.readUInt32LE(0);
    if (le === 0xfeedfacf || le === 0xfeedface) return { os: 'darwin', archs: [named(MACHO_CPUS, b.readInt32LE(4))] };
    if (b.readUInt32BE(0) === 0xcafebabe) {
      // Universal binary: a big-endian table of (cputype, cpusubtype, offset, size, align).
      const n = b.readUInt32BE(4);
      if (n === 0 || n > 16 || b.length < 8 + n * 20) return undefined; // 0xcafebabe is also a Java class file
      const archs = [];
      for (let i = 0; i < n; i++) archs.push(named(MACHO_CPUS, b.readInt32BE(8 + i * 20)));
      return { os: 'darwin', archs };
    }
  }
  if (b.length >= 0x40 && b.toString('latin1', 0, 2) === 'MZ') {
    const pe = b.readUInt32LE(0x3c);
    if (pe + 6 <= b.length && b.readUInt32BE(pe) === 0x50450000) return { os: 'win32', archs: [named(PE_MACHINES, b.readUInt16LE(pe + 4))] };
  }
  return undefined;
}

function elf(b: Buffer): BinaryFormat | undefined {
  const is64 = b[4] === 2;
  const little = b[5] === 1;
  const u16 = (o: number) => (little ? b.readUInt16LE(o) : b.readUInt16BE(o));
  const u32 = (o: number) => (little ? b.readUInt32LE(o) : b.readUInt32BE(o));
  const word = (o: number) => (is64 ? Number(little ? b.readBigUInt64LE(o) : b.readBigUInt64BE(o)) : u32(o));
  const phoff = word(is64 ? 0x20 : 0x1c);
  const phentsize = u16(is64 ? 0x36 : 0x2a);
  const phnum = u16(is64 ? 0x38 : 0x2c);
  let staticLinked: boolean | undefined;
  if (phoff + phnum * phentsize <= b.length) {
    staticLinked = true;
    for (let i = 0; i < phnum; i++) if (u32(phoff + i * phentsize) === PT_INTERP) staticLinked = false;
  }
  return { os: 'linux', archs: [named(ELF_MACHINES, u16(0x12))], staticLinked };
}

/** The format of the executable at `path`, or undefined when it is unreadable or not an executable. */
export function binaryFormatOfFile(path: string): BinaryFormat | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const buf = Buffer.alloc(64 * 1024);
    const n = readSync(fd, buf, 0, buf.length, 0);
    return binaryFormatOf(buf.subarray(0, n));
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Whether a binary of this format runs on `platform`/`arch` (Node's names). */
export function runsOn(f: BinaryFormat | undefined, platform: string, arch: string): boolean {
  return !!f && f.os === platform && f.archs.includes(arch);
}
