// SyntaxTree (the one-walk copy of a syntax tree that extraction reads) answers exactly what
// web-tree-sitter's Node API answers, node by node and field by field, on every example file and
// on damaged copies of them (syntax errors, missing tokens), whether it walks with the wasm
// module's cursor functions or with the public TreeCursor.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Node, Tree } from 'web-tree-sitter';
import { discoverFiles } from '../../server/src/index/files';
import { javaParser } from '../../server/src/java/parser';
import { SyntaxTree, wasmCursorAvailable, type SyntaxNode } from '../../server/src/java/syntaxTree';
import { repoRoot } from '../helpers/repoRoot';

/** Every example file, and each one damaged: a slice cut out and an opening bracket left behind. */
function sources(): string[] {
  const files = discoverFiles(join(repoRoot(), 'examples')).files.filter((f) => f.endsWith('.java'));
  assert.ok(files.length > 10);
  const out: string[] = [];
  files.forEach((f, i) => {
    const text = readFileSync(f, 'utf8');
    const at = Math.floor(text.length * ((i % 7) + 1) / 9);
    out.push(text, text.slice(0, at) + '( {' + text.slice(at + 40));
  });
  return out;
}

/** Where a node is, as one comparable string. */
const place = (n: Node | SyntaxNode | null) => n && `${n.type}@${n.startIndex}-${n.endIndex}`;

function compare(tree: Tree, text: string, copy: SyntaxTree): number {
  const fields = tree.language.fields.filter((f): f is string => !!f);
  let nodes = 0;
  const visit = (n: Node, s: SyntaxNode) => {
    nodes++;
    const where = `${place(n)} in ${JSON.stringify(text.slice(Math.max(0, n.startIndex - 20), n.startIndex + 20))}`;
    assert.equal(place(s), place(n), where);
    assert.equal(s.isNamed, n.isNamed, where);
    assert.deepEqual(s.startPosition, n.startPosition, where);
    assert.deepEqual(s.endPosition, n.endPosition, where);
    assert.equal(s.text, n.text, where);
    // tree-sitter finds a sibling by position, which can skip over a zero-width (missing) node's true one.
    if (n.endIndex > n.startIndex) assert.equal(place(s.previousNamedSibling), place(n.previousNamedSibling), where);
    for (const f of fields) assert.equal(place(s.childForFieldName(f)), place(n.childForFieldName(f)), `${f} of ${where}`);
    assert.deepEqual(s.namedChildren.map(place), n.namedChildren.map(place), where);
    const kids = n.children;
    assert.equal(s.children.length, kids.length, where);
    kids.forEach((k, i) => visit(k!, s.children[i]));
  };
  visit(tree.rootNode, copy.rootNode);
  assert.equal(copy.hasError, tree.rootNode.hasError);
  return nodes;
}

test('the wasm cursor functions are reachable (else every walk takes the slow public cursor)', async () => {
  await javaParser();
  assert.ok(wasmCursorAvailable());
});

test('SyntaxTree answers as the Node API does, on clean and damaged files, with either cursor', async () => {
  const parser = await javaParser();
  let nodes = 0;
  let damaged = 0;
  for (const text of sources()) {
    const tree = parser.parse(text)!;
    try {
      if (tree.rootNode.hasError) damaged++;
      nodes += compare(tree, text, new SyntaxTree(tree, text));
      compare(tree, text, new SyntaxTree(tree, text, true));
    } finally {
      tree.delete();
    }
  }
  assert.ok(nodes > 10_000 && damaged > 5, `${nodes} nodes, ${damaged} files with errors`);
});
