import { test } from 'node:test';
import assert from 'node:assert/strict';
import { calibrationMetrics, eceNoiseFloor, reviewShareFor, thresholdFor } from '../../bench/retrieval/calibration';
import { gateShareOfMedian, surfaceRecallOf, surfaceRecallSummary } from '../../bench/retrieval/score';

test('calibrationMetrics: ECE, Brier and review figures of a small set, by hand', () => {
  const pts = [
    { confidence: 0.95, sufficient: true, review: false },
    { confidence: 0.95, sufficient: false, review: false },
    { confidence: 0.15, sufficient: false, review: true },
    { confidence: 0.15, sufficient: false, review: true },
  ];
  const m = calibrationMetrics(pts);
  // Bin 0.9-1.0: mean 0.95, share 0.5 -> |0.45| × 2/4; bin 0.1-0.2: mean 0.15, share 0 -> 0.15 × 2/4.
  assert.ok(Math.abs(m.ece - (0.45 * 0.5 + 0.15 * 0.5)) < 1e-12, String(m.ece));
  assert.ok(Math.abs(m.brier - (0.05 ** 2 + 0.95 ** 2 + 2 * 0.15 ** 2) / 4) < 1e-12);
  assert.equal(m.reviewOverhead, 0.5);
  assert.equal(m.falseConfidenceOfTasks, 0.25);
  assert.ok(Math.abs(m.falseConfidenceRate! - 1 / 3) < 1e-12);
  assert.equal(m.auroc, 0.8333333333333334);
  // Reviewing the least confident 30 % (1 task) catches 1 of 3 insufficient.
  assert.ok(Math.abs(m.caughtAt.find((c) => c.review === 0.3)!.caught! - 1 / 3) < 1e-12);
  assert.equal(m.bins.reduce((s, b) => s + b.n, 0), 4);
});

test('thresholdFor keeps the review share within the target', () => {
  const pts = Array.from({ length: 50 }, (_, i) => ({ confidence: i / 50, sufficient: i >= 20 }));
  const free = thresholdFor(pts, 1);
  assert.ok(free >= 0.38 && free <= 0.42, `unconstrained τ ${free} separates at 0.4`);
  const tight = thresholdFor(pts, 0.2);
  assert.ok(pts.filter((p) => p.confidence < tight).length / pts.length <= 0.2, `τ ${tight}`);
  assert.ok(tight > 0.1, `τ ${tight} uses the review budget`);
});

test('the gate\'s share of the median request: 1 − median(total − gate) / median(total)', () => {
  assert.equal(gateShareOfMedian([]), NaN);
  const reqs = [{ gateMs: 1, serverMs: 10 }, { gateMs: 2, serverMs: 20 }, { gateMs: 30, serverMs: 40 }];
  // median total 20, median of (9, 18, 10) = 10: the gate is half of the median request
  assert.equal(gateShareOfMedian(reqs), 0.5);
  assert.equal(gateShareOfMedian([{ gateMs: 0, serverMs: 5 }, { serverMs: 7 }]), 0, 'untimed requests are left out');
});

test('surfaceRecallOf: D̂ entries match gold by file, name line and declared name; precision counts estimated entries only', () => {
  const root = '/ws';
  const gold = (name: string, file: string, line: number) => ({ qualified: name, name, kind: 'method' as const, file, line, maskedLine: line, crossFile: true, lineText: '', firstUseLine: 0 });
  const golds = [gold('save', 'a/Store.java', 4), gold('load', 'a/Store.java', 9), gold('Order', 'a/Order.java', 2)];
  const entry = (symbol: string, file: string, line: number, weight: number, written = false) => ({ symbol, kind: 'method', uri: `file://${root}/${file}`, line, internal: true, covered: false, novelty: 0.5, weight, ...(written ? { written } : {}) });
  const surface = [
    entry('a.Store#save(Order)', 'a/Store.java', 4, 0.4),
    entry('a.Store#load()', 'a/Store.java', 8, 0.3), // the wrong line: not the gold `load`
    entry('a.Store#flush()', 'a/Store.java', 12, 0.1),
    entry('a.Order', 'a/Order.java', 2, 1, true), // written: on D̂, not an estimated entry
  ];
  const r = surfaceRecallOf(golds, surface, root, [true, false, false]);
  assert.equal(r.onSurface, 2);
  assert.equal(r.estimated, 3);
  assert.equal(r.estimatedGold, 1);
  assert.equal(r.mass, 0.8);
  assert.equal(r.massOnGold, 0.4);
  assert.deepEqual(r.goldP, [0.4, 0, 1]);
  // load is missing from the context and not on D̂; Order is missing but on D̂.
  assert.equal(r.missedOffSurface, 1);
  assert.equal(r.missedOnSurface, 1);
  const m = surfaceRecallSummary([r, { ...r, gold: 1, onSurface: 0, estimated: 1, estimatedGold: 0, mass: 0.2, massOnGold: 0, missedOnSurface: 0, missedOffSurface: 1, goldP: [0] }]);
  assert.equal(m.recall, 2 / 4);
  assert.equal(m.precision, 1 / 4);
  assert.equal(m.missedOffShare, 2 / 3);
});

test('eceNoiseFloor: the ECE a calibrated predictor scores by chance, 0 when outcomes are certain, ~√(p(1−p)/n)·√(2/π) in one bin', () => {
  assert.equal(eceNoiseFloor([0, 1, 1, 0, 1]).mean, 0);
  const at = (n: number) => eceNoiseFloor(new Array<number>(n).fill(0.75)).mean;
  const expected = (n: number) => Math.sqrt((0.75 * 0.25) / n) * Math.sqrt(2 / Math.PI);
  assert.ok(Math.abs(at(140) - expected(140)) < 0.004, `${at(140)} vs ${expected(140)}`);
  assert.ok(Math.abs(eceNoiseFloor(new Array<number>(1400).fill(0.75), 500).mean - expected(1400)) < 0.0015, 'n = 1400');
  assert.equal(at(140), at(140), 'seeded: the same figure every run');
});

test('reviewShareFor: the least review share (least confident first) that leaves ≤ the false-confidence share unreviewed', () => {
  const pts = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95].map((confidence, i) => ({ confidence, sufficient: ![0, 2, 7].includes(i) }));
  // Insufficient at ranks 1, 3 and 8: ≤ 10 % of 10 tasks unreviewed means ≤ 1 missed, so review the first 3.
  assert.equal(reviewShareFor(pts, 0.1), 0.3);
  assert.equal(reviewShareFor(pts, 0), 0.8);
  assert.equal(reviewShareFor(pts, 0.3), 0);
});
