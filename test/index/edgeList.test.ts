// The packed edge list: every edge reads back as it was pushed, in order, however many there are,
// and an edge kind it does not know is refused.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EdgeList, EdgeListBuilder } from '../../server/src/java/edgeList';
import type { Edge } from '../../server/src/java/resolve';

/** A list of these edges, pushed in order. */
function listOf(es: Edge[]): EdgeList {
  const b = new EdgeListBuilder();
  for (const e of es) b.push(e.from, e.to, e.kind, e.line, e.col);
  return b.build();
}

const edges: Edge[] = [
  { from: 'com.acme.Order#total()', to: 'com.acme.Money#plus(Money)', kind: 'call', line: 12, col: 20 },
  { from: 'com.acme.Order#total()', to: 'com.acme.Money', kind: 'type', line: 11, col: 4 },
  { from: 'com.acme.Order', to: 'com.acme.Entity', kind: 'extends', line: 3, col: 13 },
  { from: 'file:/ws/Order.java', to: 'com.acme.Money', kind: 'imports', line: 1, col: 0 },
  { from: 'com.acme.Order#total()', to: 'com.acme.Money#plus(Money)', kind: 'call', line: 13, col: 0 },
  { from: 'com.acme.Order#<init>()', to: 'com.acme.Entity#<init>()', kind: 'ctorCall', line: 70000, col: 9 },
];

test('edges read back in order, by index, by iteration and as JSON', () => {
  const list = listOf(edges);
  assert.equal(list.length, edges.length);
  assert.deepEqual([...list], edges);
  assert.deepEqual(list.toArray(), edges);
  assert.deepEqual(JSON.parse(JSON.stringify(list)), edges);
  edges.forEach((e, i) => {
    assert.deepEqual(list.at(i), e);
    assert.deepEqual([list.from(i), list.to(i), list.kind(i), list.line(i), list.col(i)], [e.from, e.to, e.kind, e.line, e.col]);
  });
  // A read edge is the caller's: changing it changes nothing in the list.
  list.at(0).to = 'changed';
  assert.equal(list.to(0), edges[0].to);
});

test('the list grows past its first capacity and keeps every edge', () => {
  const b = new EdgeListBuilder();
  for (let i = 0; i < 1000; i++) b.push(`T#m${i % 7}()`, `U#f${i % 13}`, i % 2 ? 'field' : 'call', i * 100, i % 80);
  const list = b.build();
  assert.equal(list.length, 1000);
  for (let i = 0; i < 1000; i++) {
    assert.deepEqual(list.at(i), { from: `T#m${i % 7}()`, to: `U#f${i % 13}`, kind: i % 2 ? 'field' : 'call', line: i * 100, col: i % 80 });
  }
});

test('no edges: the shared empty list; an unknown kind is refused', () => {
  assert.equal(new EdgeListBuilder().build(), EdgeList.EMPTY);
  assert.equal(EdgeList.EMPTY.length, 0);
  assert.deepEqual([...EdgeList.EMPTY], []);
  assert.throws(() => new EdgeListBuilder().push('a', 'b', 'calls' as Edge['kind'], 1, 1), /unknown edge kind/);
});

test('targets are the distinct ids edges go to, in the order of their first edge; slots number the ids', () => {
  const list = listOf(edges);
  assert.deepEqual(list.targets(), ['com.acme.Money#plus(Money)', 'com.acme.Money', 'com.acme.Entity', 'com.acme.Entity#<init>()']);
  for (let i = 0; i < list.length; i++) {
    assert.equal(list.idAt(list.fromSlot(i)), edges[i].from);
    assert.equal(list.idAt(list.toSlot(i)), edges[i].to);
    assert.ok(list.toSlot(i) < list.idCount && list.fromSlot(i) < list.idCount);
  }
  assert.equal(list.fromSlot(0), list.fromSlot(4), 'one id, one slot');
});

test('packed parts make the same list again, and numbers that describe no list are refused', () => {
  const { ids, data } = listOf(edges).packed();
  assert.deepEqual(EdgeList.fromPacked([...ids], data.slice())?.toArray(), edges);
  assert.equal(EdgeList.fromPacked([], new Int32Array(0)), EdgeList.EMPTY);
  const broken = (edit: (d: Int32Array) => void) => { const d = data.slice(); edit(d); return EdgeList.fromPacked([...ids], d); };
  assert.equal(broken((d) => { d[5] = ids.length; }), undefined, 'a from id past the table');
  assert.equal(broken((d) => { d[1] = -1; }), undefined, 'a negative target id');
  assert.equal(broken((d) => { d[7] = 9; }), undefined, 'an unknown kind');
  assert.equal(EdgeList.fromPacked([...ids], data.slice(0, 7)), undefined, 'a partial edge');
});
