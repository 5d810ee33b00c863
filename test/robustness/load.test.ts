// A short load run in the normal test run: concurrent retrievals while a writer edits files
// through didChange and on disk; no request may fail and the server must stay up.
// The long version with figures is `npm run bench:load` (bench/load.bench.ts).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runLoad, runOpenLoop } from './load';

test('load (short): 20 concurrent retrievals while files are edited, no errors', { timeout: 120_000 }, async (t) => {
  const r = await runLoad({
    seconds: Number(process.env.NEEDLE_LOAD_SECONDS ?? 5), concurrency: Number(process.env.NEEDLE_LOAD_CONCURRENCY ?? 20),
    idleRequests: 5, writerIntervalMs: 50, settleMemory: false, log: (m) => t.diagnostic(m),
  });
  t.diagnostic(`load: ${JSON.stringify({ ...r, errors: r.errors.slice(0, 5) })}`);
  assert.deepEqual(r.errors.slice(0, 10), []);
  assert.ok(r.requests >= 20, `only ${r.requests} requests answered`);
  assert.ok(r.edits >= 20, `only ${r.edits} edits`);
  assert.ok(r.serverAlive && !r.stderrProblems);
});

test('open-loop load (short): Poisson arrivals from open documents while one is typed into, every request answered', { timeout: 120_000 }, async (t) => {
  const r = await runOpenLoop({ rates: [3], secondsPerRate: 4, documents: 3, idleRequests: 3, keystrokeMs: 100, log: (m) => t.diagnostic(m) });
  const [x] = r.rates;
  assert.ok(x.sent >= 3, `arrivals: ${x.sent}`);
  assert.equal(x.errors, 0);
  assert.equal(x.answered, x.sent);
  assert.ok(x.p50 > 0 && x.p95 >= x.p50 && x.max >= x.p95);
  assert.equal(r.highestRateWithin3x, x.ratioP95 <= 3 ? 3 : 0);
});
