import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BoundedMemo } from '../../server/src/text/boundedMemo';

test('BoundedMemo: computes a key once, answers it from memory after, holds at most `size` values, and drops keys unused for two generations', () => {
  let calls = 0;
  const square = (n: number) => { calls++; return n * n; };
  const memo = new BoundedMemo<number, number>(4); // two generations of two
  assert.equal(memo.get(2, square), 4);
  assert.equal(memo.get(2, square), 4);
  assert.equal(calls, 1, 'a remembered key is not computed again');
  memo.get(3, square); // the newer generation is full: {2, 3}
  memo.get(4, square); // {2, 3} become the older one; {4}
  assert.equal(calls, 3);
  memo.get(2, square); // found in the older generation, moved to the newer: {4, 2}
  assert.equal(calls, 3, 'a key of the older generation is still remembered');
  memo.get(5, square); // {4, 2} older; {5}
  memo.get(6, square); // {5, 6}
  memo.get(7, square); // {5, 6} older, {4, 2} dropped; {7}
  assert.equal(calls, 6);
  assert.equal(memo.peek(3), undefined, 'a key unused for two generations is forgotten');
  assert.equal(memo.peek(4), undefined);
  memo.get(2, square);
  assert.equal(calls, 7, 'a forgotten key is computed again');
  assert.equal(memo.get(6, square), 36);
  assert.equal(calls, 7);
});

test('BoundedMemo: set replaces a value without counting the key twice, and peek computes nothing', () => {
  const memo = new BoundedMemo<string, number>(4); // two generations of two
  memo.set('a', 1);
  memo.set('a', 2);
  for (const k of ['b', 'c', 'd']) memo.set(k, 0); // {a, b} become the older generation at c
  assert.equal(memo.peek('e'), undefined);
  assert.equal(memo.peek('a'), 2, 'replacing a value did not use up a place in the generation');
  memo.clear();
  assert.equal(memo.peek('a'), undefined, 'clear forgets the newer generation');
  assert.equal(memo.peek('b'), undefined, 'and the older one');
});

test('BoundedMemo.weak: holds values per object key, bounded like the string-keyed memo', () => {
  const memo = BoundedMemo.weak<object, number>(4);
  const keys = [{}, {}, {}, {}, {}];
  let calls = 0;
  for (const k of keys) memo.get(k, () => ++calls);
  assert.equal(calls, 5);
  assert.equal(memo.peek(keys[4]), 5);
  assert.equal(memo.peek(keys[0]), undefined, 'the oldest keys are forgotten');
  assert.equal(memo.get({}, () => 99), 99, 'a new object is a new key, whatever it looks like');
});


test('BoundedMemo: a key is stored as `keep` makes it, on a miss and when it moves from the older generation to the newer', () => {
  const kept: string[] = [];
  const memo = new BoundedMemo<string, number>(4, undefined, (k) => { kept.push(k); return k; });
  memo.get('a', () => 1);
  memo.get('a', () => 1); // a hit in the newer generation stores nothing
  memo.get('b', () => 2);
  memo.get('c', () => 3); // {a, b} older; {c}
  assert.deepEqual(kept, ['a', 'b', 'c']);
  assert.equal(memo.peek('a'), 1); // moves to the newer generation: stored again, as `keep` makes it
  assert.deepEqual(kept, ['a', 'b', 'c', 'a']);
});

test('BoundedMemo.ofSlices: answers a slice of a text by the value remembered for an equal string', () => {
  const memo = BoundedMemo.ofSlices<number>(4);
  const text = `${'x'.repeat(1000)}\n  return total;\n`;
  const line = text.slice(1001);
  let calls = 0;
  assert.equal(memo.get(line, (k) => { calls++; return k.length; }), 16);
  assert.equal(memo.get('  return total;\n', () => { calls++; return -1; }), 16, 'an equal string is the same key');
  assert.equal(calls, 1);
});

test('BoundedMemo.weighed: bounds the total weight held, not the number of values; a value heavier than a generation is not kept', () => {
  const memo = BoundedMemo.weighed<string, string>(20, (text) => text.length); // two generations of 10 characters
  memo.set('a', 'xxxx');
  memo.set('b', 'xxxx'); // 8 held
  memo.set('c', 'xxx'); // 11 would not fit: {a, b} become the older generation; {c}
  assert.equal(memo.peek('a'), 'xxxx', 'the older generation still answers'); // moved: {c, a}, 7 held
  memo.set('d', 'xxxx'); // 11: {c, a} older, {a, b} dropped; {d}
  assert.equal(memo.peek('b'), undefined, 'a value unused for two generations is forgotten');
  memo.set('big', 'x'.repeat(11));
  assert.equal(memo.peek('big'), undefined, 'heavier than a generation: not kept');
  assert.equal(memo.peek('d'), 'xxxx', 'and nothing was pushed out for it');
  assert.equal(memo.peek('c'), 'xxx');
});

test('BoundedMemo.weighed: a replaced value\'s weight replaces the old one\'s', () => {
  const memo = BoundedMemo.weighed<string, string>(20, (text) => text.length);
  memo.set('p', 'x'.repeat(9));
  memo.set('p', 'x'); // 1 held, not 9 (nor 10)
  memo.set('q', 'x'.repeat(8)); // 9 held: the same generation as p
  memo.set('r', 'xx'); // 11 would not fit: {p, q} older; {r}
  memo.set('s', 'x'.repeat(9)); // 11: {r} older, {p, q} dropped; {s}
  assert.equal(memo.peek('q'), undefined, 'q joined p\'s generation and went with it');
  assert.equal(memo.peek('r'), 'xx');
});
