// Every benchmark answers --help with its usage and stops, instead of ignoring the flag and starting
// a run of many minutes (an unknown flag is otherwise ignored).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const BENCH_DIST = join(__dirname, '..', '..', 'bench');

test('each benchmark prints its header comment for --help and exits 0 without running', () => {
  const benches = readdirSync(BENCH_DIST).filter((f) => f.endsWith('.bench.js')).sort();
  assert.ok(benches.length >= 10, `benchmarks found: ${benches.join(', ')}`);
  for (const bench of benches) {
    const r = spawnSync(process.execPath, [join(BENCH_DIST, bench), '--help'], { encoding: 'utf8', timeout: 20_000, cwd: join(__dirname, '..', '..', '..') });
    assert.equal(r.status, 0, `${bench}: exit ${r.status} ${r.signal ?? ''} ${r.stderr.slice(0, 300)}`);
    assert.match(r.stdout, /npm run|node dist\/bench\/|\.bench\./, `${bench}: no usage printed: ${r.stdout.slice(0, 200)}`);
    assert.doesNotMatch(r.stdout, /server ready|eligible methods/, `${bench}: started a run`);
  }
});
