import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dependencySurface } from '../../server/src/gate/surface';
import {
  ALPHA, apiIdsOf, apiSetMetrics, fuseEvidence, itemUncertainty, refineApis, sourceClassOf, uncertaintyTrace, U_ABSENT_SOURCE,
  type UncertaintyContext,
} from '../../server/src/gate/uncertainty';
import { buildIndex, itemFor, SERVICE, targetAt } from './helpers';

const APPLY = 'com.acme.order.PricingService#applyDiscount(Order,int)';
const ROUND = 'com.acme.money.MoneyMath#roundHalfEvenToCents(double)';
const WRITE = 'com.acme.report.ReportWriter#write(Report)';

async function setup() {
  const index = await buildIndex();
  const target = targetAt(index, SERVICE, 20, 4);
  const surface = dependencySurface(index, target);
  const ctx: UncertaintyContext = { index, target, surface };
  return { index, target, surface, ctx };
}

test('source classes: API = api/graph items showing callables; repository; similar code', async () => {
  const { index } = await setup();
  assert.equal(sourceClassOf(itemFor(index, ROUND, ['api']), index), 'api');
  assert.equal(sourceClassOf(itemFor(index, ROUND, ['graph']), index), 'api');
  assert.equal(sourceClassOf(itemFor(index, 'com.acme.order.Order', ['graph']), index), 'repository');
  assert.equal(sourceClassOf(itemFor(index, APPLY, ['enclosing']), index), 'repository');
  assert.equal(sourceClassOf(itemFor(index, ROUND, ['followup']), index), 'repository');
  assert.equal(sourceClassOf(itemFor(index, 'com.acme.order.PricingService#currency()', ['similar']), index), 'similar');
});

test('item uncertainty: relevant < irrelevant; elided and incompatible items are more uncertain', async () => {
  const { index, ctx } = await setup();
  const rel = itemUncertainty(itemFor(index, ROUND, ['api']), ctx);
  const unrelated = itemUncertainty(itemFor(index, 'com.acme.report.Report#title()', ['api']), ctx);
  const incompatible = itemUncertainty(itemFor(index, WRITE, ['api']), ctx);
  const elided = itemUncertainty({ ...itemFor(index, ROUND, ['api']), text: 'public static long roundHalfEvenToCents(double amount) { … }' }, ctx);
  assert.ok(rel.u < unrelated.u);
  assert.equal(rel.incompatible, 0);
  assert.ok(incompatible.incompatible > 0 && incompatible.u > unrelated.u);
  assert.ok(elided.incomplete > 0 && elided.u > rel.u);
  for (const x of [rel, unrelated, incompatible, elided]) assert.ok(x.u >= 0 && x.u <= 1);
});

test('fusion: γ = r·w·max(0, 1−αu), top 70 % per source, dedup, trace', async () => {
  const { index, ctx } = await setup();
  const apis = [ROUND, 'com.acme.text.Guard#requirePercent(int)', 'com.acme.order.Order#getCents()', WRITE, 'com.acme.report.Report#title()']
    .map((id, i) => itemFor(index, id, ['api'], 1 - i * 0.1));
  const repo = [itemFor(index, APPLY, ['enclosing'], 1), itemFor(index, APPLY, ['lexical'], 0.5)];
  const similar = [itemFor(index, 'com.acme.order.PricingService#currency()', ['similar'], 0.4)];
  const { items, ranked, trace } = fuseEvidence([...apis, ...repo, ...similar], ctx);
  // 5 API items -> 4 kept (ceil 3.5); 2 repository -> 2 kept, deduplicated to 1; 1 similar -> 1.
  assert.equal(ranked.filter((r) => r.source === 'api').length, 4);
  assert.equal(ranked.filter((r) => r.source === 'repository').length, 1);
  assert.equal(items.length, ranked.length);
  assert.ok(!items.some((i) => i.symbol === WRITE), 'the incompatible, lowest-γ API is filtered');
  for (let i = 1; i < ranked.length; i++) assert.ok(ranked[i - 1].gamma >= ranked[i].gamma);
  const r0 = ranked.find((r) => r.item.symbol === ROUND)!;
  assert.ok(Math.abs(r0.gamma - 1 * (1 / 2.8) * (1 - ALPHA * r0.u)) < 1e-9);
  assert.ok(trace.api > 0 && trace.api < 1 && trace.similar > 0);
  assert.equal(uncertaintyTrace(repo, ctx).api, U_ABSENT_SOURCE);
  assert.equal(fuseEvidence([...apis, ...repo], ctx, { k: 2 }).items.length, 2);
});

test('target-aware API refinement removes the target, redundant overloads and incompatible APIs; improves precision', async () => {
  const { index, ctx: full } = await setup();
  // The premise: of Guard's two requireText overloads only the one the body calls is on the surface
  // (the other may enter lightly, by name, through the named-member route).
  const ctx = { ...full, surface: full.surface.filter((e) => e.symbol !== 'com.acme.text.Guard#requireText(String)') };
  assert.ok(ctx.surface.some((e) => e.symbol === 'com.acme.text.Guard#requireText(String,String)'));
  const gold = [ROUND, 'com.acme.text.Guard#requireText(String,String)', 'com.acme.order.Order#getCents()'];
  const items = [
    itemFor(index, APPLY, ['api'], 0.9),
    itemFor(index, ROUND, ['api'], 0.8),
    itemFor(index, 'com.acme.text.Guard#requireText(String,String)', ['api'], 0.6),
    itemFor(index, 'com.acme.text.Guard#requireText(String)', ['api'], 0.7),
    itemFor(index, 'com.acme.order.Order#getCents()', ['graph'], 0.5),
    itemFor(index, WRITE, ['api'], 0.4),
    itemFor(index, 'com.acme.order.Order', ['graph'], 0.3),
  ];
  const { items: kept, removed } = refineApis(items, ctx);
  const why = new Map(removed.map((r) => [r.item.symbol, r.reason]));
  assert.equal(why.get(APPLY), 'target itself');
  assert.equal(why.get('com.acme.text.Guard#requireText(String)'), 'redundant overload', 'the overload in the surface wins over the better-scored one');
  assert.equal(why.get(WRITE), 'incompatible with target');
  assert.ok(kept.some((i) => i.symbol === 'com.acme.order.Order'), 'non-API items pass through');
  const before = apiSetMetrics(apiIdsOf(items, index), gold);
  const after = apiSetMetrics(apiIdsOf(kept, index), gold);
  assert.ok(after.precision > before.precision);
  assert.equal(after.recall, before.recall);
  assert.equal(after.exact, true);
  assert.deepEqual(apiSetMetrics([], []), { precision: 1, recall: 1, f1: 1, exact: true, predicted: 0, gold: 0 });
  assert.deepEqual(apiSetMetrics(['a', 'b'], ['b', 'c']), { precision: 0.5, recall: 0.5, f1: 0.5, exact: false, predicted: 2, gold: 2 });
});
