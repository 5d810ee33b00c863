// Calibrated surface probabilities, the kin / delegation / accessor routes, and the per-symbol
// compounding of confidence (RCL §4) with the recall-calibrated coverage.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SurfaceEntry } from '../../shared/protocol';
import { calibratedProbability, dependencySurface, ROUTE_BIAS, ROUTE_LOGIT, ROUTE_NAMES, ROUTE_TABLES } from '../../server/src/gate/surface';
import { confidenceOf, NOVELTY_FLOOR } from '../../server/src/gate/confidence';
import { buildIndex, targetAt } from './helpers';

const STYLE = '/ws/src/p/Style.java';
const BUILDER = '/ws/src/p/Builder.java';
const FILES: Record<string, string> = {
  [STYLE]: `package p;
public class Style {
  public void append(StringBuffer b, String f, double v) { b.append(v); }
  public void append(StringBuffer b, String f, int v) { b.append(v); }
  public void flush(StringBuffer b) { }
}
`,
  [BUILDER]: `package p;
public class Builder {
  private final Style style = new Style();
  private final StringBuffer buf = new StringBuffer();
  private boolean empty;
  public Builder append(String f, int v) { style.append(buf, f, v); return this; }
  public Builder append(String f, double v) {
    
  }
  public boolean isEmpty() {
    
  }
}
`,
};

test('calibratedProbability: bounded, near-certain for body references, low without evidence, monotone in route weight', () => {
  assert.ok(calibratedProbability([{ w: 1, route: 'body-ref', reason: 'referenced in body' }]) > 0.99);
  const none = calibratedProbability([]);
  assert.ok(Math.abs(none - 1 / (1 + Math.exp(-ROUTE_BIAS))) < 1e-12 && none < 0.05);
  let last = 0;
  for (const w of [0.05, 0.1, 0.3, 0.6, 1]) {
    const p = calibratedProbability([{ w, route: 'sibling-use', reason: 'used by other members of the class' }]);
    assert.ok(p > last && p < 1, `${w}: ${p}`);
    last = p;
  }
  // Every route a hint can carry has a calibration row in some scenario's table (the routes through
  // a written half never fire for an emptied body, so the new-body table may lack them).
  for (const r of ROUTE_NAMES) assert.ok(ROUTE_LOGIT[r] || ROUTE_TABLES['partial-body'].logit[r], r);
});

test('kin and delegation routes: an overload forwards to the same-name method of a collaborator with matching parameter types', async () => {
  const index = await buildIndex(FILES);
  const target = targetAt(index, BUILDER, 7, 4);
  assert.equal(target.ref.sym.id, 'p.Builder#append(String,double)');
  const by = new Map(dependencySurface(index, target).map((e) => [e.symbol, e]));
  const dbl = by.get('p.Style#append(StringBuffer,String,double)');
  const int = by.get('p.Style#append(StringBuffer,String,int)');
  assert.ok(dbl && int, 'both Style#append overloads are on the surface');
  assert.match(dbl.reason!, /same-name method of Style/);
  assert.match(int.reason!, /used by an overload|same-name/);
  assert.match(by.get('p.Builder#append(String,int)')!.reason!, /overload in the enclosing class/);
  // The exact-type delegate outranks an unrelated member of the same collaborator.
  const flush = by.get('p.Style#flush(StringBuffer)')?.weight ?? 0;
  assert.ok(dbl.weight > flush + 0.1, `${dbl.weight} > ${flush}`);
  assert.ok(dbl.weight >= 0.2, `${dbl.weight}`);
});

test('accessor route: isEmpty names the field empty', async () => {
  const index = await buildIndex(FILES);
  const target = targetAt(index, BUILDER, 10, 4);
  assert.equal(target.ref.sym.id, 'p.Builder#isEmpty()');
  const e = dependencySurface(index, target).find((x) => x.symbol === 'p.Builder#empty');
  assert.ok(e);
  assert.match(e.reason!, /field named by the accessor/);
});

function entry(symbol: string, weight: number, novelty: number, covered: boolean): SurfaceEntry {
  return { symbol, kind: 'method', internal: true, covered, novelty, weight };
}

test('confidence compounds per uncovered symbol: Π (1 − p × ν); coverage is the weighted share present', () => {
  assert.deepEqual(confidenceOf([entry('a', 0.9, 1, true)]), { coverage: 1, novelty: 0, confidence: 1 });
  const one = confidenceOf([entry('a', 0.5, 1, false), entry('b', 0.5, 1, true)]);
  assert.ok(Math.abs(one.confidence - 0.5) < 1e-12);
  // Coverage is the weighted share of the surface present, untransformed.
  assert.ok(Math.abs(one.coverage - 0.5) < 1e-12);
  // Familiar (novelty 0) gaps still count, at the floor.
  const fam = confidenceOf([entry('a', 0.5, 0, false)]);
  assert.ok(Math.abs(fam.confidence - (1 - 0.5 * NOVELTY_FLOOR)) < 1e-12);
  // A second likely-missing symbol lowers confidence multiplicatively.
  const two = confidenceOf([entry('a', 0.5, 1, false), entry('c', 0.5, 1, false)]);
  assert.ok(Math.abs(two.confidence - 0.25) < 1e-12);
  // Monotone: more novelty, lower confidence.
  assert.ok(confidenceOf([entry('a', 0.5, 0.9, false)]).confidence < confidenceOf([entry('a', 0.5, 0.3, false)]).confidence);
});
