// The gate's follow-up declarations: signature-only, packed into the type groups already shown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { followupTokens, itemsForSymbols, retrieve } from '../../server/src/retrieval/pipeline';
import { FOLLOWUP_MIN_P, followupValue, gate } from '../../server/src/gate/sufficiency';
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
  assert.equal(g.text.split('\n').filter((l) => /^public final class Money \{/.test(l)).length, 1, g.text);
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

test('follow-up pays packing\'s price: an estimated entry is fetched only when p × ν\' × value exceeds the tokens it adds', async () => {
  const index = await buildIndex();
  const target = targetAt(index, SERVICE, 20, 4);
  const asked = async (tokens: number) => {
    const calls: string[][] = [];
    /** The entry each priced step is for (a type's step brings its needed members along). */
    const priced: string[] = [];
    const api = { ...fakeApi(index, calls), addedTokens: (_req: unknown, ids: string[]) => { priced.push(ids[0]); return tokens; } };
    const v = await gate(request(index, { threshold: 1, maxRounds: 1 }), target, [], api);
    return { fetched: calls.flat(), priced, v };
  };
  // Every estimated entry worth more than 1 token is fetched.
  const cheap = await asked(1);
  const written = (id: string) => !!cheap.v.dependencySurface.find((e) => e.symbol === id)?.written;
  assert.ok(cheap.fetched.some(written), 'the fixture has written references');
  assert.ok(cheap.fetched.filter((id) => !written(id)).length > 0, 'estimated entries are fetched when they cost little');
  assert.ok(cheap.priced.some((id) => !written(id)));
  // At more tokens than any entry is worth (p × ν' ≤ 1), no estimated entry is fetched, and the review says why.
  const dear = await asked(followupValue(cheap.v.scenario!) + 1);
  assert.deepEqual(dear.fetched.filter((id) => !written(id)), []);
  assert.ok(dear.fetched.some(written), 'written references are fetched whatever they cost');
  assert.ok(dear.v.review && dear.v.reviewReasons.some((r) => r.startsWith('not fetched as worth fewer tokens')), dear.v.reviewReasons.join('\n'));
});

test('followupTokens: what a fetched signature adds to the group it joins, as packing counts it, and nothing for one already shown', async () => {
  const { req } = await fixture(SHOP);
  const [shown] = itemsForSymbols(req, [`${MONEY}#times(int)`], 'followup');
  const into = [{ ...shown, score: 3, sources: ['graph' as const] }];
  const price = followupTokens(req, [`${MONEY}#format()`], into);
  const [joined] = itemsForSymbols(req, [`${MONEY}#format()`], 'followup', { into, doc: false });
  const actual = joined.tokens - shown.tokens;
  // Packing's count is an upper bound (a line's tokens counted alone), close to the exact one.
  assert.ok(actual > 0 && price >= actual && price <= actual + 4, `${price} for ${actual}`);
  assert.equal(followupTokens(req, [`${MONEY}#times(int)`], into), 0);
  // Once accepted against the same items, an entry is priced as shown: the next one of its group pays only its own lines.
  const fresh = [{ ...into[0] }];
  assert.equal(followupTokens(req, [`${MONEY}#format()`], fresh, () => true), price);
  assert.equal(followupTokens(req, [`${MONEY}#format()`], fresh), 0);
  // A type not shown yet pays for its header too.
  assert.ok(followupTokens(req, [`${MONEY}#format()`], []) > price);
});
