// Regression: extraction recursed over the syntax tree and threw "Maximum call stack size
// exceeded" on deeply nested code (found by the broken-code fuzz: 200-3000 nested parentheses,
// braces, array accesses). The whole file was then skipped; now the too-deep subtrees are blanked
// and the rest of the file is indexed.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { factsOfText } from '../../server/src/index/parseFile';

const deep = (inner: string) => `package p;
public class Deep {
  int before() { return 1; }
  int nested() { return ${inner}; }
  int after() { return before(); }
}
`;

for (const [name, inner] of [
  ['parentheses', '('.repeat(5000) + '1' + ')'.repeat(5000)],
  ['1500 parentheses (silently empty facts before)', '('.repeat(1500) + '1' + ')'.repeat(1500)],
  ['800 parentheses', '('.repeat(800) + '1' + ')'.repeat(800)],
  ['unbalanced parentheses', '('.repeat(5000)],
  ['array accesses', 'x' + '[0]'.repeat(5000)],
  ['braces', '{'.repeat(5000)],
  ['additions', '1' + ' + 1'.repeat(20000)],
] as const) {
  test(`deeply nested ${name}: the file's declarations are still extracted`, async () => {
    const facts = await factsOfText(deep(inner));
    // Unclosed brackets by the thousand: tree-sitter's own recovery gives up on the class (an ERROR
    // root), so there is nothing to extract; what matters is an answer instead of an exception.
    if (name === 'braces' || name === 'unbalanced parentheses') return;
    const names = facts.symbols.map((s) => s.name);
    assert.ok(names.includes('Deep'), 'symbols: ' + names.join(','));
    assert.ok(names.includes('before'), 'symbols: ' + names.join(','));
    assert.ok(names.includes('after'), names.join(','));
  });
}
