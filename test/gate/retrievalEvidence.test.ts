// Retrieval's own evidence for the calibrated confidence: the member model's left-out candidates
// compound as Π (1 − p), what the written part leaves open, and the pooled model's design rows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ContextItem, GateFeatures, SurfaceEntry } from '../../shared/protocol';
import { retrievalEvidence } from '../../server/src/gate/retrievalEvidence';
import { designRow, GATE_COLUMNS, TO_WRITE } from '../../server/src/gate/calibration';
import type { Target } from '../../server/src/retrieval/request';
import { retrieve } from '../../server/src/retrieval/pipeline';
import { bodyOf, gate, type RclVerdict } from '../../server/src/gate/sufficiency';
import { fixture, SHOP } from '../retrieval/fixture';

const URI = 'file:///ws/A.java';
const item = (start: number, end: number, text: string, symbols?: string[]): ContextItem & { symbols?: string[] } =>
  ({ uri: URI, range: { start: { line: start, character: 0 }, end: { line: end, character: 0 } }, text, tokens: 10, score: 1, sources: ['lexical'], untrusted: true, ...(symbols ? { symbols } : {}) });
const written = (symbol: string, kind = 'method'): SurfaceEntry => ({ symbol, kind, uri: URI, line: 50, internal: true, covered: false, novelty: 0.5, weight: 1, written: true });
const target = { ref: { sym: { id: 'p.A#self()', span: { sl: 0, sc: 0, el: 6, ec: 1 } } } } as unknown as Target;

test('left-out candidates compound as Σ log(1 − p); shown ones, written references and the cursor\'s own method do not', () => {
  const candidates = [
    { symbol: 'p.A#foo()', uri: URI, line: 3, p: 0.6 }, // shown by the item below
    { symbol: 'p.A#bar()', uri: URI, line: 8, p: 0.5 },
    { symbol: 'p.A#baz()', uri: URI, line: 9, p: 0.2 },
    { symbol: 'p.A#used()', uri: URI, line: 10, p: 0.9 }, // written: the written factor's business
    { symbol: 'p.A#self()', uri: URI, line: 0, p: 0.99 },
  ];
  const f = retrievalEvidence(candidates, [written('p.A#used()')], [item(2, 4, 'void foo() {}')], target, undefined, { line: 0, character: 0 });
  assert.ok(Math.abs(f.leftOutLogP - Math.log(0.5 * 0.8)) < 1e-3, String(f.leftOutLogP));
  assert.equal(f.leftOutMass, 0.7);
  assert.equal(f.leftOutMaxP, 0.5);
  assert.equal(f.shownMass, 0.6);
  // Showing bar() too takes its risk away: P(none left out is needed) rises.
  const more = retrievalEvidence(candidates, [written('p.A#used()')], [item(2, 4, 'void foo() {}'), item(8, 8, 'void bar() {}')], target, undefined, { line: 0, character: 0 });
  assert.ok(more.leftOutLogP > f.leftOutLogP && more.leftOutMass < f.leftOutMass);
  // A near-certain candidate left out is bounded, not −∞.
  assert.ok(Number.isFinite(retrievalEvidence([{ symbol: 'p.A#x()', uri: URI, line: 3, p: 1 }], [], [], target, undefined, { line: 0, character: 0 }).leftOutLogP));
});

test('written half: blocks open at the cursor, and written types of which no further member is shown', () => {
  const text = ['void self() {', '  for (int i = 0; i < n; i++) {', '    if (x) { y(); }', '    String s = "{";', '    ', '  }', '}'].join('\n');
  const at = (line: number) => retrievalEvidence([], [], [], target, text, { line, character: 4 }).openBlocks;
  assert.equal(at(4), 1, 'inside the for loop (the if closed, the brace in a string does not count)');
  assert.equal(at(0), 0, 'on the signature');
  // An annotation's array argument before the name or on a parameter is not the body's brace.
  const annotated = ['@SuppressWarnings({"unchecked", "rawtypes"})', 'void self(@Size({1, 2}) int n) {', '  if (x) {', '    ', '  }', '}'].join('\n');
  const annotatedTarget = { ref: { sym: { id: 'p.A#self()', span: { sl: 0, sc: 0, el: 5, ec: 1 } } } } as unknown as Target;
  const atAnnotated = (line: number) => retrievalEvidence([], [], [], annotatedTarget, annotated, { line, character: 4 }).openBlocks;
  assert.equal(atAnnotated(3), 1, 'inside the if of the body');
  assert.equal(atAnnotated(1), 0, 'on the signature, past the annotations');
  assert.equal(bodyOf(annotated, { sl: 0, el: 5 })?.text, '\n  if (x) {\n    \n  }\n}', 'the body text starts at the body brace');
  const surface = [written('p.B#get()'), written('p.C', 'class')];
  const bare = (items: (ContextItem & { symbols?: string[] })[]) => retrievalEvidence([], surface, items, target, undefined, { line: 0, character: 0 }).writtenTypesBare;
  assert.equal(bare([]), 2);
  assert.equal(bare([item(1, 9, 'class B { get(); put(); }', ['p.B#get()'])]), 2, 'the written member itself does not count');
  assert.equal(bare([item(1, 9, 'class B { get(); put(); }', ['p.B#get()', 'p.B#put()'])]), 1);
});

test('the pooled model: new and partial bodies share the to-write slopes, an existing body reads none of them', () => {
  const f = { scenario: 'new-body', judged: true, compound: 0.5, uncoveredMass: 1, uncoveredWritten: 0, writtenRefs: 0, writtenLines: 0, unresolvedNames: 0, surfaceSize: 3, budgetShare: 0.5, leftOutLogP: -1.5, leftOutMass: 1.2 } as GateFeatures;
  const shared = GATE_COLUMNS.map((c, j) => (c.endsWith('×to-write') ? j : -1)).filter((j) => j >= 0);
  assert.ok(shared.length > 0 && GATE_COLUMNS.includes('left-out-log-p×to-write'));
  assert.deepEqual(TO_WRITE, ['new-body', 'partial-body']);
  const row = (scenario: GateFeatures['scenario']) => designRow({ ...f, scenario });
  assert.deepEqual(shared.map((j) => row('partial-body')[j]), shared.map((j) => row('new-body')[j]));
  assert.equal(row('new-body')[GATE_COLUMNS.indexOf('left-out-log-p×to-write')], -1.5);
  assert.ok(shared.every((j) => row('existing-body')[j] === 0));
  for (const sc of ['new-body', 'partial-body', 'existing-body'] as const) assert.equal(row(sc)[GATE_COLUMNS.indexOf(sc)], 1);
});

test('the pipeline hands the gate the candidates packing weighed; left-out evidence reaches the features', async () => {
  const { req } = await fixture(SHOP);
  let seen: { target: Parameters<typeof gate>[1]; api: Parameters<typeof gate>[3] } | undefined;
  const r = await retrieve(req, (rq, target, items, api, evidence) => { seen = { target, api }; return gate(rq, target, items, api, evidence); });
  assert.ok(seen?.target, 'the gate was asked about the cursor method');
  const f = r.gateFeatures!;
  assert.ok(f, 'features reported');
  assert.ok((f.shownMass ?? 0) > 0, `the shown candidates carry probability: ${JSON.stringify(f)}`);
  assert.ok(f.leftOutLogP !== undefined && f.leftOutLogP <= 0 && f.leftOutMass !== undefined && f.leftOutMaxP !== undefined);
  // Without retrieval's evidence the gate sees no candidates at all.
  const v = (await gate(req, seen.target, r.items, seen.api)) as RclVerdict;
  assert.equal(v.gateFeatures.shownMass, 0);
});
