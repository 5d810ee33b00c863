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

test('gate: targeted follow-up fetches uncovered symbols by expected benefit and raises coverage', async () => {
  const index = await buildIndex();
  const target = targetAt(index, SERVICE, 20, 4);
  const items = [itemFor(index, target.ref.sym.id, ['enclosing'], 1)];
  const calls: string[][] = [];
  const v = (await gate(request(index, { threshold: 1 }), target, items, fakeApi(index, calls))) as RclVerdict;
  const before = coverageOf(dependencySurface(index, target), items);
  assert.equal(v.scenario, 'partial-body');
  assert.ok(calls.length >= 1 && calls.length <= 2);
  assert.ok(v.rounds === calls.length);
  assert.ok(v.coverage > before, `${v.coverage} > ${before}`);
  // One round may fetch every wanted entry that fits the budget (here: all of them).
  const wanted = v.dependencySurface.filter((e) => !items.some((it) => it.symbol === e.symbol) && (e.written || e.weight >= 0.02));
  assert.ok(calls[0].length >= wanted.length, `${calls[0].length} ids for ${wanted.length} wanted entries`);
  // What the body already calls is certain (p = 1) and fetched.
  const written = v.dependencySurface.filter((e) => e.written);
  assert.ok(written.some((e) => e.symbol === 'com.acme.text.Guard#requireText(String,String)'), written.map((e) => e.symbol).join(', '));
  for (const e of written) { assert.equal(e.weight, 1); assert.equal(e.covered, true, e.symbol); }
  // Follow-up items are marked; the original item stays first; items rank by expected benefit, not above everything.
  assert.equal(v.items[0].symbol, target.ref.sym.id);
  const fu = v.items.filter((i) => i.sources.includes('followup'));
  assert.ok(fu.length > 0);
  assert.ok(fu.every((i) => i.score <= 1 + 1e-9));
  assert.ok(v.confidence >= 1 ? !v.review : v.review);
  assert.equal(v.threshold, 1);
  assert.ok(v.uncertainty.repository >= 0 && v.uncertainty.repository <= 1);
});

test('gate: rounds run only below the follow-up target and are bounded by maxRounds', async () => {
  const index = await buildIndex();
  const target = targetAt(index, SERVICE, 20, 4);
  const all = dependencySurface(index, target).map((e) => itemFor(index, e.symbol, ['api'], 0.5));
  const calls: string[][] = [];
  const v = await gate(request(index, { threshold: 0.5 }), target, all, fakeApi(index, calls));
  assert.equal(v.coverage, 1);
  assert.equal(v.rounds, 0);
  assert.equal(calls.length, 0);
  // Follow-up aims at max(τ, FOLLOWUP_TARGET): tokens are cheaper than a review, so even τ 0 fetches; nothing is flagged.
  const calm = await gate(request(index, { threshold: 0 }), target, [], fakeApi(index, calls));
  assert.ok(calm.rounds >= 1);
  assert.equal(calm.review, false);
  assert.deepEqual(calm.reviewReasons, []);
  calls.length = 0;
  const none = await gate(request(index, { maxRounds: 0, threshold: 1 }), target, [], fakeApi(index, calls));
  assert.equal(none.rounds, 0);
  assert.equal(calls.length, 0);
});

test('gate: review with reasons naming what is missing and why follow-up could not close the gap', async () => {
  const index = await buildIndex();
  const target = targetAt(index, SERVICE, 20, 4);
  const api = { ...fakeApi(index), itemsForSymbols: () => [] };
  const v = await gate(request(index, { threshold: 0.999 }), target, [itemFor(index, target.ref.sym.id, ['enclosing'])], api);
  assert.equal(v.review, true);
  assert.equal(v.rounds, 1, 'nothing came back: no second round for the same ids');
  const text = v.reviewReasons.join('\n');
  assert.match(text, /P\(sufficient\) 0\.\d\d < τ 1\.00 for a partial-body/);
  assert.match(text, /symbols? the body already uses (is|are) not in context: [^\n]*Guard#requireText/);
  assert.match(text, /likely dependenc(y|ies) not in context: \S+ \(p [01]\.\d\d: /);
  assert.match(text, /follow-up retrieval found no declaration to show for/);
  // The size evidence lowers P with no symbol to name, so the reasons say what it read.
  const expected = v.gateFeatures?.predictedBodyRefs ?? 0;
  assert.ok(expected > 0, 'the body size model expects some references');
  assert.match(text, new RegExp(`bodies like this one reference about ${Math.round(expected)} declarations \\(the methods beside it [\\d.]+ on average`));
  // A budget too small for the follow-up declarations is named as the cause.
  const tight = await gate(request(index, { threshold: 0.999, budgetTokens: 60 }), target, [itemFor(index, target.ref.sym.id, ['enclosing'], 1)], fakeApi(index));
  assert.equal(tight.review, true);
  assert.ok(tight.items.reduce((s, i) => s + i.tokens, 0) <= 60 || tight.items.length === 1);
  assert.match(tight.reviewReasons.join('\n'), /the token budget could not hold: /);
});

test('gate without a target: outside-method, no verdict, a reason, no rounds', async () => {
  const index = await buildIndex();
  const v = (await gate(request(index), undefined, [], fakeApi(index))) as RclVerdict;
  assert.equal(v.scenario, 'outside-method');
  assert.deepEqual([v.confidence, v.review, v.rounds], [0, true, 0]);
  assert.equal(v.gateFeatures.judged, false);
  assert.match(v.reviewReasons.join('\n'), /no verdict: the cursor is not inside a method/);
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
