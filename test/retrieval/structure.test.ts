// Dependence graph, pruning, cap and Java chunking.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { statementGraph, closeness, dependenceRerank, distances, EDGE_WEIGHTS } from '../../server/src/retrieval/dependence';
import { keepLines, pruneEnclosing, declarationLines } from '../../server/src/retrieval/prune';
import { countTokens, fitToBudget } from '../../server/src/retrieval/cap';
import { chunkJavaFile, splitStatements } from '../../server/src/retrieval/chunks/java';
import { buildQuery } from '../../server/src/retrieval/query';
import { factsOfText } from '../../server/src/index/parseFile';
import type { Merged } from '../../server/src/retrieval/merge';
import type { ContextItem } from '../../shared/protocol';
import { fixture, SHOP } from './fixture';

const METHOD = `int f(int n) {
  int a = near(n);
  if (a > 0) {
    a = mid(a);
  } else {
    a = 0;
  }
  for (int i = 0; i < n; i++) {
    a += far(i);
  }
  return a;
}`;

test('dependence: statements, CFG/CDG/DDG edges and the cursor statement', async () => {
  const g = await statementGraph(METHOD, 1);
  const kinds = g.statements.map((s) => s.kind);
  assert.deepEqual(kinds.slice(0, 3), ['local_variable_declaration', 'if_statement', 'expression_statement']);
  assert.equal(g.cursor, 0);
  const ifId = 1, thenId = 2;
  assert.ok(g.cfg.some(([a, b]) => a === 0 && b === ifId));
  assert.ok(g.cfg.some(([a, b]) => a === ifId && b === thenId));
  assert.ok(g.cdg.some(([a, b]) => a === ifId && b === thenId));
  assert.ok(g.ddg.some(([a, b]) => a === 0 && b === ifId), 'a defined in 0, used by the if condition');
  const loop = g.statements.find((s) => s.kind === 'for_statement')!;
  const body = g.statements.find((s) => s.idents.has('far'))!;
  assert.ok(g.cfg.some(([a, b]) => a === body.id && b === loop.id), 'loop back edge');
  const d = distances(g.statements.length, g.cfg, g.cursor);
  assert.equal(d[0], 0);
  assert.ok(d[body.id] > d[thenId]);
});

test('dependence: closeness decays with distance, CFG weighs most; only top-k is re-ranked', async () => {
  const g = await statementGraph(METHOD, 1);
  assert.ok(closeness(g, 'near') > closeness(g, 'mid'));
  assert.ok(closeness(g, 'mid') > closeness(g, 'far'));
  assert.equal(closeness(g, 'absent'), 0);
  assert.ok(EDGE_WEIGHTS.cfg > EDGE_WEIGHTS.cdg && EDGE_WEIGHTS.cdg === EDGE_WEIGHTS.ddg);
  const mk = (name: string, score: number) => ({ id: name, score, sources: ['graph'], reasons: [], group: 'T', ref: { sym: { name, kind: 'method' } } }) as unknown as Merged;
  const out = dependenceRerank([mk('far', 1.0), mk('near', 0.9), mk('other', 0.8)], g, 2);
  assert.deepEqual(out.map((m) => m.id), ['near', 'far', 'other']);
  const out2 = dependenceRerank([mk('far', 1.0), mk('other', 0.8), mk('near', 0.1)], g, 2);
  assert.equal(out2[2].id, 'near', 'beyond top-k nothing moves');
});

test('prune: whole lines, marked elisions, signature kept, cursor window', async () => {
  const lines = ['a', '  b', '  c', '  d', 'e'];
  const kept = keepLines(lines, 0, 4, new Set([0, 4]));
  assert.deepEqual(kept.map((s) => s.text), ['a', '  // … 3 lines', 'e']);
  assert.deepEqual(kept.map((s) => s.at), [{ line: 0 }, { line: 0, written: 'gap', hidden: { start: 1, end: 3, members: [] } }, { line: 4 }]);
  const body = Array.from({ length: 100 }, (_, i) => `    x${i}();`).join('\n');
  const { req } = await fixture({ 'p/Big.java': `package p;\nclass Big {\n  /** Does a lot. */\n  void big() {\n${body.replace('x50();', 'x50();$0')}\n  }\n}\n` });
  const q = buildQuery(req);
  const lines2 = req.textOf(req.path)!.split('\n');
  const shown = pruneEnclosing(q, lines2, req.position.line)!;
  const text = shown.lines.map((s) => s.text);
  assert.ok(text.some((l) => l.includes('void big() {')));
  assert.ok(text.some((l) => l.includes('x50();')));
  assert.ok(!text.some((l) => l.includes('x20();')));
  assert.ok(text.some((l) => /\/\/ … \d+ lines$/.test(l)));
  for (const l of text) if (!l.startsWith('//') && !l.includes('… ')) assert.ok(lines2.includes(l), `not a whole line: ${l}`);
  const m = req.index.symbol('p.Big#big()')!;
  const d = declarationLines(m, lines2).lines.map((s) => s.text);
  assert.deepEqual(d.slice(0, 2), ['  /** Does a lot. */', '  void big() {']);
  assert.match(d[2], /\/\/ … \d+ lines$/);
  // The rest of the body, which the signature's `{` opens: folded onto it when shown (outline.ts).
  const dl = declarationLines(m, lines2).lines;
  assert.deepEqual(dl[2].at.hidden, { start: m.sym.span.sl + 1, end: m.sym.span.el, members: [], body: true });
});

test('cap: real tokenizer, drops whole lowest items, never exceeds', () => {
  assert.equal(countTokens('hello world'), 2);
  const it = (score: number, tokens: number): ContextItem => ({ uri: 'file:///x', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '', tokens, score, sources: ['graph'], untrusted: true });
  const items = [it(9, 100), it(1, 50), it(5, 60), it(3, 40)];
  const out = fitToBudget(items, 200, 1);
  assert.ok(out.reduce((s, i) => s + i.tokens, 0) <= 200);
  assert.deepEqual(out.map((i) => i.score), [9, 5, 3]);
  assert.deepEqual(fitToBudget(items, 10, 1), []);
});

test('chunks/java: method chunks carry package, used imports, class header, touched fields', async () => {
  const { req } = await fixture(SHOP);
  const path = [...req.index.allFiles()].find((f) => f.path.endsWith('OrderLine.java'))!;
  const chunks = chunkJavaFile(path.path, req.textOf(path.path)!, path.facts);
  const q = chunks.find((c) => c.symbol === 'com.acme.order.OrderLine#unitPrice()')!;
  assert.match(q.header!, /^package com\.acme\.order;/);
  assert.match(q.header!, /\/\/ in com\.acme\.order\.OrderLine \(class\)/);
  assert.match(q.header!, /private final Money unitPrice;/);
  assert.doesNotMatch(q.header!, /quantity/);
  assert.match(q.header!, /import com\.acme\.money\.Money;/);
  const money = [...req.index.allFiles()].find((f) => f.path.endsWith('Money.java'))!;
  const plus = chunkJavaFile(money.path, req.textOf(money.path)!, money.facts).find((c) => c.symbol === 'com.acme.money.Money#plus(Money)')!;
  assert.match(plus.header!, /public Money\(long cents\) \{ this\.cents = cents; \} \/\/ constructor/);
  assert.match(plus.header!, /private final long cents;/);
  const lines = req.textOf(path.path)!.split('\n');
  for (const c of chunks) assert.equal(c.text, lines.slice(c.startLine, c.endLine + 1).join('\n'));
});

test('chunks/java: a large method splits at statement boundaries, never between if and else', async () => {
  const stmts: string[] = [];
  for (let i = 0; i < 30; i++) stmts.push(i % 5 === 2 ? `    if (x > ${i}) {\n      y += compute${i}(x, y, "a fairly long literal");\n    } else {\n      y -= ${i};\n    }` : `    y = transform${i}(y, x, "another fairly long literal string");`);
  const text = `package p;\nclass L {\n  int big(int x, int y) {\n${stmts.join('\n')}\n    return y;\n  }\n}\n`;
  const facts = await factsOfText(text);
  const s = facts.symbols.find((x) => x.name === 'big')!;
  const lines = text.split('\n');
  const pieces = splitStatements(lines, s, s.span.sl);
  assert.ok(pieces.length > 3);
  for (const p of pieces) {
    const first = lines[p.start].trim();
    assert.ok(!first.startsWith('} else') && !first.startsWith('y += ') && !first.startsWith('y -= '), `bad split at: ${first}`);
  }
  assert.equal(pieces[0].start, s.span.sl);
  assert.equal(pieces[pieces.length - 1].end, s.span.el);
  for (let i = 1; i < pieces.length; i++) assert.equal(pieces[i].start, pieces[i - 1].end + 1);
  const chunks = chunkJavaFile('/x/L.java', text, facts);
  assert.ok(chunks.length === pieces.length && chunks[1].header!.includes('// (continued)'));
});
