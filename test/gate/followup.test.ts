// The gate's follow-up declarations (signature-only, packed into the type groups already shown) and its off-surface risk.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { itemsForSymbols, retrieve } from '../../server/src/retrieval/pipeline';
import { FOLLOWUP_MIN_P, gate } from '../../server/src/gate/sufficiency';
import { dependencySurface } from '../../server/src/gate/surface';
import { confidenceOf, OFF_SURFACE_RISK, offSurfaceFactor, surfaceGrounded } from '../../server/src/gate/confidence';
import { fixture, SHOP } from '../retrieval/fixture';
import { buildIndex, fakeApi, request, SERVICE, targetAt } from './helpers';
import { FILES } from './fixtures';

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

test('off-surface risk: an ungrounded surface keeps a residual risk that coverage cannot remove; kin grounds it', async () => {
  const e = (reason: string) => ({ symbol: 'p.A#f()', kind: 'method', uri: 'file:///ws/A.java', line: 1, internal: true, covered: true, novelty: 0.5, weight: 0.5, reason });
  assert.equal(surfaceGrounded([e('field of the enclosing class'), e('imported internal type; used by other members of the class')]), false);
  assert.equal(surfaceGrounded([e('field of the enclosing class; used by an overload')]), true);
  assert.equal(surfaceGrounded([e('same-name method of Style whose parameters contain 2/2 of the target\'s types')]), true);
  assert.equal(offSurfaceFactor([e('field of the enclosing class')], true), 1 - OFF_SURFACE_RISK);
  assert.equal(offSurfaceFactor([e('used by an overriding implementation')], true), 1);
  assert.equal(offSurfaceFactor([], false), 1, 'no method, no estimate to doubt');
  // Through the gate: `audit(Order)` has no kin (no overload, override or same-name method), so even with
  // everything on its surface shown it stays below a strict τ, with the reason named;
  // `applyDiscount` is grounded by kin, so its confidence is the coverable one alone.
  const index = await buildIndex();
  const line = FILES[SERVICE].split('\n').findIndex((l) => l.includes('private void audit('));
  const lone = targetAt(index, SERVICE, line + 1, 4);
  const v = await gate(request(index, { threshold: 0.99, maxRounds: 3 }), lone, [], fakeApi(index));
  assert.equal(surfaceGrounded(v.dependencySurface), false);
  assert.ok(v.confidence <= 1 - OFF_SURFACE_RISK + 1e-4, `${v.confidence}`);
  assert.equal(v.review, true);
  assert.ok(v.reviewReasons.some((r) => /outside them/.test(r)), v.reviewReasons.join('\n'));
  const kin = targetAt(index, SERVICE, 20, 4);
  const w = await gate(request(index, { threshold: 0.99, maxRounds: 3 }), kin, [], fakeApi(index));
  assert.equal(surfaceGrounded(w.dependencySurface), true);
  assert.ok(Math.abs(w.confidence - confidenceOf(w.dependencySurface).confidence) < 1e-4);
  assert.ok(!w.reviewReasons.some((r) => /outside them/.test(r)));
});
