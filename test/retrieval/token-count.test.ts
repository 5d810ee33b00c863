// The token count that enforces the budget (retrieval/cap.ts countTokens) sums memoised counts
// of a text's pieces; it must equal the definition, the length of o200k_base's encoding of the
// whole text, on every text: random ones built from the characters that decide the
// pre-tokenizer's cuts, every file of the example workspace, and every context the server renders.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { countTokens, encodedTokens } from '../../server/src/retrieval/cap';
import { Indexer } from '../../server/src/index/indexer';
import { defaultSettings, retrieveAt, uriOfPath } from '../../server/src/service';

const ROOT = join(__dirname, '..', '..', '..', 'examples', 'acme-shop');

/** Deterministic pseudo-random numbers (a failure must replay). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

// Newlines, slashes, blanks of every kind, punctuation, letters of both cases, digits,
// contractions, non-ASCII letters and a surrogate pair: what the pre-tokenizer's cuts turn on.
const PARTS = ['\n', '\n', '\n', '/', '//', ' ', '  ', '    ', '\t', '\r', '\u00a0', '\u2028', ';', '{', '}', '(', '*', '"', "'", 's', 'a', 'x', 'A', 'Ab', 'get', '1', '123', 'é', '中', '😀'];

test('countTokens equals the encoding length on random texts, including the cuts a per-line count gets wrong', () => {
  const next = lcg(16);
  let perLineWrong = 0;
  for (let n = 0; n < 5_000; n++) {
    let text = '';
    const length = Math.floor(next() * 40);
    for (let k = 0; k < length; k++) text += PARTS[Math.floor(next() * PARTS.length)];
    const exact = encodedTokens(text);
    // The definition: the encoding's length (encodedTokens counts without making it).
    assert.equal(exact, encode(text, { disallowedSpecial: new Set() }).length, `encoding: ${JSON.stringify(text)}`);
    assert.equal(countTokens(text), exact, JSON.stringify(text));
    assert.equal(countTokens(text), exact, `remembered: ${JSON.stringify(text)}`);
    const lines = text.split('\n');
    if (lines.reduce((s, l, i) => s + encodedTokens(i < lines.length - 1 ? l + '\n' : l), 0) !== exact) perLineWrong++;
  }
  // Cutting after every newline is not exact: the texts above must reach the cases where it is not.
  assert.ok(perLineWrong > 25, `random texts where a per-line sum differs: ${perLineWrong}`);
  // A special token's text in retrieved code is counted as the text it is.
  assert.equal(encodedTokens('x <|endoftext|> y'), encode('x <|endoftext|> y', { disallowedSpecial: new Set() }).length);
  for (const text of ['', '\n', 'a\n', '{\n//x', '}\n\n  x', 'x;\n  \n  y', 'a\n\r\nb', 'a\n\u2028\nb', '  \n\n', 'class A {\n  int x;\n}\n'])
    assert.equal(countTokens(text), encodedTokens(text), JSON.stringify(text));
});

test('countTokens equals the encoding length on every file and every rendered context of the example workspace', async () => {
  const ix = new Indexer({ cacheDir: null });
  await ix.addFolder(ROOT);
  const files = ix.index.allFiles().sort((a, b) => (a.path < b.path ? -1 : 1));
  for (const f of files) {
    const text = ix.textOf(f.path)!;
    assert.equal(countTokens(text), encodedTokens(text), f.path);
  }
  let items = 0;
  for (const f of files) {
    for (const s of f.facts.symbols.filter((x) => x.kind === 'method').slice(0, 2)) {
      const r = await retrieveAt(ix, { textDocument: { uri: uriOfPath(f.path) }, position: { line: s.nameSpan.sl + 1, character: 0 } }, defaultSettings());
      for (const it of r.items) {
        assert.equal(it.tokens, encodedTokens(it.text), `${f.path}:${s.nameSpan.sl + 1} ${it.symbol}`);
        items++;
      }
      assert.equal(r.tokens, r.items.reduce((a, it) => a + encodedTokens(it.text), 0));
    }
  }
  assert.ok(items > 50, `rendered items checked: ${items}`);
});

test("a special token's text in retrieved code is counted as text, and retrieval answers", async () => {
  // The encoder throws on `<|endoftext|>` by default; Java comments and strings can hold it.
  for (const text of ['/* <|endoftext|> */', 'String s = "<|im_start|>system";\n', '<|endoftext|>']) {
    assert.ok(encodedTokens(text) > 1, text);
    assert.equal(countTokens(text), encodedTokens(text), text);
  }
  const { writeFixture } = await import('../helpers/workspace');
  const ws = writeFixture({
    'src/p/Tokens.java': 'package p;\n\n/** Ends with <|endoftext|> on purpose. */\npublic class Tokens {\n  static final String END = "<|endoftext|>";\n  int size() {\n    return END.length();\n  }\n}\n',
  });
  const ix = new Indexer({ cacheDir: null });
  await ix.addFolder(ws.root);
  const r = await retrieveAt(ix, { textDocument: { uri: uriOfPath(join(ws.root, 'src/p/Tokens.java')) }, position: { line: 6, character: 4 } }, defaultSettings());
  assert.ok(r.tokens > 0 && r.items.some((it) => it.text.includes('<|endoftext|>')), JSON.stringify(r.items.map((it) => it.text)));
});
