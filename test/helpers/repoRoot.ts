import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The repository's root, found from a bundled test's folder (dist/test/<area>/) upwards. */
export function repoRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'bench', 'oracle', 'oracle.mjs'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('repository root not found');
    dir = up;
  }
  return dir;
}
