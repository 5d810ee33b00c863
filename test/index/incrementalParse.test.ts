// Open documents are re-parsed incrementally; the facts must equal a from-scratch parse after
// every edit, whatever the edit (insertions, deletions, replacements, non-ASCII text).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mulberry32 } from '../../scripts/lib/prng.mjs';
import { editBetween, OpenTrees } from '../../server/src/index/incrementalParse';
import { factsOfText } from '../../server/src/index/parseFile';

test('editBetween finds the changed region, with rows and UTF-16 columns', () => {
  const e = editBetween('class A {\n  int é = 1;\n}\n', 'class A {\n  int é = 42;\n}\n');
  assert.deepEqual([e.startIndex, e.oldEndIndex, e.newEndIndex], [20, 21, 22]);
  assert.deepEqual(e.startPosition, { row: 1, column: 10 });
  assert.deepEqual(e.newEndPosition, { row: 1, column: 12 });
});

test('incremental re-parses of an open document equal fresh parses', async () => {
  const rand = mulberry32(7);
  const pieces = ['void m() { run(); }\n', 'int x = 1;\n', '/* é */', '}', '{', 'class B { }\n', 'String s = "ü";\n', '\n'];
  let text = 'package p;\nclass A {\n  int a;\n  void f() { a++; }\n}\n';
  const trees = new OpenTrees();
  for (let step = 0; step < 200; step++) {
    const at = Math.floor(rand() * (text.length + 1));
    const del = rand() < 0.4 ? Math.floor(rand() * 12) : 0;
    const ins = rand() < 0.8 ? pieces[Math.floor(rand() * pieces.length)] : '';
    text = text.slice(0, at) + ins + text.slice(at + del);
    const incremental = await trees.factsOf('/ws/A.java', text);
    const fresh = await factsOfText(text);
    assert.deepEqual(incremental, fresh, `step ${step}`);
  }
  trees.close('/ws/A.java');
});
