// Finding ripgrep on every platform: the binary's header says what it runs on; a bundled binary
// for another platform is passed over; NEEDLE_RIPGREP, @vscode/ripgrep and the PATH (with
// PATHEXT on Windows) come after, in that order; VS Code's own ripgrep sits under its appRoot.
// The Windows lookups run on Linux with the file system checks injected.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { binaryFormatOf, binaryFormatOfFile, runsOn } from '../../server/src/platform/binaryFormat';
import { findRipgrep, findRipgrepHere, onPath, vscodeRipgrep } from '../../server/src/platform/ripgrep';
import { ripgrepForServer } from '../../client/src/ripgrep';
import { tempDir } from '../helpers/tempDir';

/** Minimal headers of each format, laid out as the loaders read them. */
function elfHeader(machine: number, interp: boolean): Buffer {
  const b = Buffer.alloc(64 + 2 * 56);
  b.writeUInt32BE(0x7f454c46, 0); b[4] = 2; b[5] = 1; b[6] = 1;
  b.writeUInt16LE(machine, 0x12);
  b.writeBigUInt64LE(64n, 0x20); b.writeUInt16LE(56, 0x36); b.writeUInt16LE(2, 0x38);
  b.writeUInt32LE(6, 64); // PT_PHDR
  b.writeUInt32LE(interp ? 3 : 1, 64 + 56); // PT_INTERP or PT_LOAD
  return b;
}
function machoHeader(cpu: number): Buffer {
  const b = Buffer.alloc(32);
  b.writeUInt32LE(0xfeedfacf, 0); b.writeInt32LE(cpu, 4);
  return b;
}
function peHeader(machine: number): Buffer {
  const b = Buffer.alloc(0x100);
  b.write('MZ', 0, 'latin1'); b.writeUInt32LE(0x80, 0x3c);
  b.writeUInt32BE(0x50450000, 0x80); b.writeUInt16LE(machine, 0x84);
  return b;
}

test('binary formats: ELF machine and static linking, Mach-O CPU (thin and universal), PE machine', () => {
  assert.deepEqual(binaryFormatOf(elfHeader(0x3e, false)), { os: 'linux', archs: ['x64'], staticLinked: true });
  assert.deepEqual(binaryFormatOf(elfHeader(0xb7, true)), { os: 'linux', archs: ['arm64'], staticLinked: false });
  assert.deepEqual(binaryFormatOf(machoHeader(0x0100000c)), { os: 'darwin', archs: ['arm64'] });
  assert.deepEqual(binaryFormatOf(machoHeader(0x01000007)), { os: 'darwin', archs: ['x64'] });
  const fat = Buffer.alloc(48);
  fat.writeUInt32BE(0xcafebabe, 0); fat.writeUInt32BE(2, 4); fat.writeInt32BE(0x01000007, 8); fat.writeInt32BE(0x0100000c, 28);
  assert.deepEqual(binaryFormatOf(fat), { os: 'darwin', archs: ['x64', 'arm64'] });
  // A Java class file starts with the same magic, followed by its version: not an executable.
  const cls = Buffer.alloc(48); cls.writeUInt32BE(0xcafebabe, 0); cls.writeUInt32BE(0x00000041, 4);
  assert.equal(binaryFormatOf(cls), undefined);
  assert.deepEqual(binaryFormatOf(peHeader(0x8664)), { os: 'win32', archs: ['x64'] });
  assert.deepEqual(binaryFormatOf(peHeader(0xaa64)), { os: 'win32', archs: ['arm64'] });
  assert.equal(binaryFormatOf(Buffer.from('#!/bin/sh\necho rg\n'.padEnd(80))), undefined);
  assert.ok(runsOn(binaryFormatOf(peHeader(0xaa64)), 'win32', 'arm64'));
  assert.ok(!runsOn(binaryFormatOf(peHeader(0xaa64)), 'win32', 'x64'));
  assert.ok(!runsOn(binaryFormatOf(elfHeader(0x3e, false)), 'darwin', 'x64'));
  assert.ok(runsOn(binaryFormatOf(fat), 'darwin', 'arm64'));
});

test('ripgrep here: the lookup finds a binary that runs on this machine', () => {
  const rg = findRipgrepHere();
  assert.ok(rg, 'no ripgrep: neither bundled, nor @vscode/ripgrep, nor on the PATH (Debian package ripgrep)');
  assert.ok(runsOn(binaryFormatOfFile(rg.path), process.platform, process.arch), `${rg.path} does not run on ${process.platform}-${process.arch}`);
});

/** A temporary folder with executables written at the given relative paths. */
function tree(files: Record<string, Buffer>): string {
  const dir = tempDir('needle-rg-');
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), content);
    chmodSync(join(dir, rel), 0o755);
  }
  return dir;
}

test('ripgrep lookup: a bundled binary of another platform is passed over; then @vscode/ripgrep, then the PATH', () => {
  const here = findRipgrepHere()!;
  const dir = tree({ 'pkg/dist/bin/rg': peHeader(0x8664), 'usr/bin/rg': elfHeader(0x3e, false) });
  copyFileSync(here.path, join(dir, 'own-rg'));
  const base = { platform: 'linux', arch: 'x64', bundleDirs: [join(dir, 'pkg', 'dist')] };
  // A Windows binary in a Linux package does not fit: the PATH's rg is used.
  assert.deepEqual(findRipgrep({ ...base, env: { PATH: `${join(dir, 'nowhere')}:${join(dir, 'usr/bin')}` } }), { path: join(dir, 'usr/bin/rg'), source: 'PATH' });
  assert.equal(findRipgrep({ ...base, env: { PATH: join(dir, 'nowhere') } }), undefined);
  // @vscode/ripgrep's platform package comes before the PATH.
  const npm = findRipgrep({ ...base, env: { PATH: join(dir, 'usr/bin') }, resolveModule: (id) => { assert.equal(id, '@vscode/ripgrep-linux-x64/bin/rg'); return join(dir, 'own-rg'); } });
  assert.deepEqual(npm, { path: join(dir, 'own-rg'), source: 'npm' });
  // NEEDLE_RIPGREP (what the VS Code client hands over) comes first.
  assert.deepEqual(findRipgrep({ ...base, env: { NEEDLE_RIPGREP: join(dir, 'own-rg'), PATH: join(dir, 'usr/bin') } }), { path: join(dir, 'own-rg'), source: 'NEEDLE_RIPGREP' });
  // The bundled binary, when it fits.
  const fitting = tree({ 'dist/bin/rg': elfHeader(0x3e, false) });
  assert.deepEqual(findRipgrep({ ...base, bundleDirs: [join(fitting, 'dist')], env: { PATH: join(dir, 'usr/bin') } }), { path: join(fitting, 'dist/bin/rg'), source: 'bundled' });
  assert.equal(findRipgrep({ ...base, arch: 'arm64', bundleDirs: [join(fitting, 'dist')], env: {} }), undefined);
});

test('ripgrep lookup on Windows: Path (any case), PATHEXT order, only .exe/.com, quoted folders', () => {
  // Windows file names are case-insensitive: rg.EXE on the PATHEXT finds rg.exe on disk.
  const files = new Set(['C:\\tools\\rg.cmd', 'D:\\Program Files\\ripgrep\\rg.exe', 'C:\\late\\rg.exe'].map((f) => f.toLowerCase()));
  const isExecutable = (p: string, platform: string) => { assert.equal(platform, 'win32'); return files.has(p.toLowerCase()); };
  const env = { Path: 'C:\\tools;"D:\\Program Files\\ripgrep";C:\\late', PATHEXT: '.COM;.CMD;.EXE' };
  assert.equal(onPath('rg', 'win32', env, isExecutable), 'D:\\Program Files\\ripgrep\\rg.EXE');
  assert.equal(onPath('rg', 'win32', { Path: 'C:\\tools' }, isExecutable), undefined, 'a .cmd does not start without a shell');
  assert.equal(onPath('rg', 'win32', { PATH: 'C:\\late' }, isExecutable), 'C:\\late\\rg.EXE', 'the default PATHEXT');
  // The bundled rg.exe of a Windows package, when its header says win32-arm64.
  const found = findRipgrep({
    platform: 'win32', arch: 'arm64', env, bundleDirs: ['C:\\ext\\needle\\dist'],
    isExecutable: (p) => p === 'C:\\ext\\needle\\dist\\bin\\rg.exe' || files.has(p.toLowerCase()), fits: (p) => p.endsWith('rg.exe'),
  });
  assert.deepEqual(found, { path: 'C:\\ext\\needle\\dist\\bin\\rg.exe', source: 'bundled' });
});

test("VS Code's own ripgrep: under appRoot in node_modules or node_modules.asar.unpacked, rg.exe on Windows", () => {
  const unpacked = tree({ 'node_modules.asar.unpacked/@vscode/ripgrep/bin/rg': elfHeader(0x3e, false) });
  assert.equal(vscodeRipgrep(unpacked, 'linux'), join(unpacked, 'node_modules.asar.unpacked/@vscode/ripgrep/bin/rg'));
  const plain = tree({ 'node_modules/@vscode/ripgrep/bin/rg': elfHeader(0x3e, false) });
  assert.equal(vscodeRipgrep(plain, 'darwin'), join(plain, 'node_modules/@vscode/ripgrep/bin/rg'));
  assert.equal(vscodeRipgrep(plain, 'win32'), undefined, 'Windows looks for rg.exe');
  const win = 'C:\\Users\\me\\AppData\\Local\\Programs\\Microsoft VS Code\\resources\\app';
  assert.equal(vscodeRipgrep(win, 'win32', (p) => p === `${win}\\node_modules.asar.unpacked\\@vscode\\ripgrep\\bin\\rg.exe`), `${win}\\node_modules.asar.unpacked\\@vscode\\ripgrep\\bin\\rg.exe`);
});

test('the extension hands VS Code its own ripgrep only when its package carries none that runs here', () => {
  const appRoot = tree({ 'node_modules.asar.unpacked/@vscode/ripgrep/bin/rg': elfHeader(0x3e, false) });
  const own = join(appRoot, 'node_modules.asar.unpacked/@vscode/ripgrep/bin/rg');
  const fitting = tree({ 'dist/bin/rg': elfHeader(0x3e, false) });
  assert.equal(ripgrepForServer(fitting, appRoot, 'linux', 'x64').env, undefined);
  assert.match(ripgrepForServer(fitting, appRoot, 'linux', 'x64').message, /bundled/);
  const foreign = tree({ 'dist/bin/rg': machoHeader(0x0100000c) });
  const universal = tree({ 'dist/extension.js': Buffer.from('') });
  for (const ext of [foreign, universal]) {
    const c = ripgrepForServer(ext, appRoot, 'linux', 'x64');
    assert.deepEqual(c.env, { NEEDLE_RIPGREP: own });
    assert.match(c.message, /carries no ripgrep for linux-x64; using VS Code's own ripgrep/);
  }
  const none = ripgrepForServer(universal, universal, 'linux', 'x64');
  assert.equal(none.env, undefined);
  assert.match(none.message, /looks for rg on the PATH/);
});
