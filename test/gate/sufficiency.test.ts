import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SurfaceEntry } from '../../shared/protocol';
import { coverageOf, itemCovers, markCovered } from '../../server/src/gate/coverage';
import { combineConfidence, confidenceOf } from '../../server/src/gate/confidence';
import { dependencySurface } from '../../server/src/gate/surface';
import { calibrateThreshold, DEFAULT_THRESHOLD, gate, type RclVerdict } from '../../server/src/gate/sufficiency';
import { buildIndex, fakeApi, itemFor, request, SERVICE, targetAt } from './helpers';

const entry = (symbol: string, weight: number, novelty: number, line = 3): SurfaceEntry =>
  ({ symbol, kind: 'method', uri: 'file:///ws/A.java', line, internal: true, covered: false, novelty, weight });
const item = (start: number, end: number, text: string) =>
  ({ uri: 'file:///ws/A.java', range: { start: { line: start, character: 0 }, end: { line: end, character: 0 } }, text, tokens: 10, score: 1, sources: ['lexical' as const], untrusted: true as const });

test('coverage: weighted share of surface declarations whose name line is shown', () => {
  const s = [entry('p.A#foo()', 3, 0.5, 3), entry('p.A#bar()', 1, 0.5, 8)];
  assert.equal(coverageOf(s, []), 0);
  assert.equal(coverageOf(s, [item(2, 5, 'void foo() {\n…\n}')]), 0.75);
  assert.equal(coverageOf(s, [item(2, 9, 'void foo() {}\nvoid bar() {}')]), 1);
  // Spanning the line without the name (e.g. elided) does not count; another file does not count.
  assert.equal(coverageOf(s, [item(2, 5, '// …')]), 0);
  assert.equal(itemCovers({ ...item(2, 5, 'void foo()'), uri: 'file:///ws/B.java' }, s[0]), false);
  // Word match only: `foobar` does not show `foo`.
  assert.equal(coverageOf([s[0]], [item(2, 5, 'void foobar()')]), 0);
  // An item declaring the symbol counts even if its lines were renumbered.
  assert.equal(coverageOf([s[0]], [{ ...item(40, 41, 'x'), symbol: 'p.A#foo()' }]), 1);
  assert.equal(coverageOf([], []), 1);
});

test('confidence: 1 − (1 − coverage) × novelty of the uncovered surface', () => {
  assert.equal(combineConfidence(1, 0.9), 1);
  assert.equal(combineConfidence(0.2, 0), 1);
  assert.ok(Math.abs(combineConfidence(0.5, 0.8) - 0.6) < 1e-12);
  for (let c = 0; c <= 1; c += 0.1) for (let n = 0; n < 1; n += 0.1) {
    assert.ok(combineConfidence(c + 0.1, n) >= combineConfidence(c, n) - 1e-12, 'non-decreasing in coverage');
    assert.ok(combineConfidence(c, n + 0.1) <= combineConfidence(c, n) + 1e-12, 'non-increasing in novelty');
  }
  // Full coverage of a novel surface: confidence 1.
  const full = markCovered([entry('p.A#foo()', 1, 0.95)], [item(2, 5, 'foo')]);
  assert.deepEqual(confidenceOf(full), { coverage: 1, novelty: 0, confidence: 1 });
  // A gap on a familiar symbol hurts less than the same gap on a novel one.
  const familiar = confidenceOf([entry('p.A#foo()', 1, 0.1), { ...entry('p.A#bar()', 1, 0.9, 8), covered: true }]);
  const novel = confidenceOf([entry('p.A#foo()', 1, 0.9), { ...entry('p.A#bar()', 1, 0.1, 8), covered: true }]);
  assert.equal(familiar.coverage, novel.coverage);
  assert.ok(familiar.confidence > novel.confidence);
});

test('gate: targeted follow-up fetches uncovered symbols and raises coverage', async () => {
  const index = await buildIndex();
  const target = targetAt(index, SERVICE, 20, 4);
  const items = [itemFor(index, target.ref.sym.id, ['enclosing'], 1)];
  const calls: string[][] = [];
  const v = (await gate(request(index), target, items, fakeApi(index, calls))) as RclVerdict;
  const before = coverageOf(dependencySurface(index, target), items);
  assert.ok(calls.length >= 1 && calls.length <= 2);
  assert.ok(v.rounds === calls.length);
  assert.ok(v.coverage > before, `${v.coverage} > ${before}`);
  // The first request is ordered by novelty × weight.
  const sBy = new Map(v.dependencySurface.map((e) => [e.symbol, e]));
  const firstKeys = calls[0].map((id) => sBy.get(id)!.novelty * sBy.get(id)!.weight);
  for (let i = 1; i < firstKeys.length; i++) assert.ok(firstKeys[i - 1] >= firstKeys[i] - 1e-4);
  const top = dependencySurface(index, target).filter((e) => !items.some((it) => it.symbol === e.symbol))
    .sort((a, b) => b.novelty * b.weight - a.novelty * a.weight || b.weight - a.weight || (a.symbol < b.symbol ? -1 : 1))[0];
  assert.ok(calls[0].includes(top.symbol), top.symbol);
  // Follow-up items are marked and kept; the original item stays first.
  assert.equal(v.items[0].symbol, target.ref.sym.id);
  assert.ok(v.items.some((i) => i.sources.includes('followup')));
  assert.ok(v.confidence >= 0.7 ? !v.review : v.review);
  assert.equal(v.threshold, 0.7);
  assert.ok(v.uncertainty.repository >= 0 && v.uncertainty.repository <= 1);
  // Covered flags agree with the items.
  assert.equal(v.dependencySurface.find((e) => e.symbol === top.symbol)!.covered, true);
});

test('gate: no rounds when confidence is already above τ; rounds bounded by maxRounds', async () => {
  const index = await buildIndex();
  const target = targetAt(index, SERVICE, 20, 4);
  const all = dependencySurface(index, target).map((e) => itemFor(index, e.symbol, ['api'], 0.5));
  const calls: string[][] = [];
  const v = await gate(request(index), target, all, fakeApi(index, calls));
  assert.equal(v.coverage, 1);
  assert.equal(v.confidence, 1);
  assert.equal(v.rounds, 0);
  assert.equal(calls.length, 0);
  assert.equal(v.review, false);
  assert.deepEqual(v.reviewReasons, []);
  const none = await gate(request(index, { maxRounds: 0 }), target, [], fakeApi(index, calls));
  assert.equal(none.rounds, 0);
  assert.equal(calls.length, 0);
});

test('gate: review with reasons naming what is missing when follow-up cannot close the gap', async () => {
  const index = await buildIndex();
  const target = targetAt(index, SERVICE, 20, 4);
  const api = { ...fakeApi(index), itemsForSymbols: () => [] };
  const v = await gate(request(index, { threshold: 0.95 }), target, [itemFor(index, target.ref.sym.id, ['enclosing'])], api);
  assert.equal(v.review, true);
  assert.equal(v.rounds, 2);
  const text = v.reviewReasons.join('\n');
  assert.match(text, /confidence 0\.\d\d < τ 0\.95 after 2 follow-up rounds/);
  assert.match(text, /internal symbols not in context: \S+ \(novelty 0\.\d\d, weight [01]\.\d\d: /);
  assert.match(text, /follow-up retrieval found no declaration for/);
  // A budget too small for the follow-up declarations is named as the cause.
  const tight = await gate(request(index, { threshold: 0.99, budgetTokens: 60 }), target, [itemFor(index, target.ref.sym.id, ['enclosing'], 1)], fakeApi(index));
  assert.equal(tight.review, true);
  assert.ok(tight.items.reduce((s, i) => s + i.tokens, 0) <= 60 || tight.items.length === 1);
});

test('gate without a target: empty surface, full confidence', async () => {
  const index = await buildIndex();
  const v = await gate(request(index), undefined, [], fakeApi(index));
  assert.deepEqual([v.coverage, v.novelty, v.confidence, v.review, v.rounds], [1, 0, 1, false, 0]);
});

test('calibrateThreshold picks a τ separating sufficient from insufficient points', () => {
  assert.ok(DEFAULT_THRESHOLD > 0 && DEFAULT_THRESHOLD < 1);
  const points = [
    ...[0.95, 0.9, 0.88, 0.8, 0.75, 0.97, 0.85].map((confidence) => ({ confidence, sufficient: true })),
    ...[0.2, 0.35, 0.5, 0.55, 0.6, 0.4].map((confidence) => ({ confidence, sufficient: false })),
  ];
  const c = calibrateThreshold(points);
  assert.ok(c.tau > 0.6 && c.tau <= 0.75, `τ ${c.tau}`);
  assert.equal(c.best.falseReviewRate, 0);
  assert.equal(c.best.falseConfidenceRate, 0);
  assert.equal(c.curve.length, 101);
  assert.deepEqual(c.curve[0], { tau: 0, falseReviewRate: 0, falseConfidenceRate: 1, reviewRate: 0, cost: 1 });
  // Overlapping classes: weighting undetected risk higher moves τ up.
  const noisy = [...points, { confidence: 0.82, sufficient: false }, { confidence: 0.65, sufficient: true }];
  assert.ok(calibrateThreshold(noisy, { costFalseConfidence: 3 }).tau >= calibrateThreshold(noisy).tau);
});
