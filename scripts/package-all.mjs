// Builds the platform-specific VS Code packages (`vsce package --target`), each carrying only its
// own platform's ripgrep, from the already-built dist/. The ripgrep binaries come from the
// @vscode/ripgrep-<platform> npm packages at the version of our @vscode/ripgrep dependency:
// `npm pack` fetches each tarball (npm's os/cpu fields would refuse to install a foreign one),
// checked against the integrity pinned below, into .cache/ripgrep/.
//
//   node scripts/package-all.mjs            all seven targets -> dist/packages/needle-<target>.vsix
//   node scripts/package-all.mjs --host     only this machine's target
//   node scripts/package-all.mjs win32-x64  the targets named

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** vsce, exactly pinned (run through npx, never a dependency of the extension). */
export const VSCE = '@vscode/vsce@2.32.0';
/** A package must stay under this size (the target; the marketplace allows far more). */
export const MAX_PACKAGE_BYTES = 8 * 1024 * 1024;

/**
 * VS Code target -> the @vscode/ripgrep platform package it carries. Alpine gets the linux-x64
 * build: it is statically linked (no libc interpreter), so it runs on musl.
 */
export const TARGETS = {
  'linux-x64': 'linux-x64',
  'linux-arm64': 'linux-arm64',
  'darwin-x64': 'darwin-x64',
  'darwin-arm64': 'darwin-arm64',
  'win32-x64': 'win32-x64',
  'win32-arm64': 'win32-arm64',
  'alpine-x64': 'linux-x64',
};

/** The npm registry's sha512 of each tarball at RIPGREP_VERSION; a different tarball is refused. */
const INTEGRITY = {
  'linux-x64': 'sha512-mQ3bVrUpnD2vs7QT0vX90Lt0cnUq467uFtEktIdsJJmW296RoSULRGqWgzG1AKxyBpNDD6l4ZO4qKf6SgyC23Q==',
  'linux-arm64': 'sha512-lQ/5zTG++U0E3IhVgS4EPTTn/U4okncaRMM5GOFfOYZywS4nuD31GhkHbNYlDk5CuDC68+hYJ0/eQeyCKJDA+g==',
  'darwin-x64': 'sha512-25b4gWbL138dGuQU244ebCKKc0q05ULBMoFSz9oAEUHNeqK/lOJViDS7DRvbDazzAzSEdan391Znks/R5mkaTQ==',
  'darwin-arm64': 'sha512-r3ktHSvbFycQNF6sl7sNDPocpsI7J+mEzh1IaZFkY0spm3k2Z9t8hPAeOK7+p0l6p6/swkQC14XWX01low+94Q==',
  'win32-x64': 'sha512-KNPvtElldqILHdnAetujPaowkNbpqJy3ssIGGN6F6Kve9Qi+nNLI2DN01O83JjCEVQbCzl8Ov3QZ9Eov3BR8Dg==',
  'win32-arm64': 'sha512-vfTIjq1OHnzUjxZcHVQAMbnggp8dpGf+0QKFOZHwWPqFwXxQC8eCWM+5NUdoJ6yrElCeMzoUTXoK/LdZaniB+Q==',
};

const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
export const RIPGREP_VERSION = manifest.dependencies['@vscode/ripgrep'];
const INTEGRITY_VERSION = '1.18.0';

export const exeOf = (target) => (target.startsWith('win32') ? 'rg.exe' : 'rg');
export const PACKAGES_DIR = join(root, 'dist', 'packages');
export const packagePath = (target) => join(PACKAGES_DIR, `needle-${target}.vsix`);

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', shell: process.platform === 'win32', ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status ?? r.signal}):\n${r.stderr}\n${r.stdout}`);
  return r.stdout;
}

/** The ripgrep binary of one @vscode/ripgrep platform package, fetched once into .cache/ripgrep/. */
export function ripgrepBinary(platformPkg) {
  const exe = platformPkg.startsWith('win32') ? 'rg.exe' : 'rg';
  const dir = join(root, '.cache', 'ripgrep', RIPGREP_VERSION, platformPkg);
  const bin = join(dir, exe);
  if (existsSync(bin)) return bin;
  if (RIPGREP_VERSION !== INTEGRITY_VERSION) throw new Error(`@vscode/ripgrep is ${RIPGREP_VERSION} but the pinned integrities are of ${INTEGRITY_VERSION}: update INTEGRITY in scripts/package-all.mjs (npm view @vscode/ripgrep-<platform>@<version> dist.integrity)`);
  const tmp = mkdtempSync(join(tmpdir(), 'needle-rg-'));
  try {
    const spec = `@vscode/ripgrep-${platformPkg}@${RIPGREP_VERSION}`;
    const [packed] = JSON.parse(run('npm', ['pack', spec, '--pack-destination', tmp, '--json', '--silent']));
    const tgz = join(tmp, packed.filename);
    const integrity = 'sha512-' + createHash('sha512').update(readFileSync(tgz)).digest('base64');
    if (integrity !== INTEGRITY[platformPkg]) throw new Error(`${spec}: integrity ${integrity} is not the pinned ${INTEGRITY[platformPkg]}`);
    run('tar', ['-xzf', tgz, '-C', tmp, `package/bin/${exe}`]);
    mkdirSync(dir, { recursive: true });
    renameSync(join(tmp, 'package', 'bin', exe), bin + '.part');
    chmodSync(bin + '.part', 0o755);
    renameSync(bin + '.part', bin); // atomic: a half-written binary is never taken for a cached one
    return bin;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** What the .vsix holds, staged in a folder of its own: the .vscodeignore'd set plus this target's ripgrep. */
function stage(target) {
  const dir = mkdtempSync(join(tmpdir(), `needle-package-${target}-`));
  for (const f of ['package.json', 'README.md', 'LICENSE', '.vscodeignore']) copyFileSync(join(root, f), join(dir, f));
  mkdirSync(join(dir, 'resources'));
  copyFileSync(join(root, 'resources', 'icon.png'), join(dir, 'resources', 'icon.png'));
  mkdirSync(join(dir, 'dist', 'bin'), { recursive: true });
  for (const f of readdirSync(join(root, 'dist'))) if (/\.(js|wasm)$/.test(f)) copyFileSync(join(root, 'dist', f), join(dir, 'dist', f));
  if (existsSync(join(root, 'dist', 'data'))) cpSync(join(root, 'dist', 'data'), join(dir, 'dist', 'data'), { recursive: true });
  const exe = exeOf(target);
  copyFileSync(ripgrepBinary(TARGETS[target]), join(dir, 'dist', 'bin', exe));
  chmodSync(join(dir, 'dist', 'bin', exe), 0o755);
  return dir;
}

export function packageTarget(target) {
  if (!TARGETS[target]) throw new Error(`unknown target ${target}; one of ${Object.keys(TARGETS).join(', ')}`);
  if (!existsSync(join(root, 'dist', 'server.js'))) throw new Error('dist/ is not built: run `npm run build` first');
  const dir = stage(target);
  try {
    mkdirSync(PACKAGES_DIR, { recursive: true });
    const out = packagePath(target);
    run('npx', ['--yes', VSCE, 'package', '--no-dependencies', '--target', target, '-o', out], { cwd: dir });
    const size = statSync(out).size;
    if (size >= MAX_PACKAGE_BYTES) throw new Error(`${out} is ${size} bytes, over the ${MAX_PACKAGE_BYTES} limit`);
    return { target, path: out, size };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** This machine's target (Alpine is told apart from other Linux by /etc/alpine-release). */
export function hostTarget() {
  const t = process.platform === 'linux' && existsSync('/etc/alpine-release') ? `alpine-${process.arch}` : `${process.platform}-${process.arch}`;
  if (!TARGETS[t]) throw new Error(`no package for this machine (${t}); targets: ${Object.keys(TARGETS).join(', ')}`);
  return t;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const targets = args.includes('--host') ? [hostTarget()] : args.length ? args : Object.keys(TARGETS);
  const started = Date.now();
  for (const t of targets) {
    const r = packageTarget(t);
    console.log(`${r.target.padEnd(12)} ${(r.size / 1024 / 1024).toFixed(2)} MB  ${r.path}`);
  }
  console.log(`${targets.length} package(s) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
