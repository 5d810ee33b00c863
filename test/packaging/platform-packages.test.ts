// The seven platform packages `npm run package:all` builds (dist/packages/needle-<target>.vsix):
// each under 8 MB, its manifest's target, exactly its own ripgrep. Without the packages the test
// skips, except under CI, where .ci/run builds them first and they are required. The inspector
// itself is shown to catch a package that lacks its ripgrep or carries another platform's.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../editors/helpers';
import { readZip, writeZip } from '../helpers/zip';
import { EXPECTED, packageProblems } from './inspect';

const MAX_BYTES = 8 * 1024 * 1024;
const vsixOf = (target: string) => join(ROOT, 'dist', 'packages', `needle-${target}.vsix`);
const missing = Object.keys(EXPECTED).filter((t) => !existsSync(vsixOf(t)));
const skip = missing.length && !process.env.CI ? `not built: ${missing.join(', ')} (npm run package:all)` : false;

test('platform packages: seven targets, each under 8 MB, each with exactly its own ripgrep', { skip }, (t) => {
  assert.deepEqual(missing, [], 'npm run package:all builds every target');
  for (const target of Object.keys(EXPECTED)) {
    const path = vsixOf(target);
    const size = statSync(path).size;
    assert.ok(size < MAX_BYTES, `${target}: ${size} bytes`);
    assert.deepEqual(packageProblems(readZip(readFileSync(path)), target), [], target);
    t.diagnostic(`${target}: ${(size / 1024 / 1024).toFixed(2)} MB`);
  }
});

test('the package inspector refuses a wrong target, a foreign ripgrep, a missing one and a stray one', { skip }, () => {
  const linux = readZip(readFileSync(vsixOf('linux-x64')));
  const win = readZip(readFileSync(vsixOf('win32-arm64')));
  // The linux-x64 package taken for darwin-arm64: the manifest and the binary both say otherwise.
  const asMac = packageProblems(linux, 'darwin-arm64');
  assert.ok(asMac.some((p) => /manifest target linux-x64/.test(p)), asMac.join('; '));
  assert.ok(asMac.some((p) => /^extension\/dist\/bin\/rg is linux-x64( static)?, not darwin-arm64$/.test(p)), asMac.join('; '));
  // Right manifest, the other CPU's binary in its place.
  const manifestOf = (entries: typeof linux, target: string) => entries.map((e) => e.name === 'extension.vsixmanifest' ? { ...e, data: Buffer.from(e.data.toString('utf8').replace(/TargetPlatform="[^"]*"/, `TargetPlatform="${target}"`)) } : e);
  const armBinary = readZip(readFileSync(vsixOf('linux-arm64'))).find((e) => e.name === 'extension/dist/bin/rg')!;
  const swapped = manifestOf(linux, 'linux-x64').map((e) => (e.name === 'extension/dist/bin/rg' ? { ...armBinary } : e));
  const swappedProblems = packageProblems(swapped, 'linux-x64');
  assert.equal(swappedProblems.length, 1, swappedProblems.join('; '));
  assert.match(swappedProblems[0], /^extension\/dist\/bin\/rg is linux-arm64( static)?, not linux-x64$/);
  // Lacking its binary (written out and read back, as a .vsix would be).
  const without = readZip(writeZip(linux.filter((e) => !e.name.endsWith('/rg'))));
  assert.deepEqual(packageProblems(without, 'linux-x64'), ['lacks its ripgrep extension/dist/bin/rg']);
  // Carrying another platform's as well.
  const extra = [...linux, { name: 'extension/dist/bin/rg.exe', data: win.find((e) => e.name.endsWith('rg.exe'))!.data, mode: 0o644 }];
  assert.deepEqual(packageProblems(extra, 'linux-x64'), ['carries another binary extension/dist/bin/rg.exe (win32-arm64)']);
  // Alpine needs the static build.
  assert.deepEqual(packageProblems(manifestOf(linux, 'alpine-x64'), 'alpine-x64'), []);
});
