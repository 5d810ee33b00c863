// The search words of declarations and chunks (needle.decls.tsv, needle.chunk_terms.tsv) are
// counted in numbers: the words must be exactly those of the plain definition, in the same order
// (tsvector positions follow it).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { searchWords } from '../../server/src/org/facts';
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

const PIECES = ['get', 'Value', 'HTTP', 'parse', 'URL', 'x', '_', '$', '2', '10', 'utf8', 'Map', 'value', 'GET', 'a', 'é', 'ſ', '\u{1F600}', 'Ｚ'];
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

  it('equal the plain definition while the vocabulary grows past its table (rehashing)', () => {
    const rand = mulberry32(1818);
    const letters = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_$0123456789';
    const identifier = () => {
      let s = letters[Math.floor(rand() * 54)];
      for (let k = Math.floor(rand() * 9); k > 0; k--) s += letters[Math.floor(rand() * letters.length)];
      return s;
    };
    // About 250,000 distinct identifiers: the table doubles several times, and the vocabulary forgets at 200,000 (at a file's start only, so never here).
    for (let n = 0; n < 250; n++) {
      const text = Array.from({ length: 1000 }, identifier).join(n % 2 ? ' ' : '.');
      assert.equal(searchWords(text, 'getValue'), plainSearchWords(text, 'getValue'));
    }
  });
});

