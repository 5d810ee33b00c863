import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dependencySurface, shortName, surfaceIds, W_BODY_REF, MAX_SURFACE } from '../../server/src/gate/surface';
import { buildIndex, SERVICE, targetAt } from './helpers';

const APPLY = 'com.acme.order.PricingService#applyDiscount(Order,int)';

test('surface of a service method: body references, parameter-type members, Javadoc links, overridden contract', async () => {
  const index = await buildIndex();
  const target = targetAt(index, SERVICE, 20, 4);
  assert.equal(target.ref.sym.id, APPLY);
  const surface = dependencySurface(index, target);
  const by = new Map(surface.map((e) => [e.symbol, e]));
  // Already referenced by the partial body: full weight.
  // Weights are calibrated probabilities (calibratedProbability): a body reference is near-certain.
  assert.ok(by.get('com.acme.text.Guard#requireText(String,String)')!.weight >= 0.99 && W_BODY_REF === 1);
  assert.match(by.get('com.acme.text.Guard#requireText(String,String)')!.reason!, /referenced in body/);
  // {@link MoneyMath#roundHalfEvenToCents(double)} and `Guard.requirePercent()` in the Javadoc.
  assert.match(by.get('com.acme.money.MoneyMath#roundHalfEvenToCents(double)')!.reason!, /Javadoc/);
  assert.match(by.get('com.acme.text.Guard#requirePercent(int)')!.reason!, /Javadoc/);
  // Members of the parameter type Order.
  assert.match(by.get('com.acme.order.Order#getCents()')!.reason!, /parameter type Order/);
  // The interface method it overrides.
  assert.match(by.get('com.acme.order.Pricing#applyDiscount(Order,int)')!.reason!, /overridden contract in Pricing/);
  // Fields and helpers of the class, members of field types.
  assert.match(by.get('com.acme.order.PricingService#store')!.reason!, /field of the enclosing class/);
  assert.match(by.get('com.acme.order.PricingService#audit(Order)')!.reason!, /private helper/);
  assert.match(by.get('com.acme.order.OrderStore#save(Order)')!.reason!, /field type OrderStore/);
  // Signature type; the target itself and its own class are not dependencies.
  assert.match(by.get('com.acme.order.Order')!.reason!, /signature/);
  assert.ok(!by.has(APPLY));
  assert.ok(!by.has('com.acme.order.PricingService'));
  // Pricing#currency is implemented by the class itself: no abstract-contract entry for it.
  assert.ok(!by.has('com.acme.order.Pricing#currency()'));
  // Every entry is internal, weighted in (0,1], has a novelty, a uri and a line.
  for (const e of surface) {
    assert.equal(e.internal, true);
    assert.ok(e.weight > 0 && e.weight <= 1, e.symbol);
    assert.ok(e.novelty >= 0 && e.novelty <= 1);
    assert.ok(e.uri?.startsWith('file:///ws/') && typeof e.line === 'number');
  }
  // Ordered by weight, then id; bounded.
  for (let i = 1; i < surface.length; i++) {
    const a = surface[i - 1], b = surface[i];
    assert.ok(a.weight > b.weight || (a.weight === b.weight && a.symbol < b.symbol) || a.weight - b.weight > -1e-3);
  }
  assert.ok(surface.length <= MAX_SURFACE);
  // High-weight entries are the likely body dependencies.
  const w = (id: string) => by.get(id)?.weight ?? 0;
  assert.ok(w('com.acme.money.MoneyMath#roundHalfEvenToCents(double)') > w('com.acme.order.OrderStore#find(String)'));
  assert.ok(w('com.acme.order.OrderStore#find(String)') < 0.5);
});

test('surface is deterministic and bounded by max', async () => {
  const a = dependencySurface(await buildIndex(), targetAt(await buildIndex(), SERVICE, 20, 4));
  const index = await buildIndex();
  const b = dependencySurface(index, targetAt(index, SERVICE, 20, 4));
  assert.deepEqual(surfaceIds(a), surfaceIds(b));
  // The bound is on the estimate: every written entry stays besides the 3 heaviest estimated ones.
  const bounded = dependencySurface(index, targetAt(index, SERVICE, 20, 4), undefined, { max: 3 });
  assert.equal(bounded.filter((e) => !e.written).length, 3);
  assert.deepEqual(bounded.filter((e) => e.written).map((e) => e.symbol), b.filter((e) => e.written).map((e) => e.symbol));
  assert.deepEqual(dependencySurface(index, undefined), []);
});

test('body text names boost members the index has not seen yet', async () => {
  const index = await buildIndex();
  const t = targetAt(index, SERVICE, 20, 4);
  const before = dependencySurface(index, t).find((e) => e.symbol === 'com.acme.order.OrderStore#find(String)')!.weight;
  const after = dependencySurface(index, t, 'store.find(order.getId());').find((e) => e.symbol === 'com.acme.order.OrderStore#find(String)')!.weight;
  assert.ok(after > before);
});

test('shortName', () => {
  assert.equal(shortName('com.acme.text.Guard#requireText(String,String)'), 'Guard#requireText');
  assert.equal(shortName('com.acme.order.Order#<init>(String,long)'), 'Order#Order');
  assert.equal(shortName('com.acme.order.Order'), 'Order');
  assert.equal(shortName('com.acme.order.Order#id'), 'Order#id');
});
