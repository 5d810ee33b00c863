import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SlotTable } from '../../server/src/text/slotTable';
import { CorruptCache, Reader, Writer } from '../../server/src/index/cacheCodec';
import { viaSavedForm as reloaded } from '../helpers/slotTables';

/** Every slot's string, and every string's slot, as a plain map says they should be. */
function assertHolds(t: SlotTable, model: Map<string, number>, absent: string[] = []): void {
  assert.equal(t.size, model.size);
  for (const [s, slot] of model) {
    assert.equal(t.slotOf(s), slot, `slot of ${JSON.stringify(s)}`);
    assert.equal(t.stringAt(slot), s);
    assert.ok(t.holds(slot));
  }
  const used = new Set(model.values());
  for (let slot = 0; slot < t.length; slot++) if (!used.has(slot)) {
    assert.equal(t.holds(slot), false, `slot ${slot} is free`);
    assert.equal(t.stringAt(slot), undefined);
  }
  for (const s of absent) assert.equal(t.slotOf(s), undefined, `${JSON.stringify(s)} is not held`);
}

test('SlotTable: gives each new string a slot, reuses the last freed slot first, and answers both ways', () => {
  const t = new SlotTable();
  const a = t.add('alpha'), b = t.add('beta'), c = t.add('gamma');
  assert.deepEqual([a, b, c], [0, 1, 2]);
  t.delete(b);
  t.delete(a);
  assert.equal(t.slotOf('beta'), undefined);
  assert.equal(t.add('delta'), a, 'the last slot freed is given first');
  assert.equal(t.add('epsilon'), b);
  assert.equal(t.add('zeta'), 3);
  t.delete(b);
  t.delete(b); // twice: nothing more
  assertHolds(t, new Map([['delta', 0], ['gamma', 2], ['zeta', 3]]), ['alpha', 'beta', 'epsilon']);
  assert.equal(t.length, 4);
});

test('SlotTable: a loaded table finds every saved string and no other, including strings that sort between and around them', () => {
  const t = new SlotTable();
  const words = ['m', 'ma', 'mb', 'a', 'zz', 'Z', '_', 'ä', 'naïve', '\u{1F600}x', 'x\uD800', '', 'longer than twelve code units'];
  const model = new Map(words.map((w) => [w, t.add(w)]));
  t.delete(model.get('mb')!);
  model.delete('mb');
  const back = reloaded(t);
  assertHolds(back, model, ['mb', 'mc', 'l', 'maa', 'zzz', ' ', 'naive', '\u{1F600}', 'x']);
});

test('SlotTable: after a load, added, deleted, re-added and reused slots behave as in a table never saved, across further saves', () => {
  // A seeded walk of random adds and deletes against a plain map, saved and loaded every 200 steps.
  let seed = 7;
  const rand = (n: number) => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return (seed >>> 8) % n; };
  const pool = Array.from({ length: 120 }, (_, i) => (i % 3 ? 'w' : 'W') + (i * 7919 % 1000).toString(36) + (i % 5 ? '' : '-long-enough-to-be-a-slice'));
  let t = new SlotTable();
  const model = new Map<string, number>();
  const freed: number[] = [];
  let next = 0;
  for (let step = 1; step <= 2000; step++) {
    const s = pool[rand(pool.length)];
    const slot = model.get(s);
    if (slot === undefined) {
      const expected = freed.length ? freed.pop()! : next++;
      assert.equal(t.add(s), expected, `step ${step}: the slot given`);
      model.set(s, expected);
    } else {
      t.delete(slot);
      model.delete(s);
      freed.push(slot);
    }
    if (step % 200 === 0) {
      t = reloaded(t);
      assertHolds(t, model, pool.filter((p) => !model.has(p)));
      assert.equal(t.length, next);
    }
  }
});

test('SlotTable: a damaged saved form is refused as corrupt, never half-trusted', () => {
  const t = new SlotTable();
  for (const w of ['apple', 'banana', 'cherry']) t.add(w);
  t.delete(1);
  const w = new Writer();
  t.write(w);
  const good = w.finish();
  // The saved ints: text's string index, then starts, order and free slots, each with its length first.
  const layout = (ints: Int32Array) => {
    const starts = 1, order = starts + 1 + ints[starts], free = order + 1 + ints[order];
    return { starts, order, free };
  };
  const damaged = (change: (ints: Int32Array) => void) => {
    const ints = good.ints.slice();
    change(ints);
    return () => SlotTable.read(new Reader({ ...good, ints }));
  };
  const at = layout(good.ints);
  assert.doesNotThrow(damaged(() => undefined));
  assert.throws(damaged((i) => { const a = i[at.order + 1]; i[at.order + 1] = i[at.order + 2]; i[at.order + 2] = a; }), CorruptCache, 'strings out of order');
  assert.throws(damaged((i) => { i[at.order + 2] = i[at.order + 1]; }), CorruptCache, 'a slot twice');
  assert.throws(damaged((i) => { i[at.free + 1] = 0; }), CorruptCache, 'a free slot that holds a string');
  assert.throws(damaged((i) => { i[at.order + 1] = 9; }), CorruptCache, 'a slot out of range');
  assert.throws(damaged((i) => { i[at.starts + 3] = 1; }), CorruptCache, 'offsets that go back');
  assert.throws(damaged((i) => { i[at.starts + 2] = 2; }), CorruptCache, 'a free slot that holds a string');
});
