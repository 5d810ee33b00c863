// Scenarios told apart from the text at the cursor, and bad input that must not become a confident
// verdict: a method that does not parse, names that resolve to nothing, a stub with only a
// comment, a cursor outside any method.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bracketsBalance, judgeScenario } from '../../server/src/gate/scenario';
import { codeOnly } from '../../server/src/java/lexer';
import { gate, knownMissingNeeds, mustReview, type RclVerdict } from '../../server/src/gate/sufficiency';
import { FILES } from './fixtures';
import { buildIndex, fakeApi, itemFor, request, targetAt } from './helpers';

const PATH = '/ws/src/com/acme/order/Drafts.java';
const withFile = (body: string): Record<string, string> => ({
  ...FILES,
  [PATH]: `package com.acme.order;

import com.acme.text.Guard;

public class Drafts {
  public String draft(Order order) {
${body}
  }

  public int size() { return 1; }
}
`,
});

async function judge(body: string, line: number, character: number) {
  const files = withFile(body);
  const index = await buildIndex(files);
  const target = targetAt(index, PATH, 5, 18);
  return { index, target, files, j: judgeScenario(files[PATH], target, { line, character }) };
}

test('codeOnly drops comments and empties literals; brackets are checked on code only', () => {
  const { code, closed } = codeOnly('a("}") // }\n/* { */ b(\'{\');');
  assert.equal(closed, true);
  assert.ok(!code.includes('//') && !code.includes('/*'));
  assert.ok(bracketsBalance(code), code);
  assert.equal(codeOnly('"open').closed, false);
  assert.equal(bracketsBalance('if (x { y(); }'), false);
});

test('scenario: empty, comment-only and throwing stubs are new bodies', async () => {
  assert.equal((await judge('', 6, 4)).j.scenario, 'new-body');
  const comment = (await judge('    // TODO write the draft', 6, 4)).j;
  assert.equal(comment.scenario, 'new-body');
  assert.match(comment.why, /only comments/);
  assert.equal((await judge('    throw new UnsupportedOperationException("not yet");', 6, 4)).j.scenario, 'new-body');
});

test('scenario: cursor after the written part is partial; code after the cursor or a cursor on the name is existing', async () => {
  const body = '    String id = Guard.requireText(order.getId(), "id");\n    \n';
  assert.equal((await judge(body, 7, 4)).j.scenario, 'partial-body');
  const full = '    String id = Guard.requireText(order.getId(), "id");\n    return id;';
  assert.equal((await judge(full, 6, 4)).j.scenario, 'existing-body');
  assert.equal((await judge(full, 5, 18)).j.scenario, 'existing-body');
  // Auto-closed braces after the cursor still leave it at the end of what is written.
  const open = '    if (order != null) {\n      Guard.requireText(order.getId());\n      \n    }';
  assert.equal((await judge(open, 8, 6)).j.scenario, 'partial-body');
});

test('bad input: a method that does not parse gets a scenario, no verdict and a reason', async () => {
  // Unbalanced: the parser recovers no declaration in the file at all, so there is no target.
  const files = withFile('    if (order.getId( {\n      Guard.requireText("x");\n');
  const index = await buildIndex(files);
  const v = (await gate(request(index, { textOf: (p) => files[p], path: PATH, position: { line: 6, character: 4 }, threshold: Number.NaN }), index.enclosingSymbol(PATH, 6, 4) && targetAt(index, PATH, 6, 4), [], fakeApi(index, [], files))) as RclVerdict;
  assert.equal(v.scenario, 'partial-body');
  assert.equal(v.confidence, 0);
  assert.equal(v.review, true);
  assert.equal(v.gateFeatures.judged, false);
  assert.match(v.reviewReasons.join('\n'), /no verdict: the method does not parse/);
  // A method that is read but whose brackets do not close is judged the same way.
  const j = judgeScenario('class A {\n  void f() {\n    g((1);\n  }\n}', { ref: { sym: { kind: 'method', span: { sl: 1, sc: 2, el: 3, ec: 3 } } } } as never, { line: 2, character: 4 });
  assert.equal(j.parses, false);
  assert.equal(j.scenario, 'partial-body');
});

test('bad input: names that resolve to nothing are certain needs the context cannot show', async () => {
  const body = '    Ledger.post(order);\n    return frobnicate(order);';
  const { index, target, files } = await judge(body, 5, 18);
  const items = [itemFor(index, target.ref.sym.id, ['enclosing'], 1, files)];
  const v = (await gate(request(index, { textOf: (p) => files[p], path: PATH, position: { line: 5, character: 18 }, threshold: Number.NaN }), target, items, fakeApi(index, [], files))) as RclVerdict;
  assert.equal(v.scenario, 'existing-body');
  assert.ok(v.gateFeatures.unresolvedNames >= 1, JSON.stringify(v.gateFeatures));
  assert.equal(v.gateFeatures.writtenFactor, 0, 'a certain need no context can show');
  assert.ok(v.confidence < 0.5, `confidence ${v.confidence}`);
  assert.equal(v.review, true);
  assert.match(v.reviewReasons.join('\n'), /resolves? to no declaration in the workspace: .*frobnicate/);
});

test('bad input: a stub with only a comment is judged as a new body, with a probability and no crash', async () => {
  const { index, target, files } = await judge('    // TODO', 6, 4);
  const v = (await gate(request(index, { textOf: (p) => files[p], path: PATH, position: { line: 6, character: 4 }, threshold: Number.NaN }), target, [], fakeApi(index, [], files))) as RclVerdict;
  assert.equal(v.scenario, 'new-body');
  assert.match(v.scenarioReason, /only comments/);
  assert.ok(v.confidence >= 0 && v.confidence <= 1);
  assert.ok(v.gateFeatures.judged);
});

test('bad input: a cursor outside any method (a field, the class header) gets outside-method and no verdict', async () => {
  const files = withFile('    return "x";');
  const index = await buildIndex(files);
  const type = targetAt(index, PATH, 4, 10);
  assert.equal(type.ref.sym.kind, 'class');
  const v = (await gate(request(index, { textOf: (p) => files[p], path: PATH, position: { line: 4, character: 10 }, threshold: Number.NaN }), type, [], fakeApi(index, [], files))) as RclVerdict;
  assert.equal(v.scenario, 'outside-method');
  assert.equal(v.confidence, 0);
  assert.equal(v.review, true);
  assert.match(v.reviewReasons[0], /no verdict/);
});

test('existing body: every written reference is the surface, at p = 1; shown declarations make it sufficient', async () => {
  const body = '    String id = Guard.requireText(order.getId(), "id");\n    return id;';
  const { index, target, files } = await judge(body, 6, 4);
  const v0 = (await gate(request(index, { textOf: (p) => files[p], path: PATH, position: { line: 6, character: 4 }, threshold: Number.NaN, maxRounds: 0 }), target, [itemFor(index, target.ref.sym.id, ['enclosing'], 1, files)], fakeApi(index, [], files))) as RclVerdict;
  assert.equal(v0.scenario, 'existing-body');
  assert.ok(v0.dependencySurface.length >= 2);
  assert.ok(v0.dependencySurface.every((e) => e.written && e.weight === 1), JSON.stringify(v0.dependencySurface));
  const v = (await gate(request(index, { textOf: (p) => files[p], path: PATH, position: { line: 6, character: 4 }, threshold: Number.NaN }), target, [itemFor(index, target.ref.sym.id, ['enclosing'], 1, files)], fakeApi(index, [], files))) as RclVerdict;
  assert.ok(v.dependencySurface.every((e) => e.covered), 'follow-up fetched every written reference');
  assert.equal(v.coverage, 1);
  assert.ok(v.confidence > v0.confidence, `${v.confidence} > ${v0.confidence}`);
});

test('policy: a known-missing certain need forces review whatever τ is', () => {
  const entry = (written: boolean, covered: boolean) => ({ symbol: 'p.A#f()', kind: 'method', internal: true, covered, novelty: 0.5, weight: written ? 1 : 0.4, ...(written ? { written } : {}) });
  assert.equal(knownMissingNeeds([entry(true, true), entry(false, false)], []), 0, 'an estimated entry left out is not known to be missing');
  assert.equal(knownMissingNeeds([entry(true, false)], []), 1);
  assert.equal(knownMissingNeeds([], ['frobnicate']), 1);
  assert.equal(mustReview(0.99, 0, 0), false);
  assert.equal(mustReview(0.99, 0, 1), true, 'τ 0 does not silence a certain gap');
  assert.equal(mustReview(0.5, 0.6, 0), true);
});

test('policy: names that resolve to nothing are reviewed at τ 0, and a written reference left out at τ 0 too', async () => {
  const body = '    Ledger.post(order);\n    return frobnicate(order);';
  const { index, target, files } = await judge(body, 5, 18);
  const items = [itemFor(index, target.ref.sym.id, ['enclosing'], 1, files)];
  const v = (await gate(request(index, { textOf: (p) => files[p], path: PATH, position: { line: 5, character: 18 }, threshold: 0 }), target, items, fakeApi(index, [], files))) as RclVerdict;
  assert.equal(v.threshold, 0);
  assert.equal(v.review, true);
  assert.match(v.reviewReasons[0], /review whatever τ is: \d+ certain needs? .* known to be missing/);
  // A resolved written reference the context does not show (no follow-up rounds to fetch it).
  const written = '    String id = Guard.requireText(order.getId(), "id");\n    return id;';
  const w = await judge(written, 6, 4);
  const v0 = (await gate(request(w.index, { textOf: (p) => w.files[p], path: PATH, position: { line: 6, character: 4 }, threshold: 0, maxRounds: 0 }), w.target, [itemFor(w.index, w.target.ref.sym.id, ['enclosing'], 1, w.files)], fakeApi(w.index))) as RclVerdict;
  assert.ok(v0.dependencySurface.some((e) => e.written && !e.covered));
  assert.equal(v0.review, true);
  // Once follow-up shows every written reference, τ 0 passes it.
  const v1 = (await gate(request(w.index, { textOf: (p) => w.files[p], path: PATH, position: { line: 6, character: 4 }, threshold: 0 }), w.target, [itemFor(w.index, w.target.ref.sym.id, ['enclosing'], 1, w.files)], fakeApi(w.index))) as RclVerdict;
  assert.ok(v1.dependencySurface.every((e) => e.covered));
  assert.equal(v1.review, false);
});

test('bad input: a parameter typed without its name yet (`draft(String) {`) is judged as a partial body, and the gate returns', { timeout: 30_000 }, async () => {
  // The parser recovers the parameter with an empty name; searching a body for '' once looped forever.
  const files: Record<string, string> = { ...FILES, [PATH]: 'package com.acme.order;\n\npublic class Drafts {\n  public String draft(String) {\n    int n = size();\n    \n  }\n\n  public int size() { return 1; }\n}\n' };
  const index = await buildIndex(files);
  const target = targetAt(index, PATH, 3, 18);
  assert.ok(target.ref.sym.params?.some((p) => p.name === ''), JSON.stringify(target.ref.sym.params));
  const v = (await gate(request(index, { textOf: (p) => files[p], path: PATH, position: { line: 5, character: 4 }, threshold: Number.NaN }), target, [], fakeApi(index, [], files))) as RclVerdict;
  assert.equal(v.scenario, 'partial-body');
  assert.ok(v.confidence >= 0 && v.confidence <= 1, `confidence ${v.confidence}`);
  assert.equal(v.gateFeatures.unusedParams, 0, 'a parameter without a name is not one the body has yet to use');
  assert.equal(v.gateFeatures.unusedLocals, 1, 'n is declared and not read');
});
