// How large the hidden body will be, from the bodies most like it: the owner's other methods and
// the same-name methods elsewhere (gate/bodySize.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bodySizeEvidence } from '../../server/src/gate/bodySize';
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
    '  void helper() { box.next = null; }',
    '}',
  ].join('\n'),
  '/ws/p/Base.java': 'package p;\nclass Base { void lonely() { } }\n',
};

test('the owner\'s other methods give their median reference count; self and supertypes are not counted', async () => {
  const index = await buildIndex(FILES);
  const terse = bodySizeEvidence(index, targetAt(index, '/ws/p/Terse.java', 6, 10));
  // a: box, Box#size; b: box, Box#size(); c: box, Box#next -> 2 each.
  assert.equal(terse.ownerBodyRefs, 2);
  const busy = bodySizeEvidence(index, targetAt(index, '/ws/p/Busy.java', 4, 10));
  // The constructor: box, Box(), n, Box#size() -> 4 (or 5 with the type); helper: box, Box#next -> 2.
  assert.ok(busy.ownerBodyRefs > terse.ownerBodyRefs, `a busier class: ${busy.ownerBodyRefs} > ${terse.ownerBodyRefs}`);
});

test('same-name methods elsewhere, else the owner\'s figure; nothing outside a method', async () => {
  const index = await buildIndex(FILES);
  const terse = bodySizeEvidence(index, targetAt(index, '/ws/p/Terse.java', 6, 10));
  const busy = bodySizeEvidence(index, targetAt(index, '/ws/p/Busy.java', 4, 10));
  // Each target's namesake is the other one: Terse's empty body says 0, Busy's body several.
  assert.equal(busy.namesakeBodyRefs, 0);
  assert.ok(terse.namesakeBodyRefs >= 4, `Busy.target references at least box, Box(), Box#next, n: ${terse.namesakeBodyRefs}`);
  const lonely = bodySizeEvidence(index, targetAt(index, '/ws/p/Base.java', 1, 25));
  assert.deepEqual(lonely, { ownerBodyRefs: 0, namesakeBodyRefs: 0 }, 'no sibling, no namesake');
  const field = bodySizeEvidence(index, targetAt(index, '/ws/p/Terse.java', 2, 6));
  assert.deepEqual(field, { ownerBodyRefs: 0, namesakeBodyRefs: 0 }, 'a field is not a body');
});
