// The one Java lexer (server/src/java/lexer.ts) the gate's scenario judgement and the brace repair share.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { codeOnly, lexJava, type Segment } from '../../server/src/java/lexer';
import { repairUnclosedBodies } from '../../server/src/java/braceRepair';

const kinds = (text: string) => lexJava(text).map((s: Segment) => `${s.kind}:${text.slice(s.start, s.end)}${s.closed ? '' : '…'}`);

test('lexer: segments tile the text in order, one kind each', () => {
  const text = 'a = "x\\"y"; // c\n/* b { */ char q = \'}\';\nString t = """\n  {\n  """;';
  const segs = lexJava(text);
  assert.equal(segs[0].start, 0);
  assert.equal(segs[segs.length - 1].end, text.length);
  for (let i = 1; i < segs.length; i++) assert.equal(segs[i].start, segs[i - 1].end);
  assert.deepEqual(kinds(text), [
    'code:a = ', 'string:"x\\"y"', 'code:; ', 'line-comment:// c', 'code:\n', 'block-comment:/* b { */', 'code: char q = ',
    'char:\'}\'', 'code:;\nString t = ', 'text-block:"""\n  {\n  """', 'code:;',
  ]);
});

test('lexer: what the text ends before closing is marked open, strings end with their line', () => {
  assert.deepEqual(kinds('x /* open'), ['code:x ', 'block-comment:/* open…']);
  assert.deepEqual(kinds('s = """ open'), ['code:s = ', 'text-block:""" open…']);
  assert.deepEqual(kinds('s = "open\nnext();'), ['code:s = ', 'string:"open…', 'code:\nnext();']);
  assert.deepEqual(kinds(''), []);
});

test('codeOnly: same length, newlines kept, comments blanked, literal contents emptied', () => {
  const text = 'f("{", \'(\'); // }\n/* {\n */ g("""\n)\n""");';
  const { code, closed } = codeOnly(text);
  assert.equal(closed, true);
  assert.equal(code.length, text.length);
  assert.deepEqual([...code].map((c, i) => c === '\n' ? i : -1).filter((i) => i >= 0), [...text].map((c, i) => c === '\n' ? i : -1).filter((i) => i >= 0));
  assert.equal(code.replace(/\s+/g, ''), 'f("",\'\');g(""");');
  assert.equal(codeOnly('g("open').closed, false);
  assert.equal(codeOnly('/* open').closed, false);
});

test('brace repair reads code through the lexer: braces in comments, strings and text blocks do not count', () => {
  const typed = [
    'class A {',
    '  void f() {',
    '    if (x) {',
    '      s = "}"; // }',
    '      t = """',
    '        }',
    '        """;',
    '',
    '  void g() {}',
    '}',
  ].join('\n');
  const fixed = repairUnclosedBodies(typed);
  assert.ok(fixed, 'two blocks are left open');
  const lines = fixed.split('\n');
  assert.equal(lines[7], '}}', 'closed on the blank line above the next member');
  assert.equal(repairUnclosedBodies('class A {\n  /* { */\n  void f() { s = "{"; }\n}'), undefined, 'balanced once comments and strings are set aside');
});
