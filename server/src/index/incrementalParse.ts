// Re-parsing an open document after an edit: tree-sitter reuses the previous tree for
// everything outside the changed region. The edit is derived from the two texts (common prefix
// and suffix), so it does not depend on how the editor batched its changes.

import type { Point, Tree } from 'web-tree-sitter';
import { extractFacts } from '../java/extract';
import type { FileFacts } from '../java/facts';
import { javaParser } from '../java/parser';
import { repairedText } from './parseFile';

export interface TextEdit { startIndex: number; oldEndIndex: number; newEndIndex: number; startPosition: Point; oldEndPosition: Point; newEndPosition: Point }

function pointAt(text: string, index: number): Point {
  let row = 0;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) { row++; lineStart = i + 1; }
  return { row, column: index - lineStart };
}

/** The single edit that turns `before` into `after` (indices and columns in UTF-16 code units, as web-tree-sitter counts). */
export function editBetween(before: string, after: string): TextEdit {
  const max = Math.min(before.length, after.length);
  let start = 0;
  while (start < max && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let suffix = 0;
  while (suffix < max - start && before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix)) suffix++;
  const oldEnd = before.length - suffix;
  const newEnd = after.length - suffix;
  return {
    startIndex: start, oldEndIndex: oldEnd, newEndIndex: newEnd,
    startPosition: pointAt(before, start), oldEndPosition: pointAt(before, oldEnd), newEndPosition: pointAt(after, newEnd),
  };
}

/** Syntax trees of open documents, kept so each edit re-parses only what changed. */
export class OpenTrees {
  private trees = new Map<string, { text: string; tree: Tree }>();

  async factsOf(path: string, text: string): Promise<FileFacts> {
    const parser = await javaParser();
    const prev = this.trees.get(path);
    let tree: Tree | null;
    if (prev) {
      prev.tree.edit(editBetween(prev.text, text));
      tree = parser.parse(text, prev.tree);
    } else {
      tree = parser.parse(text);
    }
    prev?.tree.delete();
    if (!tree) { this.trees.delete(path); throw new Error('tree-sitter returned no tree'); }
    // A body being typed: extract from the repaired text, as a fresh parse of this text would.
    const fixed = repairedText(tree, text);
    if (fixed !== undefined) {
      tree.edit(editBetween(text, fixed));
      const again: Tree | null = parser.parse(fixed, tree);
      tree.delete();
      if (!again) { this.trees.delete(path); throw new Error('tree-sitter returned no tree'); }
      this.trees.set(path, { text: fixed, tree: again });
      return extractFacts(again, fixed);
    }
    this.trees.set(path, { text, tree });
    return extractFacts(tree, text);
  }

  has(path: string): boolean {
    return this.trees.has(path);
  }

  close(path: string): void {
    this.trees.get(path)?.tree.delete();
    this.trees.delete(path);
  }
}
