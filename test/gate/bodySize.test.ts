// How large the hidden body will be, from what is known at its cursor (gate/bodySize.ts): the
// bodies most like it (the owner's other methods, its namesakes, the methods written beside it),
// its declaration and its callers, and the fitted model that turns them into one expected size.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bodyNeighbourhood, bodySizeEvidence, bodySizeInputs, bodySizeModel, bodySizeRow, checkedBodySizeModel, predictedBodyRefs, unshownBodyRefs, BODY_SIZE_COLUMN_NAMES, type BodySizeModel } from '../../server/src/gate/bodySize';
import { buildIndex, targetAt } from './helpers';

const FILES: Record<string, string> = {
  '/ws/p/Box.java': 'package p;\npublic class Box { public int size; public Box next; public int size() { return size; } }\n',
  '/ws/p/Terse.java': [
    'package p;',
    'class Terse {',
    '  Box box;',
    '  int a() { return box.size; }',
    '  int b() { return box.size(); }',
    '  void c() { box = box.next; }',
    '  void target() { }',
    '}',
  ].join('\n'),
  '/ws/p/Busy.java': [
    'package p;',
    'class Busy extends Base {',
    '  Box box; int n;',
    '  Busy() { box = new Box(); n = box.size(); }',
    '  void target() { Box b = new Box(); b.next = box; n = b.size() + box.size; helper(); }',
    '  private static void helper() throws Exception { box.next = null; }',
    '  int tail() { return n + box.size + box.size(); }',
    '}',
  ].join('\n'),
  '/ws/p/Base.java': 'package p;\nclass Base { void lonely() { } }\n',
  '/ws/p/User.java': 'package p;\nclass User { void one(Busy b) { b.target(); } void two(Busy b) { b.target(); b.target(); } }\n',
};

test('the owner\'s other methods give their median reference count; self and supertypes are not counted', async () => {
  const index = await buildIndex(FILES);
  const terse = bodySizeInputs(index, targetAt(index, '/ws/p/Terse.java', 6, 10));
  // a: box, Box#size; b: box, Box#size(); c: box, Box#next -> 2 each.
  assert.equal(terse.ownerBodyRefs, 2);
  const busy = bodySizeInputs(index, targetAt(index, '/ws/p/Busy.java', 4, 10));
  // The constructor: box, Box(), n, Box#size() -> 4 (or 5 with the type); helper: box, Box#next -> 2.
  assert.ok(busy.ownerBodyRefs > terse.ownerBodyRefs, `a busier class: ${busy.ownerBodyRefs} > ${terse.ownerBodyRefs}`);
});

test('same-name methods elsewhere, else the owner\'s figure; nothing outside a method', async () => {
  const index = await buildIndex(FILES);
  const terse = bodySizeInputs(index, targetAt(index, '/ws/p/Terse.java', 6, 10));
  const busy = bodySizeInputs(index, targetAt(index, '/ws/p/Busy.java', 4, 10));
  // Each target's namesake is the other one: Terse's empty body says 0, Busy's body several.
  assert.equal(busy.namesakeBodyRefs, 0);
  assert.ok(terse.namesakeBodyRefs >= 4, `Busy.target references at least box, Box(), Box#next, n: ${terse.namesakeBodyRefs}`);
  const lonely = bodySizeInputs(index, targetAt(index, '/ws/p/Base.java', 1, 25));
  assert.deepEqual([lonely.ownerBodyRefs, lonely.namesakeBodyRefs, lonely.neighbourBodyRefs], [0, 0, 0], 'no sibling, no namesake, no neighbour');
  const field = bodySizeEvidence(index, targetAt(index, '/ws/p/Terse.java', 2, 6));
  assert.ok(Object.values(field).every((v) => v === 0), `a field is not a body: ${JSON.stringify(field)}`);
});

test('the methods written just before and after it, its callers and its declaration', async () => {
  const index = await buildIndex(FILES);
  const busy = bodySizeInputs(index, targetAt(index, '/ws/p/Busy.java', 4, 10));
  const ctor = index.edgesFrom('p.Busy#<init>()').length;
  assert.ok(ctor > 0);
  // Before it: the constructor; after it: helper (box, Box#next -> 2). tail, two members away, is not beside it.
  const refs = (id: string) => new Set(index.edgesFrom(id).map((e) => e.to)).size;
  assert.equal(busy.neighbourBodyRefs, (refs('p.Busy#<init>()') + refs('p.Busy#helper()')) / 2);
  assert.equal(busy.callers, 2, 'User#one and User#two, each once however often it calls');
  assert.deepEqual([busy.params, busy.returnsVoid, busy.declaresThrows, busy.isPrivate, busy.isStatic, busy.ownerFields], [0, 1, 0, 0, 0, 2]);
  const helper = bodySizeInputs(index, targetAt(index, '/ws/p/Busy.java', 5, 25));
  assert.deepEqual([helper.declaresThrows, helper.isPrivate, helper.isStatic, helper.callers], [1, 1, 1, 1]);
  // The last member has one neighbour only.
  const tail = bodySizeInputs(index, targetAt(index, '/ws/p/Busy.java', 6, 8));
  assert.equal(tail.neighbourBodyRefs, refs('p.Busy#helper()'));
  assert.equal(tail.returnsVoid, 0);
});

test('the model turns the inputs into an expected count: exp(β · row) − 1, never below 0', async () => {
  const index = await buildIndex(FILES);
  const inputs = bodySizeInputs(index, targetAt(index, '/ws/p/Busy.java', 4, 10));
  const row = bodySizeRow(inputs);
  assert.equal(row.length, BODY_SIZE_COLUMN_NAMES.length + 1);
  assert.equal(row[0], 1, 'the intercept');
  const only = (column: string, weight: number, intercept = 0): BodySizeModel =>
    ({ columns: BODY_SIZE_COLUMN_NAMES, beta: [intercept, ...BODY_SIZE_COLUMN_NAMES.map((c) => (c === column ? weight : 0))] });
  // log1p of the neighbours' count with weight 1 gives the count back.
  assert.ok(Math.abs(predictedBodyRefs(inputs, only('log1p-neighbour-body-refs', 1)) - inputs.neighbourBodyRefs) < 1e-9);
  assert.equal(predictedBodyRefs(inputs, only('log1p-neighbour-body-refs', 0, -5)), 0, 'a negative expectation is clamped to 0');
  // The shipped model is checked against the columns this code computes, and a mismatch is refused.
  assert.deepEqual(bodySizeModel().columns, BODY_SIZE_COLUMN_NAMES);
  assert.throws(() => checkedBodySizeModel({ columns: BODY_SIZE_COLUMN_NAMES.slice(1), beta: [0] }), /regenerate it/);
  assert.equal(bodySizeEvidence(index, targetAt(index, '/ws/p/Busy.java', 4, 10)).predictedBodyRefs, Math.round(predictedBodyRefs(inputs) * 1e4) / 1e4);
});

test('how far the bodies beside it reach beyond the context: what their references hold that no item shows', async () => {
  const index = await buildIndex(FILES);
  const target = targetAt(index, '/ws/p/Busy.java', 4, 10);
  const around = bodyNeighbourhood(index, target);
  const refs = (id: string) => [...new Set(index.edgesFrom(id).map((e) => e.to))];
  const ctor = refs('p.Busy#<init>()'), helper = refs('p.Busy#helper()'), tail = refs('p.Busy#tail()');
  // Nothing shown: the neighbours' and the siblings' whole reference counts.
  const none = unshownBodyRefs(around, new Set());
  assert.equal(none.neighbourRefsUnshown, (ctor.length + helper.length) / 2);
  assert.equal(none.ownerRefsUnshown, [ctor.length, helper.length, tail.length].sort((a, b) => a - b)[1], 'the median over the other methods');
  // Everything the constructor references shown: only the rest counts.
  const shown = new Set(ctor);
  const some = unshownBodyRefs(around, shown);
  assert.equal(some.neighbourRefsUnshown, (0 + helper.filter((id) => !shown.has(id)).length) / 2);
  assert.ok(some.ownerRefsUnshown <= none.ownerRefsUnshown);
  // The target itself never counts as missing: helper's neighbour target() calls helper().
  const busyTarget = refs('p.Busy#target()');
  assert.ok(busyTarget.includes('p.Busy#helper()'));
  const forHelper = unshownBodyRefs(bodyNeighbourhood(index, targetAt(index, '/ws/p/Busy.java', 5, 25)), new Set());
  assert.equal(forHelper.neighbourRefsUnshown, (busyTarget.length - 1 + tail.length) / 2);
  // No method beside it and no sibling: nothing to read.
  assert.deepEqual(unshownBodyRefs(bodyNeighbourhood(index, targetAt(index, '/ws/p/Base.java', 1, 25)), new Set()), { neighbourRefsUnshown: 0, ownerRefsUnshown: 0 });
});
