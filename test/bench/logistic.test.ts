// The IRLS fitter behind `npm run fit:surface` (bench/surface/logistic.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fitLogistic, sigmoid, solveSymmetric } from '../../bench/surface/logistic';

/** Rows on a grid with the expected label share at each point as fractional counts (exact, deterministic). */
function grid(beta: number[]): { x: number[][]; y: number[] } {
  const x: number[][] = [], y: number[] = [];
  for (let a = -2; a <= 2; a += 0.25) for (const b of [0, 1]) {
    const p = sigmoid(beta[0] + beta[1] * a + beta[2] * b);
    // 20 rows per point, round(20 p) of them positive
    const pos = Math.round(20 * p);
    for (let k = 0; k < 20; k++) { x.push([1, a, b]); y.push(k < pos ? 1 : 0); }
  }
  return { x, y };
}

test('IRLS recovers the coefficients of a logistic model; L2 shrinks all but the intercept', () => {
  const truth = [-1, 1.5, 0.8];
  const { x, y } = grid(truth);
  const free = fitLogistic(x, y, { l2: 0, unpenalised: [0] });
  assert.ok(free.converged);
  free.beta.forEach((b, j) => assert.ok(Math.abs(b - truth[j]) < 0.1, `beta[${j}] = ${b}`));
  const shrunk = fitLogistic(x, y, { l2: 50, unpenalised: [0] });
  assert.ok(Math.abs(shrunk.beta[1]) < Math.abs(free.beta[1]) && Math.abs(shrunk.beta[2]) < Math.abs(free.beta[2]));
  // Deterministic: the same data give the same table.
  assert.deepEqual(fitLogistic(x, y, { l2: 1, unpenalised: [0] }), fitLogistic(x, y, { l2: 1, unpenalised: [0] }));
});

test('an offset shifts the linear predictor: the fit absorbs a constant offset into the intercept', () => {
  const { x, y } = grid([-1, 1.5, 0.8]);
  const base = fitLogistic(x, y, { l2: 0, unpenalised: [0] });
  const shifted = fitLogistic(x, y, { l2: 0, unpenalised: [0], offsets: x.map(() => 0.5) });
  assert.ok(Math.abs(shifted.beta[0] - (base.beta[0] - 0.5)) < 1e-6);
  assert.ok(Math.abs(shifted.beta[1] - base.beta[1]) < 1e-6);
});

test('solveSymmetric solves a positive definite system; a column without data gets step 0', () => {
  const s = solveSymmetric([[4, 2], [2, 3]], [2, 1]);
  assert.ok(Math.abs(4 * s[0] + 2 * s[1] - 2) < 1e-12 && Math.abs(2 * s[0] + 3 * s[1] - 1) < 1e-12);
  const [a, b] = solveSymmetric([[2, 0], [0, 0]], [4, 7]);
  assert.ok(Math.abs(a - 2) < 1e-12);
  assert.equal(b, 0);
});
