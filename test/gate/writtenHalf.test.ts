// What the written half of a partial body set up and has not used yet: locals declared and not
// read again, parameters not touched, and of their workspace types those the context shows no
// member of (gate/writtenHalf.ts). And ShownItems, the coverage lookup by file, answers exactly
// as asking itemCovers of every item (coverage.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ContextItem, SurfaceEntry } from '../../shared/protocol';
import { writtenHalfEvidence } from '../../server/src/gate/writtenHalf';
import { itemCovers, ShownItems } from '../../server/src/gate/coverage';
import type { Target } from '../../server/src/retrieval/request';

const URI = 'file:///ws/A.java';
const type = (symbol: string): SurfaceEntry => ({ symbol, kind: 'class', uri: URI, line: 1, internal: true, covered: false, novelty: 0.5, weight: 1, written: true });
const item = (symbols: string[]): ContextItem & { symbols: string[] } =>
  ({ uri: URI, range: { start: { line: 0, character: 0 }, end: { line: 9, character: 0 } }, text: 'x', tokens: 1, score: 1, sources: ['lexical'], untrusted: true, symbol: symbols[0], symbols });
const target = {
  ref: { sym: { id: 'p.A#run(Order,int)', params: [{ name: 'order', type: 'Order' }, { name: 'limit', type: 'int' }] } },
  owner: { sym: { id: 'p.A' } },
} as unknown as Target;

test('unused locals and parameters of the written half, and their workspace types with no member shown', () => {
  const body = [
    '',
    '  Cart cart = order.cart();   // read below',
    '  Invoice inv = new Invoice(); // never read again',
    '  final List<Line> lines = cart.lines();',
    '  A self = this;',
    '  int n = 0;',
    '  return cart.total();',
  ].join('\n');
  const surface = [type('p.Cart'), type('p.Invoice'), type('p.Order'), type('p.A')];
  const f = writtenHalfEvidence(body, 6, surface, [], target);
  assert.equal(f.unusedLocals, 4, 'inv, lines, self and n are declared and not read; `return cart` declares nothing');
  assert.equal(f.unusedLocalTypesBare, 1, 'Invoice; List is not a workspace type and A is the own class');
  assert.equal(f.unusedParams, 1, 'limit is not used yet; order is');
  assert.equal(f.unusedParamTypesBare, 0, 'int is no workspace type');
  // Showing a member of Invoice makes its type no longer bare.
  assert.equal(writtenHalfEvidence(body, 6, surface, [item(['p.Invoice#total()'])], target).unusedLocalTypesBare, 0);
  // A comment naming a local does not use it; nothing written means no evidence.
  assert.equal(writtenHalfEvidence('\n  Invoice inv = null; // inv later\n', 1, surface, [], target).unusedLocals, 1);
  assert.deepEqual(writtenHalfEvidence('\n', 0, surface, [], target), { unusedLocals: 0, unusedLocalTypesBare: 0, unusedParams: 0, unusedParamTypesBare: 0 });
  const untouched = writtenHalfEvidence('\n  log();\n', 1, surface, [], target);
  assert.equal(untouched.unusedParams, 2);
  assert.equal(untouched.unusedParamTypesBare, 1, 'Order, with no member shown');
});

test('ShownItems.covers equals itemCovers over every item, on random items and entries', () => {
  let seed = 7;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  const uris = ['file:///ws/A.java', 'file:///ws/B.java', 'file:///ws/C.java'];
  const names = ['foo', 'bar', 'fooBar', 'Baz', '$x'];
  for (let round = 0; round < 300; round++) {
    const items: ContextItem[] = Array.from({ length: Math.floor(rand() * 6) }, () => {
      const start = Math.floor(rand() * 20);
      return {
        uri: pick(uris), range: { start: { line: start, character: 0 }, end: { line: start + Math.floor(rand() * 8), character: 0 } },
        text: Array.from({ length: 3 }, () => pick([...names, 'x.foo2', '(bar)'])).join(' '), tokens: 1, score: 1, sources: ['lexical'], untrusted: true,
        ...(rand() < 0.3 ? { symbol: `p.A#${pick(names)}()` } : {}),
      };
    });
    const shown = new ShownItems(items);
    for (let k = 0; k < 10; k++) {
      const e: SurfaceEntry = { symbol: `p.${pick(['A', 'B'])}#${pick(names)}()`, kind: 'method', internal: true, covered: false, novelty: 0, weight: 0.5,
        ...(rand() < 0.9 ? { uri: pick(uris), line: Math.floor(rand() * 30) } : {}) };
      assert.equal(shown.covers(e), items.some((it) => itemCovers(it, e)), JSON.stringify({ e, items }));
    }
  }
});
