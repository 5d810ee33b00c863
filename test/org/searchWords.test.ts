// The search words of declarations and chunks (needle.decls.tsv, needle.chunk_terms.tsv) are
// counted in numbers and a chunk's identifiers are read from its file's, found once: the words must
// be exactly those of the plain definition, in the same order (tsvector positions follow it).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FileIdentifiers, searchWords } from '../../server/src/org/facts';
import { splitIdentifier } from '../../server/src/text/identifiers';
import { mulberry32 } from '../../scripts/lib/prng.mjs';

/** The definition: every distinct identifier in order of first occurrence, then its words, each word once. */
function plainSearchWords(...texts: string[]): string {
  const ids = new Set<string>();
  for (const t of texts) for (const id of t.match(/[A-Za-z_$][A-Za-z0-9_$]*/g) ?? []) ids.add(id);
  const words = new Set<string>();
  for (const id of ids) for (const w of [id.toLowerCase(), ...splitIdentifier(id)]) words.add(w);
  return [...words].join(' ');
}

const PIECES = ['get', 'Value', 'HTTP', 'parse', 'URL', 'x', '_', '$', '2', '10', 'utf8', 'Map', 'value', 'GET', 'a'];
const GLUE = [' ', '.', '(', ')', '\n', '\n', ' = ', '<', '>', ', ', '9', '#', '"', '*/', '\n\n'];

function randomText(rand: () => number, tokens: number): string {
  let s = '';
  for (let i = 0; i < tokens; i++) s += rand() < 0.6 ? PIECES[Math.floor(rand() * PIECES.length)] : GLUE[Math.floor(rand() * GLUE.length)];
  return s;
}

describe('search words', () => {
  it('equal the plain definition on random texts', () => {
    const rand = mulberry32(18);
    for (let n = 0; n < 2000; n++) {
      const texts = Array.from({ length: 1 + Math.floor(rand() * 3) }, () => randomText(rand, Math.floor(rand() * 60)));
      assert.equal(searchWords(...texts), plainSearchWords(...texts), JSON.stringify(texts));
    }
  });

  it("a chunk's words read from its file's identifiers equal those of its own text", () => {
    const rand = mulberry32(19);
    for (let n = 0; n < 300; n++) {
      const text = randomText(rand, 40 + Math.floor(rand() * 200));
      const lines = text.split('\n');
      const file = new FileIdentifiers(text);
      for (let k = 0; k < 10; k++) {
        const a = Math.floor(rand() * lines.length), b = a + Math.floor(rand() * (lines.length - a));
        const chunk = lines.slice(a, b + 1).join('\n');
        const symbol = randomText(rand, 4), description = randomText(rand, 8);
        assert.equal(file.chunkWords(symbol, chunk, a, b, description), plainSearchWords(symbol, chunk, description), JSON.stringify({ text, a, b }));
        // A chunk that is not those lines of the file (its text was changed) is scanned itself.
        const other = chunk + ' extraWord';
        assert.equal(file.chunkWords(symbol, other, a, b, description), plainSearchWords(symbol, other, description));
        // What a chunk's header asks of its lines (chunks/java.ts headerFor) equals scanning them.
        const scanned = new Set(chunk.match(/[A-Za-z_$][A-Za-z0-9_$]*/g) ?? []);
        const have = file.linesHave(a, b);
        for (const id of [...PIECES, ...scanned, 'getValue', 'absent']) assert.equal(have.has(id), scanned.has(id), JSON.stringify({ text, a, b, id }));
      }
    }
  });
});
