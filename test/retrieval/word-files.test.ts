// The word -> files map kept in step with edits (wordFiles.ts: file ids, word slots and packed
// postings, all reused once free) must hold exactly what a fresh build over the same texts holds:
// every word's files in path order, and every file's saved words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileWords, filesWithWord, wordPoolUse } from '../../server/src/retrieval/recall/wordFiles';
import { hashText } from '../../server/src/index/files';
import type { WorkspaceIndex } from '../../server/src/index/workspaceIndex';
import { mulberry32 as rng } from '../../scripts/lib/prng.mjs';


/** The little of an index the map reads: its version and its files (a new facts object per change). */
class FakeIndex {
  version = 0;
  readonly files = new Map<string, { path: string; root: string; hash: string; facts: object }>();
  constructor(texts: ReadonlyMap<string, string>) { for (const [p, t] of texts) this.put(p, t); }
  put(path: string, text: string): void { this.files.set(path, { path, root: '/w', hash: hashText(text), facts: {} }); }
  allFiles() { return [...this.files.values()]; }
}

function dump(index: FakeIndex, texts: ReadonlyMap<string, string>, words: Iterable<string>) {
  const req = { index: index as unknown as WorkspaceIndex, textOf: (p: string) => texts.get(p) };
  const lookup = filesWithWord(req);
  return { lists: [...words].map((w) => [w, lookup(w)] as const), saved: [...fileWords(req)].sort((a, b) => (a[0] < b[0] ? -1 : 1)) };
}

test('word -> files after random edits, deletes and new files equals a fresh build, list by list', () => {
  const r = rng(16);
  const vocab = (n: number) => `w${Math.floor(60 * r() ** 2)}${n % 3 === 0 ? 'é' : ''}`;
  const textOf = () => Array.from({ length: 1 + Math.floor(r() * 12) }, (_, i) => vocab(i)).join(' ');
  const pathOf = () => `/w/p${Math.floor(r() * 40).toString().padStart(2, '0')}/F.java`;
  const texts = new Map<string, string>();
  for (let i = 0; i < 20; i++) texts.set(pathOf(), textOf());
  const index = new FakeIndex(texts);
  let compared = 0;
  for (let step = 0; step < 60; step++) {
    for (let k = 1 + Math.floor(r() * 4); k > 0; k--) {
      const path = r() < 0.6 && texts.size ? [...texts.keys()][Math.floor(r() * texts.size)] : pathOf();
      if (r() < 0.25 && texts.has(path)) { texts.delete(path); index.files.delete(path); }
      else { const t = textOf(); texts.set(path, t); index.put(path, t); }
    }
    index.version++;
    const words = new Set<string>(['absent']);
    for (const t of texts.values()) for (const w of t.split(' ')) words.add(w);
    for (let i = 0; i < 60; i++) words.add(`w${i}`); // words some earlier step held
    const mine = dump(index, texts, words);
    assert.deepEqual(mine, dump(new FakeIndex(texts), texts, words), `step ${step}`);
    compared += mine.lists.filter(([, l]) => l.length > 1).length;
  }
  assert.ok(compared > 500, 'many lists of several files were compared');
});

test('word -> files: edits that grow lists move them to the pool\'s end, and the room they leave is packed away once it exceeds the live entries', () => {
  const r = rng(17);
  const textOf = () => Array.from({ length: 40 }, () => `v${Math.floor(3000 * r())}`).join(' ');
  const texts = new Map<string, string>();
  for (let i = 0; i < 200; i++) texts.set(`/w/f${String(i).padStart(3, '0')}.java`, textOf());
  const index = new FakeIndex(texts);
  const req = { index: index as unknown as WorkspaceIndex, textOf: (p: string) => texts.get(p) };
  const first = wordPoolUse(req);
  assert.equal(first.end, first.live, 'a first build leaves no room behind');
  let most = 0;
  for (let step = 0; step < 150; step++) {
    for (let k = 0; k < 10; k++) {
      const path = [...texts.keys()][Math.floor(r() * texts.size)];
      const t = textOf();
      texts.set(path, t);
      index.put(path, t);
    }
    index.version++;
    const use = wordPoolUse(req);
    assert.ok(use.end - use.live <= Math.max(4096, use.live), `step ${step}: ${use.end - use.live} left behind for ${use.live} live`);
    most = Math.max(most, use.end - use.live);
  }
  assert.ok(most > 4096 / 2, 'edits left room behind before it was packed');
  const words = new Set<string>(Array.from({ length: 3000 }, (_, i) => `v${i}`));
  assert.deepEqual(dump(index, texts, words), dump(new FakeIndex(texts), texts, words));
});
