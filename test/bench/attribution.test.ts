// Line-attributed noise (bench/retrieval/attribution.ts): which shown tokens lie inside a gold declaration.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ContextItem } from '../../shared/protocol';
import { goldRegions, javadocsShown, lineAttributedNoise, shownLineSources, type TextOf } from '../../bench/retrieval/attribution';
import { countTokens } from '../../server/src/retrieval/cap';
import type { GoldSymbol } from '../../bench/retrieval/tasks';

const FILE = `package p;

/** A box. */
public class Box {
  private int size;

  /**
   * Grows the box.
   */
  public void grow(int by) {
    size += by;
  }

  public int size() {
    return size;
  }
}
`;
const textOf: TextOf = (rel) => (rel === 'p/Box.java' ? FILE : undefined);
const gold = (kind: GoldSymbol['kind'], name: string, line: number): GoldSymbol =>
  ({ qualified: `p.Box#${name}`, name, kind, file: 'p/Box.java', line, maskedLine: line, crossFile: true, lineText: '', firstUseLine: 0 });
const item = (text: string, start: number, end: number, extra: Partial<ContextItem> & { sourceLines?: { line: number; written?: string }[] } = {}): ContextItem =>
  ({ uri: 'file:///ws/p/Box.java', range: { start: { line: start, character: 0 }, end: { line: end, character: 0 } }, text, tokens: countTokens(text), score: 1, sources: ['graph'], untrusted: true, ...extra });

test('gold regions: a member by its declaration (Javadoc included), a type by its header only', async () => {
  const regions = await goldRegions([gold('method', 'grow', 9), gold('type', 'Box', 3), gold('field', 'size', 4)], textOf);
  assert.deepEqual(regions, [{ file: 'p/Box.java', start: 6, end: 11, decl: 9 }, { file: 'p/Box.java', start: 2, end: 3, decl: 3 }, { file: 'p/Box.java', start: 4, end: 4, decl: 4 }]);
});

test('shown lines: the item\'s own sourceLines when given; else verbatim lines aligned, written lines to the declaration they introduce', () => {
  const text = ['// p.Box (class)', 'public class Box {', '  /** Grows the box. */', '  public void grow(int by) {', '    // … 2 lines elided', '  public int size() {', '    // … 2 lines elided'].join('\n');
  assert.deepEqual(shownLineSources(item(text, 3, 16), FILE.split('\n')), [3, 3, 9, 9, 13, 13, 13]);
  const given = [3, 3, 9, 9, 10, 13, 14].map((line) => ({ line }));
  assert.deepEqual(shownLineSources(item(text, 3, 16, { sourceLines: given }), FILE.split('\n')), [3, 3, 9, 9, 10, 13, 14]);
});

test('line noise: tokens on lines outside every gold region, per line', async () => {
  const text = ['public class Box {', '  public void grow(int by) {', '  public int size() {'].join('\n');
  const regions = await goldRegions([gold('method', 'grow', 9)], textOf);
  const r = lineAttributedNoise([item(text, 3, 16)], ['p/Box.java'], regions, textOf);
  const [a, b, c] = text.split('\n').map(countTokens);
  assert.deepEqual(r, { tokens: a + b + c, noiseTokens: a + c });
  // An item of a file outside the workspace is all noise.
  assert.deepEqual(lineAttributedNoise([item(text, 3, 16)], [undefined], regions, textOf), { tokens: a + b + c, noiseTokens: a + b + c });
});

test('Javadocs shown: a gold declaration with a Javadoc counts when its summary or its own Javadoc lines are shown', async () => {
  const regions = await goldRegions([gold('method', 'grow', 9), gold('type', 'Box', 3), gold('field', 'size', 4)], textOf);
  const text = ['// p.Box (class)', 'public class Box {', '  /** Grows the box. */', '  public void grow(int by) {'].join('\n');
  // grow's summary line (written at its first line) is shown; Box's header is shown without its Javadoc; size has none.
  const summarised = item(text, 3, 11, { sourceLines: [{ line: 3, written: 'header' }, { line: 3 }, { line: 9, written: 'doc' }, { line: 9 }] });
  assert.deepEqual(javadocsShown([summarised], ['p/Box.java'], regions, textOf), { docs: 2, shown: 1 });
  // Signatures alone: no Javadoc shown.
  const bare = item(['public class Box {', '  public void grow(int by) {'].join('\n'), 3, 9, { sourceLines: [{ line: 3 }, { line: 9 }] });
  assert.deepEqual(javadocsShown([bare], ['p/Box.java'], regions, textOf), { docs: 2, shown: 0 });
  // Verbatim Javadoc lines (an item without sourceLines, aligned with the file) count too.
  assert.deepEqual(javadocsShown([item(['/** A box. */', 'public class Box {'].join('\n'), 2, 3)], ['p/Box.java'], regions, textOf), { docs: 2, shown: 1 });
  // Another file's item shows nothing of these.
  assert.deepEqual(javadocsShown([summarised], [undefined], regions, textOf), { docs: 2, shown: 0 });
});
