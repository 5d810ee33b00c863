// One file's text -> its facts. Runs in worker threads during cold indexing and in the main
// thread for single-file updates, so both paths produce identical facts.

import { repairUnclosedBodies } from '../java/braceRepair';
import { extractFacts } from '../java/extract';
import type { FileFacts, RefFact } from '../java/facts';
import { parseJava, parserIfLoaded } from '../java/parser';
import type { Node, Tree } from 'web-tree-sitter';
import { hashText, readSourceFile, type FileStamp } from './files';

export type ParseOutcome =
  | { path: string; ok: true; hash: string; facts: FileFacts; stamp?: FileStamp }
  | { path: string; ok: false; reason: string };

/**
 * Bracket nesting beyond which extraction is unsafe: past ~700 levels it silently returned no
 * facts at all, past ~2500 it threw "Maximum call stack size exceeded" (found by the robustness
 * fuzz). Such files are generated or broken; their declarations are still worth indexing.
 */
export const MAX_NESTING = 256;
/** Syntax-tree depth below which subtrees are blanked when the nesting is too deep. */
const BLANK_DEPTH = 400;

/**
 * The reference sites of a file whose sites were released after resolution, extracted again from
 * its text — but only if the text is the one indexed (`hash`): else an update is on its way.
 */
export function refsOfText(text: string | undefined, hash: string): RefFact[] | undefined {
  const parser = parserIfLoaded();
  if (!parser || text === undefined || hashText(text) !== hash) return undefined;
  let tree = parser.parse(text);
  if (!tree) return undefined;
  const fixed = repairedText(tree, text);
  if (fixed !== undefined) { tree.delete(); tree = parser.parse(fixed); if (!tree) return undefined; }
  try { return extractFacts(tree, fixed ?? text).refs; } finally { tree.delete(); }
}

/**
 * The text extraction reads when a tree has syntax errors from unclosed blocks (a body being
 * typed): the same text with the missing braces inserted (java/braceRepair.ts), else undefined.
 * Every path from text to facts goes through it, so they all see the same declarations.
 */
export function repairedText(tree: Tree, text: string): string | undefined {
  return tree.rootNode.hasError ? repairUnclosedBodies(text) : undefined;
}

export async function factsOfText(text: string, maxDepth = BLANK_DEPTH, repair = true): Promise<FileFacts> {
  const tree = await parseJava(text);
  let spans: Span[] = [];
  try {
    const fixed = repair ? repairedText(tree, text) : undefined;
    if (fixed !== undefined) return await factsOfText(fixed, maxDepth, false);
    if (bracketDepth(text) > MAX_NESTING) spans = subtreesBelow(tree.rootNode, maxDepth);
    if (!spans.length) return extractFacts(tree, text);
  } catch (e) {
    // Deep nesting of another kind (long call chains, else-if ladders): same remedy.
    if (!(e instanceof RangeError) || maxDepth < 16) throw e;
    spans = subtreesBelow(tree.rootNode, maxDepth);
    if (!spans.length) throw e;
  } finally {
    tree.delete(); // wasm memory is not garbage-collected
  }
  // Blank the too-deep subtrees (same length, line breaks kept, so every span stays valid) and extract again.
  let flat = '';
  let at = 0;
  // A blank where an expression or a statement stood would be a syntax error, and tree-sitter's
  // recovery from an error that deep can swallow the whole file: a neutral filler keeps it valid.
  for (const [start, end, type] of spans) {
    const filler = /expression|literal|identifier|access|invocation/.test(type) ? '0' : /statement|block/.test(type) ? ';' : '';
    flat += text.slice(at, start) + filler + text.slice(start + filler.length, end).replace(/[^\r\n]/g, ' ');
    at = end;
  }
  return factsOfText(flat + text.slice(at), Math.floor(maxDepth / 2), repair);
}

/** The deepest nesting of (, [ and { in the text (brackets in strings and comments count too: a cheap upper bound). */
function bracketDepth(text: string): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 40 || c === 91 || c === 123) { if (++depth > max) max = depth; }
    else if ((c === 41 || c === 93 || c === 125) && depth > 0) depth--;
  }
  return max;
}

type Span = [start: number, end: number, type: string];

/** [start, end) (UTF-16 indices) and type of the outermost named nodes at `depth`, found without recursion. */
function subtreesBelow(root: Node, depth: number): Span[] {
  const out: Span[] = [];
  const cursor = root.walk();
  let d = 0;
  try {
    for (;;) {
      if (d >= depth && cursor.nodeIsNamed && cursor.endIndex > cursor.startIndex) out.push([cursor.startIndex, cursor.endIndex, cursor.nodeType]);
      else if (cursor.gotoFirstChild()) { d++; continue; }
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return out;
        d--;
      }
    }
  } finally {
    cursor.delete();
  }
}

/** Reads (unless text is given) and extracts; never throws: failures come back with a reason. */
export async function parsePath(path: string, text?: string, hash?: string): Promise<ParseOutcome> {
  return (await parseSource(path, text, hash)).outcome;
}

/** parsePath, with the text it read (a worker that derives more from the file needs it). */
export async function parseSource(path: string, text?: string, hash?: string): Promise<{ outcome: ParseOutcome; text?: string }> {
  let source = text;
  let digest = hash;
  let stamp: FileStamp | undefined;
  if (source === undefined) {
    const r = readSourceFile(path);
    if (!r.ok) return { outcome: { path, ok: false, reason: r.reason } };
    source = r.text;
    digest = r.hash;
    stamp = r.stamp;
  }
  try {
    const facts = await factsOfText(source);
    return { outcome: { path, ok: true, hash: digest ?? '', facts, stamp }, text: source };
  } catch (e) {
    return { outcome: { path, ok: false, reason: `parser failure: ${(e as Error).message}` }, text: source };
  }
}
