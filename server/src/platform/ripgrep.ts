// Where the ripgrep binary is. A platform package of the extension carries its own (dist/bin/rg,
// dist/bin/rg.exe on Windows); the npm package gets it from @vscode/ripgrep's platform package;
// otherwise it is looked up on the PATH. The VS Code client, when its package carries none that
// runs here, hands over VS Code's own ripgrep in NEEDLE_RIPGREP. Everything the lookup reads
// (platform, environment, file system) is a parameter, so tests run the Windows lookup on Linux.

import { accessSync, constants, statSync } from 'node:fs';
import * as nodePath from 'node:path';
import { binaryFormatOfFile, runsOn } from './binaryFormat';

export type RipgrepSource = 'NEEDLE_RIPGREP' | 'bundled' | 'npm' | 'PATH';

export interface RipgrepLocation {
  path: string;
  source: RipgrepSource;
}

export interface RipgrepLookup {
  platform: string;
  arch: string;
  env: Record<string, string | undefined>;
  /** Folders that may hold bin/rg: the bundle's folder and its parents. */
  bundleDirs: string[];
  /** Resolves a module path the way the bundle's `require` would, or throws. */
  resolveModule?: (id: string) => string;
  isExecutable?: (path: string, platform: string) => boolean;
  /** Whether a bundled binary runs here; by default its header is read. */
  fits?: (path: string) => boolean;
}

export const exeName = (platform: string) => (platform === 'win32' ? 'rg.exe' : 'rg');

function isExecutableFile(path: string, platform: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    if (platform !== 'win32') accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The executable `name` on the PATH: each folder in order, and on Windows each extension of
 * PATHEXT in order (only .exe and .com: without a shell, .cmd and .bat do not start).
 */
export function onPath(name: string, platform: string, env: Record<string, string | undefined>, isExecutable = isExecutableFile): string | undefined {
  const p = platform === 'win32' ? nodePath.win32 : nodePath.posix;
  // Windows spells it Path; environment names are case-insensitive there.
  const get = (k: string) => (platform === 'win32' ? Object.entries(env).find(([n]) => n.toUpperCase() === k)?.[1] : env[k]);
  const dirs = (get('PATH') ?? '').split(p.delimiter).map((d) => d.replace(/^"(.*)"$/, '$1')).filter(Boolean);
  const exts = platform === 'win32'
    ? (get('PATHEXT') ?? '.COM;.EXE;.BAT;.CMD').split(';').map((e) => e.trim()).filter((e) => /^\.(exe|com)$/i.test(e))
    : [''];
  for (const d of dirs) {
    for (const e of exts) {
      const c = p.join(d, name + e);
      if (isExecutable(c, platform)) return c;
    }
  }
  return undefined;
}

/** The ripgrep a package carries (bin/rg under one of `bundleDirs`) if it runs on this platform. */
export function bundledRipgrep(l: Pick<RipgrepLookup, 'platform' | 'arch' | 'bundleDirs' | 'isExecutable' | 'fits'>): string | undefined {
  const isExecutable = l.isExecutable ?? isExecutableFile;
  const fits = l.fits ?? ((c: string) => runsOn(binaryFormatOfFile(c), l.platform, l.arch));
  const p = l.platform === 'win32' ? nodePath.win32 : nodePath.posix;
  for (const d of l.bundleDirs) {
    const c = p.join(d, 'bin', exeName(l.platform));
    if (isExecutable(c, l.platform) && fits(c)) return c;
  }
  return undefined;
}

/** The ripgrep this process should run, in order of preference, or undefined when there is none. */
export function findRipgrep(l: RipgrepLookup): RipgrepLocation | undefined {
  const isExecutable = l.isExecutable ?? isExecutableFile;
  const explicit = l.env.NEEDLE_RIPGREP;
  if (explicit && isExecutable(explicit, l.platform)) return { path: explicit, source: 'NEEDLE_RIPGREP' };
  const bundled = bundledRipgrep(l);
  if (bundled) return { path: bundled, source: 'bundled' };
  if (l.resolveModule) {
    try {
      const c = l.resolveModule(`@vscode/ripgrep-${l.platform}-${l.arch}/bin/${exeName(l.platform)}`);
      if (isExecutable(c, l.platform)) return { path: c, source: 'npm' };
    } catch { /* not installed for this platform */ }
  }
  const found = onPath('rg', l.platform, l.env, isExecutable);
  return found ? { path: found, source: 'PATH' } : undefined;
}

/**
 * VS Code's own ripgrep under its application root (`vscode.env.appRoot`), at the places VS Code
 * ships it: inside node_modules, or unpacked beside node_modules.asar.
 */
export function vscodeRipgrep(appRoot: string, platform: string, isExecutable = isExecutableFile): string | undefined {
  const p = platform === 'win32' ? nodePath.win32 : nodePath.posix;
  const exe = exeName(platform);
  for (const modules of ['node_modules', 'node_modules.asar.unpacked']) {
    const c = p.join(appRoot, modules, '@vscode', 'ripgrep', 'bin', exe);
    if (isExecutable(c, platform)) return c;
  }
  return undefined;
}

/** How the log names a source. */
export function describeRipgrep(r: RipgrepLocation | undefined): string {
  if (!r) return 'no ripgrep found (none bundled, none from @vscode/ripgrep, none on the PATH): lexical recall is off';
  const from = { NEEDLE_RIPGREP: 'NEEDLE_RIPGREP', bundled: 'bundled with the package', npm: '@vscode/ripgrep', PATH: 'found on the PATH' }[r.source];
  return `ripgrep ${r.path} (${from})`;
}

/** The lookup for this process: the bundle's folder (dist/) and its parents hold bin/ in the packages. */
export function findRipgrepHere(): RipgrepLocation | undefined {
  return findRipgrep({
    platform: process.platform, arch: process.arch, env: process.env,
    bundleDirs: [__dirname, nodePath.join(__dirname, '..'), nodePath.join(__dirname, '..', '..')],
    resolveModule: (id) => require.resolve(id),
  });
}
