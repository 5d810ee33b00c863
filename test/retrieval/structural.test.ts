import { test } from 'node:test';
import assert from 'node:assert/strict';
import { retrieve } from '../../server/src/retrieval/pipeline';
import { packingKind, PACKINGS } from '../../server/src/retrieval/fitted';
import { MEMBER_COLUMNS, needProbability, type MemberRow } from '../../server/src/retrieval/memberModel';
import { gate } from '../../server/src/gate/sufficiency';
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

const ids = (items: { symbols?: string[]; symbol?: string }[]) => [...shown(items)].sort();
/** A model that gives one column the whole say (every other coefficient 0). */
function only(column: (typeof MEMBER_COLUMNS)[number], weight: number, bias: number) {
  const beta = MEMBER_COLUMNS.map((c) => (c === column ? weight : c === 'bias' ? bias : 0));
  return { ...PACKINGS['new-body'], beta };
}

test('packing: a declaration joins when p × value pays for its tokens; a lower value shows a subset', async () => {
  const base = await retrieve((await fixture(SHOP)).req);
  const lean = await retrieve((await fixture(SHOP, { packing: { ...PACKINGS['new-body'], value: PACKINGS['new-body'].value / 4 } })).req);
  const none = await retrieve((await fixture(SHOP, { packing: { ...PACKINGS['new-body'], value: 0 } })).req);
  assert.ok(lean.tokens < base.tokens, `${lean.tokens} < ${base.tokens}`);
  const a = shown(base.items), b = shown(lean.items);
  for (const id of b) assert.ok(a.has(id), `${id} shown lean but not by default`);
  // value 0: no ranked candidate is worth any token; only the cursor's member and its class context.
  assert.ok(none.items.every((i) => i.sources.includes('enclosing')), none.items.map((i) => i.symbol).join(', '));
});

test('packing: the member model decides which members are shown, not their type', async () => {
  const { req } = await fixture(SHOP);
  const isStatic = (id: string) => req.index.symbol(id)?.sym.modifiers.includes('static') ?? false;
  const isType = (id: string) => ['class', 'interface', 'enum', 'record'].includes(req.index.symbol(id)?.sym.kind ?? '');
  /** Members shown in other types' groups (the cursor's own group holds its class context). */
  const members = (items: { sources: string[]; symbols?: string[] }[]) => items.filter((i) => !i.sources.includes('enclosing')).flatMap((i) => i.symbols ?? []).filter((id) => !isType(id));
  // All say to one input: static members certain, every other hopeless, and the reverse.
  const statics = members((await retrieve((await fixture(SHOP, { packing: { ...only('static', 20, -10), value: 1000 } })).req)).items);
  const instance = members((await retrieve((await fixture(SHOP, { packing: { ...only('static', -20, 10), value: 1000 } })).req)).items);
  assert.ok(statics.length > 0 && instance.length > 0, `${statics} | ${instance}`);
  for (const id of statics) assert.ok(isStatic(id), `${id} shown by a model that only wants static members`);
  for (const id of instance) assert.ok(!isStatic(id), `${id} shown by a model that wants no static member`);
});

test('packing: docValue prices which shown declarations keep their Javadoc sentence', async () => {
  const withDoc = await retrieve((await fixture(SHOP, { packing: { ...PACKINGS['new-body'], docValue: Infinity } })).req);
  const sigOnly = await retrieve((await fixture(SHOP, { packing: { ...PACKINGS['new-body'], docValue: 0 } })).req);
  // A sentence is priced on its own and buys no declaration, so it never keeps one out: the same
  // declarations are shown with every sentence kept and with none.
  assert.deepEqual([...shown(withDoc.items)].sort(), [...shown(sigOnly.items)].sort());
  // Also where the value is so low that a declaration's signature barely pays for itself.
  for (const value of [20, 40, 80, 160, 320]) {
    const all = await retrieve((await fixture(SHOP, { packing: { ...PACKINGS['new-body'], value, docValue: Infinity } })).req);
    const none = await retrieve((await fixture(SHOP, { packing: { ...PACKINGS['new-body'], value, docValue: 0 } })).req);
    assert.deepEqual([...shown(all.items)].sort(), [...shown(none.items)].sort(), `value ${value}`);
  }
  assert.ok(withDoc.items.some((i) => i.text.includes('/** Applies the loyalty discount to a total. */')));
  assert.ok(!sigOnly.items.slice(1).some((i) => i.text.includes('/** Applies the loyalty discount to a total. */')));
});

test('packing: the weighed candidates reach the observer with their inputs, P(needed) and whether they were shown', async () => {
  let rows: MemberRow[] = [];
  const { req } = await fixture(SHOP, { observeMembers: (r) => { rows = r; } });
  const r = await retrieve(req);
  assert.ok(rows.length > 0);
  for (const row of rows) {
    assert.equal(row.x.length, MEMBER_COLUMNS.length);
    assert.ok(row.p > 0 && row.p < 1);
  }
  const ranked = new Set(r.items.filter((i) => !i.sources.includes('enclosing')).flatMap((i) => (i as { symbols?: string[] }).symbols ?? []));
  for (const row of rows.filter((x) => x.shown)) assert.ok(shown(r.items).has(row.id), `${row.id} marked shown`);
  assert.ok(rows.some((x) => x.shown) && ranked.size > 0);
  assert.deepEqual(ids(r.items), ids((await retrieve((await fixture(SHOP)).req)).items), 'observing changes nothing');
});

test('packing: a model whose columns are not MEMBER_COLUMNS is refused (packing.json is stale)', async () => {
  const { req } = await fixture(SHOP, { packing: { ...PACKINGS['new-body'], columns: PACKINGS['new-body'].columns.slice(1), beta: PACKINGS['new-body'].beta.slice(1) } });
  await assert.rejects(retrieve(req), /MEMBER_COLUMNS/);
});

test('packing: an oracle P(needed) (benches) shows exactly the declarations it names', async () => {
  let rows: MemberRow[] = [];
  await retrieve((await fixture(SHOP, { maxRounds: 0, observeMembers: (r) => { rows = r; } })).req);
  const { req } = await fixture(SHOP, { maxRounds: 0 });
  const isType = (id: string) => ['class', 'interface', 'enum', 'record'].includes(req.index.symbol(id)?.sym.kind ?? '');
  // The member model shows every weighed candidate of this small workspace; the oracle names two members.
  const chosen = rows.filter((x) => x.shown && !isType(x.id)).slice(-2).map((x) => x.id);
  assert.ok(chosen.length === 2 && rows.length > 6, `${rows.length} weighed`);
  const wanted = new Set(chosen);
  const r = await retrieve({ ...req, neededOverride: (id) => (wanted.has(id) ? 1 : 0) });
  const members = r.items.filter((i) => !i.sources.includes('enclosing')).flatMap((i) => (i as { symbols?: string[] }).symbols ?? []).filter((id) => !isType(id));
  for (const id of chosen) assert.ok(shown(r.items).has(id), `${id} named by the oracle`);
  assert.deepEqual(members.filter((id) => !wanted.has(id)), [], 'only what the oracle names is shown');
});

test('packing: a new body is weighed by the new-body model, a partial or complete one by the written-body model, as the gate judges the scenario', async () => {
  const path = 'src/com/acme/order/OrderService.java';
  const partial = { ...SHOP, [path]: SHOP[path].replace('$0', 'Money sum = ZERO;\n    $0') };
  // The cursor on the first statement of a complete method (total's body left empty, as written).
  const existing = { ...SHOP, [path]: SHOP[path].replace('$0', '').replace('return line.unitPrice()', '$0return line.unitPrice()') };
  for (const [files, scenario, kind] of [[SHOP, 'new-body', 'new-body'], [partial, 'partial-body', 'written-body'], [existing, 'existing-body', 'written-body']] as const) {
    let rows: MemberRow[] = [];
    const { req } = await fixture(files, { observeMembers: (r) => { rows = r; } });
    const r = await retrieve(req, gate);
    assert.equal(r.scenario, scenario);
    assert.equal(packingKind(r.scenario), kind);
    assert.ok(rows.length > 0, scenario);
    const other = PACKINGS[kind === 'new-body' ? 'written-body' : 'new-body'];
    for (const row of rows) assert.ok(Math.abs(row.p - needProbability(row.x, PACKINGS[kind])) < 1e-12, `${scenario}: ${row.id}`);
    assert.ok(rows.some((row) => Math.abs(row.p - needProbability(row.x, other)) > 1e-3), `${scenario}: the two models agree on every row, so this test could not fail`);
  }
});
