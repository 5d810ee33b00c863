import { test } from 'node:test';
import assert from 'node:assert/strict';
import { retrieve } from '../../server/src/retrieval/pipeline';
import { PACKING } from '../../server/src/retrieval/fitted';
import { fixture, SHOP } from './fixture';

const shown = (items: { symbols?: string[]; symbol?: string }[]) => new Set(items.flatMap((i) => i.symbols ?? (i.symbol ? [i.symbol] : [])));

test('structural: enclosing member, then its type\'s members and the types its signature, Javadoc and fields name, no gate', async () => {
  const { req } = await fixture(SHOP, { mode: 'structural' });
  const r = await retrieve(req, () => { throw new Error('structural must not call the gate'); });
  assert.equal(r.items[0].sources[0], 'enclosing');
  assert.equal(r.items[0].symbol, 'com.acme.order.OrderService#total(List)');
  // The rest in structural order: own type, then OrderLine (signature), Discounts (Javadoc link and field), Money (field).
  assert.deepEqual(r.items.slice(1).map((i) => i.symbol), ['com.acme.order.OrderService', 'com.acme.order.OrderLine', 'com.acme.money.Money', 'com.acme.order.Discounts']);
  const ids = shown(r.items);
  for (const want of ['com.acme.order.OrderService#lineTotal(OrderLine)', 'com.acme.order.OrderLine#quantity()', 'com.acme.order.Discounts#applyLoyalty(Money)', 'com.acme.money.Money#plus(Money)']) assert.ok(ids.has(want), want);
  assert.ok(!ids.has('com.acme.audit.AuditLog'), 'a type nothing names structurally is not shown');
  // Signatures only: no Javadoc sentence of a member is shown.
  assert.ok(!r.items.slice(1).some((i) => i.text.includes('Applies the loyalty discount')));
  assert.deepEqual([r.rounds, r.dependencySurface.length], [0, 0]);
  assert.ok(r.items.slice(1).every((i) => i.sources.join() === 'graph'));
});

test('structural: the hard cap drops the last-named types first', async () => {
  const full = await retrieve((await fixture(SHOP, { mode: 'structural' })).req);
  const budget = full.tokens - 1;
  const capped = await retrieve((await fixture(SHOP, { mode: 'structural', budgetTokens: budget })).req);
  assert.ok(capped.tokens <= budget);
  assert.deepEqual(capped.items.map((i) => i.symbol), full.items.slice(0, capped.items.length).map((i) => i.symbol));
});

test('packing: past the knee only strong candidates join; below minShare nothing joins, not even into a shown type', async () => {
  const base = await retrieve((await fixture(SHOP)).req);
  const lean = await retrieve((await fixture(SHOP, { packing: { ...PACKING, kneeTokens: 0, minShare: 0.5 } })).req);
  assert.ok(lean.tokens < base.tokens, `${lean.tokens} < ${base.tokens}`);
  const a = shown(base.items), b = shown(lean.items);
  for (const id of b) assert.ok(a.has(id), `${id} shown lean but not by default`);
  // The strongest dependency is still there.
  assert.ok(b.has('com.acme.order.Discounts#applyLoyalty(Money)'));
});

test('packing: docShare 1 shows the weaker candidates by their signature alone', async () => {
  const withDoc = await retrieve((await fixture(SHOP, { packing: { ...PACKING, docShare: 0 } })).req);
  const sigOnly = await retrieve((await fixture(SHOP, { packing: { ...PACKING, docShare: Number.MAX_VALUE } })).req);
  assert.deepEqual([...shown(sigOnly.items)].sort(), [...shown(withDoc.items)].sort());
  assert.ok(sigOnly.tokens < withDoc.tokens);
  assert.ok(withDoc.items.some((i) => i.text.includes('/** Adds two amounts. */')));
  assert.ok(!sigOnly.items.slice(1).some((i) => i.text.includes('/** Adds two amounts. */')));
});

test('packing: minOwn leaves out members whose only evidence is their type, never a body\'s dependency', async () => {
  const base = await retrieve((await fixture(SHOP, { packing: { ...PACKING, minOwn: 0 } })).req);
  const own = await retrieve((await fixture(SHOP, { packing: { ...PACKING, minOwn: 0.2 } })).req);
  const a = shown(base.items), b = shown(own.items);
  assert.ok(b.size < a.size, `${b.size} < ${a.size} declarations`);
  for (const id of b) assert.ok(a.has(id), `${id} shown with minOwn but not without`);
  assert.ok(b.has('com.acme.order.Discounts#applyLoyalty(Money)'));
});
