// The pieces of honest rendering: Javadoc summaries, fence languages, per-file merging of items
// by their source-line maps, and the group outline with its gap markers.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ContextItem, SourceLine } from '../../shared/protocol';
import { docSummary } from '../../server/src/retrieval/symbols';
import { fileText, languageOf, renderContext } from '../../server/src/render/markdown';
import { foldBodies, gapText } from '../../server/src/render/shownLines';
import { countTokens } from '../../server/src/retrieval/cap';
import { itemsForSymbols } from '../../server/src/retrieval/pipeline';
import { fixture } from '../retrieval/fixture';

test('docSummary: abbreviations, inline tags and HTML', () => {
  assert.equal(docSummary('Operation name, e.g. {@code invoice.issue}. Compliance groups by it.'), 'Operation name, e.g. invoice.issue.');
  assert.equal(docSummary('The key, i.e. the first column. More.'), 'The key, i.e. the first column.');
  assert.equal(docSummary('Caches lines, tokens, etc. until the index changes. More.'), 'Caches lines, tokens, etc. until the index changes.');
  assert.equal(docSummary('Reads a, b, etc. Then stops.'), 'Reads a, b, etc.');
  assert.equal(docSummary('Only {@linkplain Status#isSettleable() settleable} orders. Others fail.'), 'Only settleable orders.');
  assert.equal(docSummary('Like {@link #attempt(Supplier)} for outcomes. More.'), 'Like attempt(Supplier) for outcomes.');
  assert.equal(docSummary('Moves to {@link OrderStatus#SETTLED}. More.'), 'Moves to OrderStatus.SETTLED.');
  assert.equal(docSummary('Formats {@code a. b} as text. More.'), 'Formats a. b as text.');
  assert.equal(docSummary('Display form {@code O-<n>}. More.'), 'Display form O-<n>.');
  assert.equal(docSummary('Returns <b>bold</b> &lt;T&gt; values\n<p>Second paragraph. More.'), 'Returns bold <T> values');
  assert.equal(docSummary('No period at all'), 'No period at all');
  assert.equal(docSummary('@return only tags'), '');
  assert.equal(docSummary('x '.repeat(200), 40).endsWith('…'), true);
  // An abbreviation at the very start, white space runs across lines, a character outside the BMP,
  // a paragraph tag before any text (no cut), an entity that is none, a block element after text (a cut).
  assert.equal(docSummary('cf. the docs. More.'), 'cf. the docs.');
  assert.equal(docSummary('About approx. five items. Next.'), 'About approx. five items.');
  assert.equal(docSummary('A  \n  spaced   text. More.'), 'A spaced text.');
  assert.equal(docSummary('Emoji \u{1F600} here. More.'), 'Emoji \u{1F600} here.');
  assert.equal(docSummary('<p>Leading paragraph. More.'), 'Leading paragraph.');
  assert.equal(docSummary('See &amp; &bogus; use. Next.'), 'See & &bogus; use.');
  assert.equal(docSummary('Text <pre>code</pre> after.'), 'Text');
});

test('the fence language follows the file', () => {
  assert.equal(languageOf('file:///w/A.java'), 'java');
  assert.equal(languageOf('file:///w/openapi.yaml'), 'yaml');
  assert.equal(languageOf('file:///w/app.yml'), 'yaml');
  assert.equal(languageOf('file:///w/application.properties'), 'properties');
  assert.equal(languageOf('file:///w/pom.xml'), 'xml');
  assert.equal(languageOf('file:///w/README.md'), 'markdown');
  assert.equal(languageOf('file:///w/Makefile'), 'text');
});

test('gap markers say what they hide', () => {
  assert.equal(gapText('  ', { start: 3, end: 8, members: [] }), '  // … 6 lines');
  assert.equal(gapText('', { start: 3, end: 3, members: [] }), '// … 1 line');
  assert.equal(gapText('    ', { start: 3, end: 9, members: [3, 5, 8] }), '    // … 3 members');
  assert.equal(gapText('    ', { start: 3, end: 3, members: [3], constants: true }), '    // … 1 constant');
  assert.equal(gapText('  ', { start: 3, end: 7, members: [], javadoc: true }), '  /** … */');
});

test('the rest of a body folds onto the line that opens it, only when that line is shown right before it and opens it', () => {
  const body = { start: 4, end: 6, members: [], body: true };
  const gap = { text: '    // … 3 lines', at: { line: 3, written: 'gap' as const, hidden: body } };
  assert.deepEqual(foldBodies([{ text: '  void m() {', at: { line: 3 } }, gap]), [{ text: '  void m() { … }', at: { line: 3, hidden: body } }]);
  // Not after a line that does not end with `{`, nor after another line than the one before the body, nor without `body`.
  assert.equal(foldBodies([{ text: '  void m() { // starts', at: { line: 3 } }, gap]).length, 2);
  assert.equal(foldBodies([{ text: '  void m() {', at: { line: 2 } }, gap]).length, 2);
  assert.equal(foldBodies([{ text: '  void m() {', at: { line: 3 } }, { ...gap, at: { ...gap.at, hidden: { start: 4, end: 6, members: [] } } }]).length, 2);
  // Cheaper than the marker line it replaces.
  assert.ok(countTokens('  void m() { … }') < countTokens('  void m() {\n    // … 3 lines'));
});

test('a signature shown without its Javadoc marks it, a Javadoc whose lines lack `*` included', async () => {
  const { req } = await fixture({
    'p/V.java': 'package p;\npublic final class V {\n    /**\n     Validates it\n\n     * @param o the object\n     */\n    public static void check(Object o) {\n        if (o == null) throw new IllegalStateException();\n    }\n}\n',
    'p/Use.java': 'package p;\nclass Use { void f() { $0 } }\n',
  });
  const [sig] = itemsForSymbols(req, ['p.V#check(Object)'], 'followup', { doc: false });
  // Indented one space per level of the file's four (compactIndent): a token less a line.
  assert.deepEqual(sig.text.split('\n'), ['public final class V {', ' /** … */', ' public static void check(Object o) { … }']);
  // The folded line is source line 7, and says which lines its `… }` stands for.
  assert.deepEqual(sig.sourceLines![2], { line: 7, hidden: { start: 8, end: 9, members: [], body: true } });
  assert.deepEqual(sig.sourceLines![1].hidden, { start: 2, end: 6, members: [], javadoc: true });
  const [withDoc] = itemsForSymbols(req, ['p.V#check(Object)'], 'followup');
  assert.ok(withDoc.text.includes(' /** Validates it */\n public static void check(Object o) {'), withDoc.text);
  assert.ok(!withDoc.text.includes('*/\n /** Validates'), 'the summarised Javadoc is not a gap');
});

function item(lines: [string, SourceLine][], start: number, end: number): ContextItem {
  return {
    uri: 'file:///w/A.java', range: { start: { line: start, character: 0 }, end: { line: end, character: 0 } },
    text: lines.map((l) => l[0]).join('\n'), sourceLines: lines.map((l) => l[1]), tokens: 1, score: 1, sources: ['graph'], untrusted: true,
  };
}

test('items of one file are shown as the union of their lines, once, in source order, gaps re-cut', () => {
  // Item 1: the class header and a field, members 2..20 hidden. Item 2: the class header again and a method at 10..12.
  const a = item([
    ['class A {', { line: 0 }],
    ['  int x;', { line: 1 }],
    ['  // … 3 members', { line: 0, written: 'gap', hidden: { start: 2, end: 20, members: [2, 10, 15] } }],
  ], 0, 1);
  const body = { start: 11, end: 13, members: [], body: true };
  const b = item([
    ['class A {', { line: 0 }],
    ['  /** Does m. */', { line: 10, written: 'doc' }],
    ['  void m() { … }', { line: 10, hidden: body }],
  ], 0, 13);
  const merged = fileText([b, a]).split('\n');
  assert.deepEqual(merged, [
    'class A {',
    '  int x;',
    '  // … 1 member',
    '  /** Does m. */',
    '  void m() { … }',
    '  // … 1 member',
  ]);
  // Another item shows a line of the folded body: the fold opens, and what is still hidden is marked around it.
  const c = item([['      x();', { line: 12 }]], 12, 12);
  assert.deepEqual(fileText([b, c]).split('\n'), ['class A {', '  /** Does m. */', '  void m() {', '      // … 1 line', '      x();', '      // … 1 line']);
  // One item: exactly its text.
  assert.equal(fileText([a]), a.text);
  // An item without a map is shown as it is, after the merged ones.
  const raw = { ...item([['raw', { line: 30 }]], 30, 30), sourceLines: undefined };
  assert.deepEqual(fileText([a, raw]).split('\n').at(-1), 'raw');
});

test('a group\'s lines are indented one space per level of the file\'s indentation (spaces or tabs), the rest of each line verbatim, for fewer tokens', async () => {
  const body = (ind: string) => ['package p;', 'public class T {', `${ind}public int a() { return 1; }`, `${ind}static class In {`, `${ind}${ind}int b() { return 2; }`, `${ind}}`, '}', ''].join('\n');
  for (const [name, ind] of [['two spaces', '  '], ['four spaces', '    '], ['tabs', '\t']]) {
    const { req } = await fixture({ 'p/T.java': body(ind), 'p/Use.java': 'package p;\nclass Use { void f() { $0 } }\n' });
    const [g] = itemsForSymbols(req, ['p.T#a()', ...['p.T.In#b()', 'p.T$In#b()'].filter((id) => req.index.symbol(id))], 'followup', { doc: false });
    assert.deepEqual(g.text.split('\n'), ['public class T {', ' public int a() { return 1; }', ' static class In {', '  int b() { return 2; }', ' }'], name);
    const src = body(ind).split('\n');
    g.sourceLines!.forEach((at, i) => { if (!at.written) assert.equal(g.text.split('\n')[i].trimStart(), src[at.line].trimStart(), `${name}: line ${at.line} verbatim after its indentation`); });
    if (ind !== '  ') assert.ok(g.tokens < countTokens(g.sourceLines!.map((at) => src[at.line]).join('\n')), `${name}: cheaper than the file's indentation`);
  }
});

test('a type group: header once, members in place, every stretch left out marked, lines mapped', async () => {
  const { req } = await fixture({
    'p/Kinds.java': [
      'package p;',
      '/** Kinds of things. */',
      'public enum Kinds {',
      '    ALPHA("the first of every kind of thing, before all the others"),',
      '    BETA,',
      '    GAMMA,',
      '    DELTA;',
      '',
      '    /** Whether it is early, e.g. alpha. */',
      '    public boolean early() {',
      '        return this == ALPHA;',
      '    }',
      '',
      '    public int rank() { return ordinal(); }',
      '    public static class Nested { public void n() {} }',
      '}',
      '',
    ].join('\n'),
    'p/Use.java': 'package p;\nclass Use { void f() { $0 } }\n',
  });
  const [g] = itemsForSymbols(req, ['p.Kinds#BETA', 'p.Kinds#GAMMA', 'p.Kinds#early()', 'p.Kinds'], 'followup');
  assert.deepEqual(g.text.split('\n'), [
    '/** Kinds of things. */',
    'public enum Kinds {',
    ' // … 1 constant',
    ' BETA,',
    ' GAMMA,',
    // A stretch no dearer than its marker is shown instead of it.
    ' DELTA;',
    ' /** Whether it is early, e.g. alpha. */',
    ' public boolean early() { … }',
    ' // … 2 members',
  ]);
  assert.deepEqual(g.sourceLines!.map((s) => s.written ?? s.line), ['doc', 2, 'gap', 4, 5, 6, 'doc', 9, 'gap']);
  assert.deepEqual(g.sourceLines![7].hidden, { start: 10, end: 11, members: [], body: true });
  assert.deepEqual(g.sourceLines!.at(-1)!.hidden, { start: 13, end: 14, members: [13, 14] });
  // The whole result renders through the same renderer, with the file's language.
  const md = renderContext({ items: [g], tokens: g.tokens, tokenizer: 't', coverage: 1, novelty: 0, confidence: 1, threshold: 0.5, review: false, reviewReasons: [], rounds: 0, dependencySurface: [], uncertainty: { api: 0, repository: 0, similar: 0 }, timingsMs: { total: 0 } });
  assert.ok(md.includes('```java untrusted\n' + g.text + '\n```'));
});

test('a Javadoc left out right after a marked stretch joins its marker; alone it keeps `/** … */`; merged items keep it marked', async () => {
  const { req } = await fixture({
    'p/W.java': [
      'package p;',
      'public class W {',
      '    public void a() {}',
      '    public void b() {}',
      '    /** Does c. */',
      '    public void c() {}',
      '    /**',
      '     * Does d.',
      '     */',
      '    public void d() {}',
      '}',
      '',
    ].join('\n'),
    'p/N.java': 'package p;\npublic class N {\n    static class In {\n        void x() {}\n    }\n    /** Does y. */\n    void y() {}\n}\n',
    'p/Use.java': 'package p;\nclass Use { void f() { $0 } }\n',
  });
  const [g] = itemsForSymbols(req, ['p.W#c()', 'p.W#d()'], 'followup', { doc: false });
  // c's Javadoc follows the hidden a and b: one marker stands for all three; d's follows the shown c.
  assert.deepEqual(g.text.split('\n'), ['public class W {', ' // … 2 members', ' public void c() {}', ' /** … */', ' public void d() {}']);
  assert.deepEqual(g.sourceLines![1].hidden, { start: 2, end: 4, members: [2, 3] });
  assert.deepEqual(g.sourceLines![3].hidden, { start: 6, end: 8, members: [], javadoc: true });
  assert.ok(countTokens(g.text) < countTokens(['public class W {', ' // … 2 members', ' /** … */', ' public void c() {}', ' /** … */', ' public void d() {}'].join('\n')) - 2);
  // Another item of the file shows b: the Javadoc of c, left between b and c, is still marked once.
  const b = item([[' public void b() {}', { line: 3 }]], 3, 3);
  const merged = fileText([{ ...g, uri: b.uri }, b]).split('\n');
  assert.deepEqual(merged, ['public class W {', ' // … 1 member', ' public void b() {}', ' // … 1 line', ' public void c() {}', ' /** … */', ' public void d() {}']);
  // After a nested type's closing brace (no declaration hidden), the Javadoc keeps its own marker.
  const [n] = itemsForSymbols(req, ['p.N#y()', ...['p.N.In#x()', 'p.N$In#x()'].filter((id) => req.index.symbol(id))], 'followup', { doc: false });
  assert.deepEqual(n.text.split('\n'), ['public class N {', ' static class In {', '  void x() {}', ' }', ' /** … */', ' void y() {}']);
});

test('one Javadoc first-sentence cut: the shown summary, recall\'s description and a chunk\'s description agree', async () => {
  const { factsOfText } = await import('../../server/src/index/parseFile');
  const { chunkJavaFile } = await import('../../server/src/retrieval/chunks/java');
  const { describe } = await import('../../server/src/retrieval/recall/descriptions');
  const javadoc = 'Operation name, e.g. {@code invoice.issue}, as {@link Audit#log(String) logged}.\n<p>Compliance groups by it. More.';
  const text = `package p;\nclass Audit {\n  /**\n   * ${javadoc.split('\n').join('\n   * ')}\n   */\n  String value() { return "x"; }\n}\n`;
  const facts = await factsOfText(text);
  const sym = facts.symbols.find((s) => s.name === 'value')!;
  const summary = docSummary(sym.javadoc);
  assert.equal(summary, 'Operation name, e.g. invoice.issue, as logged.');
  // Recall's description document and the chunk's description start with the very same sentence.
  assert.equal(describe(sym, facts.symbols.find((s) => s.name === 'Audit')).doc, summary);
  const chunk = chunkJavaFile('p/Audit.java', text, facts).find((c) => c.symbol === sym.id)!;
  assert.ok(chunk.description?.startsWith(summary + ' method'), chunk.description);
});
