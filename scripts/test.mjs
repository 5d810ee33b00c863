// Runs every bundled test (dist/test/**/*.test.js) with node's built-in runner.
// Node 20's runner takes no globs, so we list the files. Extra arguments filter by substring.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const dir = join(process.cwd(), 'dist/test');
const files = [];
(function walk(d) {
  for (const name of readdirSync(d).sort()) {
    const full = join(d, name);
    if (statSync(full).isDirectory()) walk(full);
    else if (name.endsWith('.test.js')) files.push(full);
  }
})(dir);
const filters = process.argv.slice(2);
const chosen = filters.length ? files.filter((f) => filters.some((x) => f.includes(x))) : files;
const r = spawnSync(process.execPath, ['--test', '--test-reporter=spec', ...chosen], { stdio: 'inherit' });
process.exit(r.status ?? 1);
