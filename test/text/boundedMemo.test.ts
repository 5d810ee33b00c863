import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BoundedMemo } from '../../server/src/text/boundedMemo';

test('BoundedMemo: computes a key once, answers it from memory after, and starts afresh when full', () => {
  let calls = 0;
  const square = (n: number) => { calls++; return n * n; };
  const memo = new BoundedMemo<number, number>(3);
  assert.equal(memo.get(2, square), 4);
  assert.equal(memo.get(2, square), 4);
  assert.equal(calls, 1, 'a remembered key is not computed again');
  memo.get(3, square);
  memo.get(4, square);
  assert.equal(calls, 3);
  memo.get(5, square); // full: cleared, then 5 remembered
  assert.equal(calls, 4);
  memo.get(2, square);
  assert.equal(calls, 5, 'what was remembered before the clear is computed again');
  memo.get(5, square);
  assert.equal(calls, 5, 'the key that caused the clear is kept');
});
