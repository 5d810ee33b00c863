// The masked-method benchmark's import protocol (bench/retrieval/tasks.ts ImportProtocol): an
// import only the hidden code used is blanked with it, one anything left in the file uses stays,
// wildcards stay, and every line keeps its number (gold positions, cursors and line attribution
// depend on it). The existing scenario and the old protocol (kept) change nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { maskText, scenarioTask, type GoldSymbol, type OracleBody, type Task } from '../../bench/retrieval/tasks';

const FILE = [
  '/* License header. */',
  'package org.acme.shop;',
  '',
  'import java.util.List;',
  'import org.acme.money.Money;',
  'import org.acme.tax.TaxTable;',
  'import org.acme.tax.Rounding;',
  'import static org.acme.tax.Rates.STANDARD_RATE;',
  'import static org.acme.tax.Rates.reducedRate;',
  'import org.acme.util.*;',
  'import static org.acme.util.Checks.*;',
  'import org.acme.audit.Auditor; // used in a Javadoc only',
  '',
  '/** Prices an order; see {@link Auditor}. */',
  'public class Pricer {',
  '  private final List<Money> lines;',
  '',
  '  Pricer(List<Money> lines) { this.lines = lines; }',
  '',
  '  Money total(String region) {',
  '    Money sum = Money.zero();',
  '    for (Money m : lines) sum = sum.plus(m);',
  '    TaxTable table = TaxTable.of(region);',
  '    Money tax = table.apply(sum, STANDARD_RATE);',
  '    tax = Rounding.HALF_UP.round(tax);',
  '    String note = "Auditor and reducedRate are only named in this string";',
  '    return sum.plus(tax).max(tax.times(reducedRate()));',
  '  }',
  '',
  '  Money rounded(Money m) {',
  '    return m.round(Rounding.HALF_UP);',
  '  }',
  '}',
  '',
].join('\n');

/** The body of `total`, as the javac oracle reports it. */
function bodyOf(text: string, signature: string): OracleBody {
  const startOffset = text.indexOf('{', text.indexOf(signature));
  const closeLine = text.slice(startOffset).split('\n').findIndex((l) => l === '  }');
  const lines = text.split('\n');
  const startLine = text.slice(0, startOffset).split('\n').length - 1;
  const endLine = startLine + closeLine;
  const endOffset = lines.slice(0, endLine).join('\n').length + 1 + lines[endLine].indexOf('}') + 1;
  return { startLine, startCol: lines[startLine].indexOf('{'), endLine, endCol: lines[endLine].indexOf('}') + 1, startOffset, endOffset };
}

const body = bodyOf(FILE, 'Money total(');
const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle));
/** A same-file gold symbol below the body: masking moves it up by the body's removed lines (as tasks.ts eligibleTasks records). */
const gold = (name: string, line: number): GoldSymbol => ({ qualified: `org.acme.shop.Pricer#${name}`, name, kind: 'method', file: 'org/acme/shop/Pricer.java', line, maskedLine: line - (body.endLine - body.startLine - 2), crossFile: false, lineText: FILE.split('\n')[line].trim(), firstUseLine: body.startLine + 1 });
const TASK: Task = {
  id: 'org.acme.shop.Pricer#total(java.lang.String)', qualified: 'org.acme.shop.Pricer#total(java.lang.String)', file: 'org/acme/shop/Pricer.java', split: 'validation', body,
  gold: [gold('rounded', lineOf(FILE, 'Money rounded('))], cursor: { line: body.startLine + 1, character: 4 },
};

const imports = (text: string) => text.split('\n').filter((l) => l.startsWith('import'));

test('masking: the imports only the emptied body used are blanked, the rest stay', () => {
  assert.equal(FILE.slice(body.startOffset, body.endOffset).startsWith('{') && FILE.slice(body.startOffset, body.endOffset).endsWith('}'), true);
  const masked = maskText(FILE, body);
  assert.deepEqual(imports(masked), [
    'import java.util.List;', // used by a field
    'import org.acme.money.Money;', // used by the signature and fields
    'import org.acme.tax.Rounding;', // used by the other method too
    'import org.acme.util.*;', // a wildcard stays
    'import static org.acme.util.Checks.*;', // a static wildcard stays
    'import org.acme.audit.Auditor; // used in a Javadoc only', // the class Javadoc's {@link} is a use
  ]);
  // Only the body used TaxTable, the static field STANDARD_RATE and the static method reducedRate.
  for (const gone of ['TaxTable', 'STANDARD_RATE', 'reducedRate']) assert.ok(!masked.split('\n').some((l) => l.startsWith('import') && l.includes(gone)), gone);
});

test('masking keeps every line number: a blanked import leaves an empty line, later lines and the gold stay put', () => {
  const masked = maskText(FILE, body);
  const kept = maskText(FILE, body, 'kept');
  assert.equal(masked.split('\n').length, kept.split('\n').length);
  const m = masked.split('\n'), k = kept.split('\n');
  for (let i = 0; i < k.length; i++) assert.equal(m[i], k[i].startsWith('import') && !m[i].startsWith('import') ? '' : k[i], `line ${i}`);
  assert.equal(m[lineOf(FILE, 'import org.acme.tax.TaxTable;')], '');
  // The cursor line is inside the emptied body, and a same-file gold's masked line still names it.
  assert.equal(m[body.startLine], FILE.split('\n')[body.startLine]);
  assert.equal(m[TASK.cursor.line].trim(), '');
  const st = scenarioTask(FILE, TASK, 'new');
  for (const g of st.gold) assert.equal(m[g.maskedLine].trim(), g.lineText);
  assert.equal(st.text, masked);
});

test('masking: the old protocol (kept) keeps every import, and the existing scenario changes nothing', () => {
  const kept = maskText(FILE, body, 'kept');
  assert.deepEqual(imports(kept), imports(FILE));
  assert.equal(kept, FILE.slice(0, body.startOffset) + '{\n    \n}' + FILE.slice(body.endOffset));
  assert.equal(scenarioTask(FILE, TASK, 'existing').text, FILE);
  assert.equal(scenarioTask(FILE, TASK, 'partial', 'kept').text.split('\n').filter((l) => l.startsWith('import')).length, imports(FILE).length);
});

test('partial scenario: an import the kept half uses stays, one only the cut half used is blanked', () => {
  const st = scenarioTask(FILE, TASK, 'partial');
  const kept = scenarioTask(FILE, TASK, 'partial', 'kept');
  assert.equal(st.text.split('\n').length, kept.text.split('\n').length);
  assert.deepEqual(st.cursor, kept.cursor);
  // The first half (Money.zero(), the loop, TaxTable.of) stays written, so TaxTable's import stays;
  // STANDARD_RATE and reducedRate were used only below the cut.
  const kept3 = st.text.split('\n').slice(body.startLine + 1, st.cursor.line).join('\n');
  assert.ok(kept3.includes('TaxTable.of(region)'), kept3);
  const is = imports(st.text);
  assert.ok(is.includes('import org.acme.tax.TaxTable;'));
  assert.ok(!is.some((l) => l.includes('STANDARD_RATE') || l.includes('reducedRate')));
  assert.ok(is.includes('import org.acme.tax.Rounding;'));
});

test('an apostrophe in a comment is no character literal: a Javadoc link after `Can\'t … it\'s` keeps its import', () => {
  const file = [
    'package p;',
    'import q.Foo;',
    'import q.Bar;',
    '/** Can\'t take {@link Foo} if it\'s null. */',
    'class A {',
    '  void f() { Foo.x(); Bar.y(); char c = \'"\'; }',
    '}',
    '',
  ].join('\n');
  const start = file.indexOf('{ Foo'), end = file.indexOf('}', start) + 1;
  const masked = maskText(file, { startOffset: start, endOffset: end } as OracleBody);
  assert.match(masked, /import q\.Foo;/, 'the Javadoc names Foo');
  assert.doesNotMatch(masked, /import q\.Bar;/, 'only the body used Bar');
  assert.equal(masked.split('\n').length, maskText(file, { startOffset: start, endOffset: end } as OracleBody, 'kept').split('\n').length);
});

test('partial scenario: what the kept half already uses is `written`, not gold, and both are located in the cut text', () => {
  const early = gold('rounded', lineOf(FILE, 'Money rounded('));
  const late = { ...early, qualified: 'org.acme.shop.Pricer#rounded(late)', firstUseLine: body.endLine - 1 };
  const st = scenarioTask(FILE, { ...TASK, gold: [early, late] }, 'partial');
  assert.deepEqual(st.gold.map((g) => g.qualified), [late.qualified]);
  assert.deepEqual(st.written?.map((g) => g.qualified), [early.qualified]);
  const cut = st.text.split('\n');
  // The body lost lines below the cut, so the same-file declaration after it moved up in the text.
  assert.ok(st.gold[0].maskedLine < early.line);
  for (const g of [...st.gold, ...st.written!]) assert.equal(cut[g.maskedLine].trim(), g.lineText);
  assert.equal(scenarioTask(FILE, TASK, 'new').written, undefined);
});
