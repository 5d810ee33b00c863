// What a platform package must hold, checked from the .vsix itself: its manifest names the target,
// it carries exactly one ripgrep, at extension/dist/bin/rg (rg.exe on Windows), built for that
// target's OS and CPU (ELF/Mach-O/PE header), and no other executable of any platform.

import { binaryFormatOf } from '../../server/src/platform/binaryFormat';
import type { ZipEntry } from '../helpers/zip';

export interface Expected { os: 'linux' | 'darwin' | 'win32'; arch: 'x64' | 'arm64'; exe: 'rg' | 'rg.exe'; staticLinked?: boolean }

/** The expectation per VS Code target, written out here rather than taken from the packaging script. */
export const EXPECTED: Record<string, Expected> = {
  'linux-x64': { os: 'linux', arch: 'x64', exe: 'rg' },
  'linux-arm64': { os: 'linux', arch: 'arm64', exe: 'rg' },
  'alpine-x64': { os: 'linux', arch: 'x64', exe: 'rg', staticLinked: true }, // musl: no glibc interpreter
  'darwin-x64': { os: 'darwin', arch: 'x64', exe: 'rg' },
  'darwin-arm64': { os: 'darwin', arch: 'arm64', exe: 'rg' },
  'win32-x64': { os: 'win32', arch: 'x64', exe: 'rg.exe' },
  'win32-arm64': { os: 'win32', arch: 'arm64', exe: 'rg.exe' },
};

/** Every problem of the package as the target `target`; empty when it is right. */
export function packageProblems(entries: ZipEntry[], target: string): string[] {
  const want = EXPECTED[target];
  if (!want) return [`unknown target ${target}`];
  const problems: string[] = [];
  const manifest = entries.find((e) => e.name === 'extension.vsixmanifest')?.data.toString('utf8');
  const declared = manifest && /<Identity\b[^>]*\bTargetPlatform="([^"]*)"/.exec(manifest)?.[1];
  if (declared !== target) problems.push(`manifest target ${declared ?? '(none)'}, expected ${target}`);
  if (!entries.some((e) => e.name === 'extension/package.json')) problems.push('no extension/package.json');
  const binPath = `extension/dist/bin/${want.exe}`;
  const named = entries.filter((e) => /(^|\/)rg(\.exe)?$/i.test(e.name));
  const binaries = entries.filter((e) => binaryFormatOf(e.data.subarray(0, 64 * 1024)));
  if (!entries.some((e) => e.name === binPath)) problems.push(`lacks its ripgrep ${binPath}`);
  for (const e of new Set([...named, ...binaries])) {
    const f = binaryFormatOf(e.data.subarray(0, 64 * 1024));
    const what = f ? `${f.os}-${f.archs.join('/')}${f.staticLinked ? ' static' : ''}` : 'not an executable';
    if (e.name !== binPath) { problems.push(`carries another binary ${e.name} (${what})`); continue; }
    if (!f || f.os !== want.os || !f.archs.includes(want.arch)) problems.push(`${e.name} is ${what}, not ${want.os}-${want.arch}`);
    else if (want.staticLinked && !f.staticLinked) problems.push(`${e.name} is dynamically linked: it would not run on musl`);
    if (want.os !== 'win32' && (e.mode & 0o111) === 0) problems.push(`${e.name} is not marked executable (mode ${e.mode.toString(8)})`);
  }
  return problems;
}
