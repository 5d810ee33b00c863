// Invariants every chunk of every chunker must satisfy.
import assert from 'node:assert/strict';
import type { Chunk } from '../../server/src/retrieval/chunks/types';

/** Whole lines, 0-based inclusive, text exactly the file's lines, no line in two chunks. */
export function assertWellFormed(path: string, text: string, chunks: Chunk[]): void {
  const lines = text.split('\n');
  for (const c of chunks) {
    assert.equal(c.path, path);
    assert.ok(Number.isInteger(c.startLine) && Number.isInteger(c.endLine), `integer lines in ${c.symbol}`);
    assert.ok(c.startLine >= 0 && c.startLine <= c.endLine && c.endLine < lines.length, `range ${c.startLine}-${c.endLine} of ${lines.length}`);
    assert.equal(c.text, lines.slice(c.startLine, c.endLine + 1).join('\n'), `text of ${c.symbol}`);
    assert.ok(c.text.trim() !== '', `chunk ${c.symbol} is not blank`);
    assert.ok(c.kind.length > 0);
  }
  const sorted = [...chunks].sort((a, b) => a.startLine - b.startLine);
  for (let i = 1; i < sorted.length; i++) {
    // A line shared by two elements (minified input) is the only way two chunks may touch.
    assert.ok(sorted[i].startLine > sorted[i - 1].endLine || lines.length <= 2, `${sorted[i - 1].symbol} overlaps ${sorted[i].symbol}`);
  }
}

export function bySymbol(chunks: Chunk[], symbol: string): Chunk {
  const c = chunks.find((x) => x.symbol === symbol);
  assert.ok(c, `no chunk ${symbol} in ${chunks.map((x) => x.symbol).join(' | ')}`);
  return c;
}

/** 0-based line of the first line containing `needle` (after line `from`). */
export function lineOf(text: string, needle: string, from = 0): number {
  const i = text.split('\n').findIndex((l, n) => n >= from && l.includes(needle));
  assert.ok(i >= 0, `no line with ${needle}`);
  return i;
}

/** Deterministic pseudo-random numbers for mutation tests. */
export { mulberry32 as rng } from '../../scripts/lib/prng.mjs';
