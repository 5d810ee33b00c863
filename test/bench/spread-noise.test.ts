import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spreadNoise } from '../../bench/retrieval/report';
import { mulberry32 } from '../../scripts/lib/prng.mjs';

const recallOf = (tasks: { gold: number; found: number }[]) => tasks.reduce((a, x) => a + x.found, 0) / tasks.reduce((a, x) => a + x.gold, 0);

/** `n` tasks of 2-9 gold symbols each, each found with probability `p`. */
function corpus(n: number, p: number, seed: number): { gold: number; found: number }[] {
  const r = mulberry32(seed);
  return Array.from({ length: n }, () => {
    const gold = 2 + Math.floor(r() * 8);
    let found = 0;
    for (let i = 0; i < gold; i++) if (r() < p) found++;
    return { gold, found };
  });
}

test('spreadNoise: the same tasks give the same figures, and each interval holds its corpus\'s recall', () => {
  const tasks = [corpus(40, 0.85, 1), corpus(40, 0.9, 2), corpus(40, 0.8, 3)];
  assert.deepEqual(spreadNoise(tasks), spreadNoise(tasks));
  tasks.forEach((t, i) => {
    const recall = recallOf(t);
    const [lo, hi] = spreadNoise(tasks).intervals[i];
    assert.ok(lo <= recall && recall <= hi, `corpus ${i}: ${recall} in ${lo}-${hi}`);
  });
  const flat = spreadNoise([[{ gold: 4, found: 3 }, { gold: 4, found: 3 }], corpus(40, 0.9, 4)]);
  assert.deepEqual(flat.intervals[0], [0.75, 0.75], 'identical tasks leave nothing to resample');
});

test('spreadNoise: corpora of one recall spread by chance, less with more tasks; a real difference stands out', () => {
  const equal40 = spreadNoise([1, 2, 3, 4, 5].map((s) => corpus(40, 0.85, s)));
  const equal320 = spreadNoise([1, 2, 3, 4, 5].map((s) => corpus(320, 0.85, s)));
  assert.ok(equal40.nullMedian > 0.05, `five corpora of 40 tasks spread by chance (median ${equal40.nullMedian})`);
  assert.ok(equal320.null95 < equal40.null95 / 2, `eight times the tasks, under half the chance spread (${equal320.null95} vs ${equal40.null95})`);
  const apart = [corpus(40, 0.5, 6), corpus(40, 0.95, 7)];
  const observed = Math.abs(recallOf(apart[0]) - recallOf(apart[1]));
  assert.ok(observed > spreadNoise(apart).null95, 'a spread of 45 points is no accident at 40 tasks');
});
