// The worker-to-main-thread encoding: every parse result (facts with reference sites, stamps,
// failures) arrives exactly as extraction produced it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Expr } from '../../server/src/java/facts';
import { discoverFiles } from '../../server/src/index/files';
import { parsePath, type ParseOutcome } from '../../server/src/index/parseFile';
import { decodeOutcomes, encodeOutcomes } from '../../server/src/index/transferCodec';
import { repoRoot } from '../helpers/repoRoot';

/** Facts as a reader sees them: keys holding undefined are the same as absent keys. */
const plain = (x: unknown) => JSON.parse(JSON.stringify(x));

const EVERY_EXPRESSION = `package p;
import java.util.*;
class Outer<T extends Comparable<T>> extends Base implements Runnable {
  int[] xs; Outer other;
  Outer() { this(1); }
  Outer(int n) { super(n); }
  class Inner { Object o = Outer.this; }
  public void run() {
    var list = new ArrayList<String>();
    int[][] grid = new int[2][3];
    String s = xs.length > 0 ? "a" + xs[0] : (String) null;
    Class<?> c = String.class;
    java.util.function.Function<Object, String> f = Object::toString;
    list.add(s); other.xs[0]++; this.run(); super.toString(); grid[1][2] = xs.length;
    Runnable r = () -> { int n; n = 1; };
    for (String t : list) t.trim();
    unknownName.call(undefinedThing, 1L, 'c', true);
  }
}`;

function exprKinds(x: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(x)) for (const v of x) exprKinds(v, into);
  else if (x && typeof x === 'object') {
    const k = (x as Expr).k;
    if (typeof k === 'string') into.add(k);
    for (const v of Object.values(x)) exprKinds(v, into);
  }
  return into;
}

test('parse results survive the transfer encoding exactly', async () => {
  const root = join(repoRoot(), 'examples', 'acme-shop');
  const outcomes: ParseOutcome[] = [];
  for (const path of discoverFiles(root).files) outcomes.push(await parsePath(path));
  outcomes.push(await parsePath('/virtual/Outer.java', EVERY_EXPRESSION, 'h1'));
  outcomes.push({ path: '/virtual/Gone.java', ok: false, reason: 'vanished while indexing' });
  assert.ok(outcomes.some((o) => o.ok && o.stamp), 'stamps are carried');
  assert.ok(outcomes.some((o) => o.ok && !o.stamp), 'and their absence too');
  const kinds = exprKinds(outcomes.map((o) => o.ok && o.facts.refs), new Set());
  for (const k of ['name', 'local', 'this', 'super', 'qualThis', 'field', 'ternary', 'call', 'new', 'lit', 'cast', 'index', 'classLit']) {
    assert.ok(kinds.has(k), `the sample covers expression kind ${k}`);
  }
  const decoded = decodeOutcomes(encodeOutcomes(outcomes));
  assert.deepEqual(decoded, plain(outcomes));
});
