import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Test runs filled the disk with temp folders: each test file runs in its own process, which removes
// the folders made here when it exits (NEEDLE_KEEP_TEST_DIRS=1 keeps them, for debugging).
const made: string[] = [];
process.on('exit', removeTempDirs);

/** A fresh folder in the OS temp dir named `prefix` plus six random characters, removed at exit. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Removes every folder `tempDir` made (the exit handler); never throws. */
export function removeTempDirs(): void {
  if (process.env.NEEDLE_KEEP_TEST_DIRS === '1') return;
  for (const dir of made.splice(0)) {
    try { rmSync(dir, { recursive: true, force: true }); } catch { /* a folder left behind must not fail the run */ }
  }
}
