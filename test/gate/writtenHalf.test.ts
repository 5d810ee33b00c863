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
import { factsOfText } from '../../server/src/index/parseFile';

const URI = 'file:///ws/A.java';
const type = (symbol: string): SurfaceEntry => ({ symbol, kind: 'class', uri: URI, line: 1, internal: true, covered: false, novelty: 0.5, weight: 1, written: true });
const item = (symbols: string[]): ContextItem & { symbols: string[] } =>
  ({ uri: URI, range: { start: { line: 0, character: 0 }, end: { line: 9, character: 0 } }, text: 'x', tokens: 1, score: 1, sources: ['lexical'], untrusted: true, symbol: symbols[0], symbols });

/** The target `run` of class p.A whose body is `body`, with the facts the extractor gives it. */
async function targetWith(body: string): Promise<Target> {
  const facts = await factsOfText(`package p;\nclass A {\n  int run(Order order, int limit) {${body}}\n}\n`);
  const sym = facts.symbols.find((s) => s.name === 'run')!;
  return { ref: { sym }, owner: { sym: facts.symbols.find((s) => s.name === 'A')! } } as unknown as Target;
}

test('unused locals and parameters of the written half, and their workspace types with no member shown', async () => {
  const body = [
    '',
    '  Cart cart = order.cart();   // read below',
    '  Invoice inv = new Invoice(); // never read again',
    '  final List<Line> lines = cart.lines();',
    '  A self = this;',
    '  int n = 0;',
    '  Runnable r = () -> { Cart cart2 = null; };',
    '  for (Line l : cart.lines()) total(l);',
    '  return cart.total();',
    '',
  ].join('\n');
  const target = await targetWith(body);
  const surface = [type('p.Cart'), type('p.Invoice'), type('p.Order'), type('p.A')];
  const f = writtenHalfEvidence(true, 8, surface, [], target);
  assert.equal(f.unusedLocals, 6, 'inv, lines, self, n, r and the lambda\'s cart2 are declared and not used; cart and l are used, `return cart` declares nothing');
  assert.equal(f.unusedLocalTypesBare, 2, 'Invoice and the lambda\'s Cart; List is not a workspace type and A is the own class');
  assert.equal(f.unusedTypes, 2, 'the same two, whether shown or not');
  assert.equal(f.writtenTypes, 3, 'Cart, Invoice and Order are written workspace types; A is the own class');
  assert.equal(f.writtenOwnRefs, 1, 'the own class');
  assert.equal(f.unusedParams, 1, 'limit is not used yet; order is');
  assert.equal(f.unusedParamTypesBare, 0, 'int is no workspace type');
  // Showing a member of Invoice makes its type no longer bare.
  const shown = writtenHalfEvidence(true, 8, surface, [item(['p.Invoice#total()'])], target);
  assert.equal(shown.unusedLocalTypesBare, 1);
  assert.equal(shown.unusedTypes, 2);
  // A comment or a string naming a local does not use it; a member of the same name does not either.
  assert.equal(writtenHalfEvidence(true, 1, surface, [], await targetWith('\n  Invoice inv = null; // inv later\n  log("inv", this.inv);\n')).unusedLocals, 1);
  // An assignment, a shadowing lambda parameter's scope and a method reference: used where the name resolves to the local.
  assert.equal(writtenHalfEvidence(true, 3, surface, [], await targetWith('\n  Cart c = null;\n  c = order.cart();\n  Invoice i = null; f(i::total);\n')).unusedLocals, 0);
  // Nothing written, or not a partial body, means no evidence.
  const none = { unusedLocals: 0, unusedLocalTypesBare: 0, unusedParams: 0, unusedParamTypesBare: 0, unusedTypes: 0, writtenTypes: 0, writtenOwnRefs: 0 };
  assert.deepEqual(writtenHalfEvidence(true, 0, surface, [], target), none);
  assert.deepEqual(writtenHalfEvidence(false, 8, surface, [], target), none);
  const untouched = writtenHalfEvidence(true, 1, surface, [], await targetWith('\n  log();\n'));
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
