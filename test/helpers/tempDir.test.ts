// The temporary folders tests make are removed when the test process exits, unless
// NEEDLE_KEEP_TEST_DIRS=1. The exit itself is checked in a child: this same bundle, run by node
// with NEEDLE_TEMP_DIR_CHILD=1, makes a folder, prints its path and ends.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeTempDirs, tempDir } from './tempDir';

/** A temp folder holding a file and a nested folder. */
function filled(): string {
  const dir = tempDir('needle-tempdir-');
  mkdirSync(join(dir, 'a', 'b'), { recursive: true });
  writeFileSync(join(dir, 'a', 'b', 'f.txt'), 'x');
  return dir;
}

/** Runs this file as the child with NEEDLE_KEEP_TEST_DIRS set to `keep` (or unset); the folder it made. */
function childFolder(keep: string | undefined): string {
  const env: NodeJS.ProcessEnv = { ...process.env, NEEDLE_TEMP_DIR_CHILD: '1', NEEDLE_KEEP_TEST_DIRS: keep };
  if (keep === undefined) delete env.NEEDLE_KEEP_TEST_DIRS;
  delete env.NODE_TEST_CONTEXT; // the child is a plain node process, not one of the runner's
  const r = spawnSync(process.execPath, [__filename], { env, encoding: 'utf8', timeout: 30_000 });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /needle-tempdir-/);
  return r.stdout;
}

/** Runs `f` with NEEDLE_KEEP_TEST_DIRS set to `value` (or unset), then restores it. */
function withKeep(value: string | undefined, f: () => void): void {
  const before = process.env.NEEDLE_KEEP_TEST_DIRS;
  if (value === undefined) delete process.env.NEEDLE_KEEP_TEST_DIRS;
  else process.env.NEEDLE_KEEP_TEST_DIRS = value;
  try { f(); } finally {
    if (before === undefined) delete process.env.NEEDLE_KEEP_TEST_DIRS;
    else process.env.NEEDLE_KEEP_TEST_DIRS = before;
  }
}

if (process.env.NEEDLE_TEMP_DIR_CHILD === '1') {
  process.stdout.write(filled());
} else {
  test('tempDir: the folders a process made are gone once it exits', () => {
    const dir = childFolder(undefined);
    assert.equal(existsSync(dir), false, `${dir} is left behind`);
  });

  test('tempDir: NEEDLE_KEEP_TEST_DIRS=1 keeps them after the exit', () => {
    const dir = childFolder('1');
    try {
      assert.equal(existsSync(join(dir, 'a', 'b', 'f.txt')), true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('removeTempDirs removes every folder made, with its content, and tolerates one already gone', () => {
    const [a, b, gone] = [filled(), filled(), filled()];
    rmSync(gone, { recursive: true });
    withKeep(undefined, () => assert.doesNotThrow(removeTempDirs));
    for (const d of [a, b]) assert.equal(existsSync(d), false, `${d} is left behind`);
    withKeep(undefined, () => assert.doesNotThrow(removeTempDirs)); // nothing left to do
  });

  test('removeTempDirs keeps the folders when NEEDLE_KEEP_TEST_DIRS=1', () => {
    const dir = filled();
    withKeep('1', removeTempDirs);
    assert.equal(existsSync(dir), true);
    withKeep(undefined, removeTempDirs);
    assert.equal(existsSync(dir), false);
  });
}
