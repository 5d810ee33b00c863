// The gate's follow-up declarations: signature-only, packed into the type groups already shown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { itemsForSymbols, retrieve } from '../../server/src/retrieval/pipeline';
import { FOLLOWUP_MIN_P, gate } from '../../server/src/gate/sufficiency';
import { dependencySurface } from '../../server/src/gate/surface';
import { fixture, SHOP } from '../retrieval/fixture';
import { buildIndex, fakeApi, request, SERVICE, targetAt } from './helpers';

const MONEY = 'com.acme.money.Money';

test('follow-up into a shown group: the group is re-rendered with the new signature, one type header, old lines kept', async () => {
  const { req } = await fixture(SHOP);
  const [shown] = itemsForSymbols(req, [`${MONEY}#times(int)`], 'followup');
  const items = itemsForSymbols(req, [`${MONEY}#format()`], 'followup', { into: [{ ...shown, score: 3, sources: ['graph'] }], doc: false });
  assert.equal(items.length, 1);
  const g = items[0];
  assert.equal(g.uri, shown.uri);
  assert.equal(g.symbol, shown.symbol);
  assert.equal(g.text.split('\n').filter((l) => l.startsWith(`// ${MONEY} `)).length, 1, g.text);
  assert.match(g.text, /Multiplies by a quantity/); // the shown declaration keeps its Javadoc sentence
  assert.match(g.text, /public Money times\(int n\)/);
  assert.match(g.text, /public String format\(\)/);
  assert.doesNotMatch(g.text, /Formats as a decimal string/); // the follow-up shows the signature only
  assert.deepEqual(g.sources, ['followup', 'graph']);
  assert.equal(g.score, 3);
  // Without `into` a separate group item with the Javadoc sentence (the fixedK baseline's form).
  const [alone] = itemsForSymbols(req, [`${MONEY}#format()`], 'followup');
  assert.match(alone.text, /Formats as a decimal string/);
});

test('rcl: follow-up never repeats a type group already in the result', async () => {
  const { req } = await fixture(SHOP);
  const r = await retrieve({ ...req, threshold: 1, maxRounds: 2 }, gate);
  const groups = r.items.filter((i) => !i.sources.includes('enclosing')).map((i) => `${i.uri}#${i.symbol}`);
  assert.equal(new Set(groups).size, groups.length, groups.join('\n'));
  assert.ok(r.tokens <= req.budgetTokens);
  assert.ok(!r.items.some((i) => 'entries' in i), 'internal packing data does not leave the pipeline');
});

test('follow-up asks only for surface entries at least FOLLOWUP_MIN_P likely to be needed', async () => {
  const index = await buildIndex();
  const target = targetAt(index, SERVICE, 20, 4);
  const surface = dependencySurface(index, target);
  assert.ok(surface.some((e) => e.weight < FOLLOWUP_MIN_P), 'the fixture has unlikely entries');
  const calls: string[][] = [];
  await gate(request(index, { threshold: 1, maxRounds: 5 }), target, [], fakeApi(index, calls));
  const asked = calls.flat();
  assert.ok(asked.length > 0);
  for (const id of asked) assert.ok(surface.find((e) => e.symbol === id)!.weight >= FOLLOWUP_MIN_P, id);
});
