import { test } from 'node:test';
import assert from 'node:assert/strict';
import { calibrationMetrics, thresholdFor } from '../../bench/retrieval/calibration';
import { gateShareOfMedian } from '../../bench/retrieval/score';

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
