// The pruned top-k search must give exactly what scoring every posting and sorting gives.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Bm25, type Scored } from '../../server/src/retrieval/bm25';
import { viaSavedForm } from '../helpers/slotTables';
import { mulberry32 as rng } from '../../scripts/lib/prng.mjs';


/** Zipf-like vocabulary: a few words in most documents, many rare ones. */
function word(r: () => number, vocab: number): string {
  return 'w' + Math.floor(vocab * r() ** 3);
}

function exhaustive(bm: Bm25, query: string[], k: number, tieBreak: (a: number, b: number) => number, accept: (d: number) => boolean): Scored[] {
  return [...bm.search(query)].map(([doc, score]) => ({ doc, score }))
    .filter((h) => accept(h.doc))
    .sort((a, b) => b.score - a.score || tieBreak(a.doc, b.doc))
    .slice(0, k);
}

test('bm25: topK equals the exhaustive search, scores to the last bit, on random corpora', () => {
  for (let seed = 1; seed <= 60; seed++) {
    const r = rng(seed);
    const bm = new Bm25();
    const n = 20 + Math.floor(r() * 400);
    const vocab = 5 + Math.floor(r() * 300);
    for (let d = 0; d < n; d++) bm.add(Array.from({ length: 1 + Math.floor(r() * 40) }, () => word(r, vocab)));
    // Coarse keys make many ties, so the tie-break is exercised too.
    const key = Array.from({ length: n }, () => Math.floor(r() * 4));
    const tieBreak = (a: number, b: number) => key[a] - key[b] || a - b;
    const accept = seed % 3 ? () => true : (d: number) => d % 5 !== 0;
    for (let qi = 0; qi < 5; qi++) {
      const query = Array.from({ length: 1 + Math.floor(r() * 30) }, () => word(r, vocab * 1.2));
      const k = 1 + Math.floor(r() * 20);
      assert.deepEqual(bm.topK(query, k, tieBreak, accept), exhaustive(bm, query, k, tieBreak, accept), `seed ${seed}, query ${qi}`);
    }
  }
});

test('bm25: topK of duplicate documents keeps them in tie-break order', () => {
  const bm = new Bm25();
  for (let d = 0; d < 10; d++) bm.add(['a', 'b', d % 2 ? 'c' : 'd']);
  const hits = bm.topK(['a', 'c'], 3, (a, b) => b - a);
  assert.deepEqual(hits.map((h) => h.doc), [9, 7, 5]);
  assert.equal(bm.topK(['zzz'], 3, (a, b) => a - b).length, 0);
});

test('bm25: after removals and re-additions, scores and topK equal a fresh corpus of the live documents', () => {
  for (let seed = 100; seed < 130; seed++) {
    const r = rng(seed);
    const vocab = 5 + Math.floor(r() * 200);
    const docsText: (string[] | null)[] = [];
    const bm = new Bm25();
    const n = 30 + Math.floor(r() * 200);
    for (let d = 0; d < n; d++) { const t = Array.from({ length: 1 + Math.floor(r() * 30) }, () => word(r, vocab)); docsText.push(t); bm.add(t); }
    // Remove a third, then add some new documents (an edited file's chunks come back with new ids).
    for (let d = 0; d < n; d++) if (r() < 0.33) { bm.remove(d); docsText[d] = null; }
    bm.remove(0); // removing twice is harmless
    docsText[0] = null;
    for (let d = 0; d < n / 4; d++) { const t = Array.from({ length: 1 + Math.floor(r() * 30) }, () => word(r, vocab)); docsText.push(t); bm.add(t); }
    const liveIds = docsText.flatMap((t, id) => (t ? [id] : []));
    const fresh = new Bm25();
    for (const id of liveIds) fresh.add(docsText[id]!);
    assert.equal(bm.size, liveIds.length);
    assert.equal(bm.dead, docsText.length - liveIds.length);
    const key = docsText.map((_, id) => id % 7);
    for (let qi = 0; qi < 5; qi++) {
      const query = Array.from({ length: 1 + Math.floor(r() * 20) }, () => word(r, vocab));
      const k = 1 + Math.floor(r() * 15);
      // The fresh corpus numbers the live documents 0..; map them back to the incremental ids.
      const tieBreak = (a: number, b: number) => key[a] - key[b] || a - b;
      const expected = fresh.topK(query, k, (a, b) => tieBreak(liveIds[a], liveIds[b])).map((h) => ({ doc: liveIds[h.doc], score: h.score }));
      assert.deepEqual(bm.topK(query, k, tieBreak), expected, `seed ${seed}, query ${qi}`);
      for (const [doc, score] of bm.search(query)) assert.ok(docsText[doc], `removed document ${doc} scored`), assert.equal(score, fresh.score(liveIds.indexOf(doc), query));
    }
  }
});

test('bm25: packed postings (trim) answer exactly as unpacked, through later additions, removals and reused term ids', () => {
  for (let seed = 200; seed < 230; seed++) {
    const r = rng(seed);
    const vocab = 5 + Math.floor(r() * 200);
    // Whole weights pack into one Int32Array; a fractional weight (seed % 5 === 0) keeps doubles.
    const fractional = seed % 5 === 0;
    const doc = () => Array.from({ length: 1 + Math.floor(r() * 30) }, (): [string, number] => [word(r, vocab), fractional && r() < 0.2 ? 0.5 + r() : 1 + Math.floor(r() * 3)]);
    const packed = new Bm25(), plain = new Bm25();
    const both = (f: (bm: Bm25) => void) => { f(packed); f(plain); };
    const n = 30 + Math.floor(r() * 200);
    for (let d = 0; d < n; d++) { const t = doc(); both((bm) => bm.add(t)); }
    packed.trim();
    // After the pack: removals (terms whose last document goes free their ids), additions that
    // reuse those ids or extend packed lists, and a second pack on some seeds.
    for (let round = 0; round < 3; round++) {
      for (let d = 0; d < n; d++) if (r() < 0.15) both((bm) => bm.remove(d));
      for (let d = 0; d < n / 5; d++) { const t = doc(); both((bm) => bm.add(t)); }
      if (seed % 2 && round === 1) packed.trim();
    }
    const total = n + 3 * Math.floor(n / 5) + 3;
    const tieBreak = (a: number, b: number) => a - b;
    for (let qi = 0; qi < 8; qi++) {
      const query = Array.from({ length: 1 + Math.floor(r() * 20) }, () => word(r, vocab * 1.2));
      assert.deepEqual(packed.topK(query, 10, tieBreak), plain.topK(query, 10, tieBreak), `seed ${seed}, topK ${qi}`);
      assert.deepEqual([...packed.search(query)], [...plain.search(query)], `seed ${seed}, search ${qi}`);
    }
    for (let d = 0; d < total; d++) {
      assert.deepEqual(packed.termsOf(d), plain.termsOf(d), `seed ${seed}, terms of ${d}`);
      assert.equal(packed.score(d, ['w1', 'w2', 'w3']), plain.score(d, ['w1', 'w2', 'w3']), `seed ${seed}, score of ${d}`);
    }
    assert.equal(packed.size, plain.size);
  }
});

test('bm25: a corpus loaded from its finished form (saved, fromSaved) answers as the saved one, before and after later edits on both', () => {
  for (let seed = 300; seed < 330; seed++) {
    const r = rng(seed);
    const vocab = 5 + Math.floor(r() * 200);
    const doc = () => Array.from({ length: 1 + Math.floor(r() * 30) }, (): [string, number] => [word(r, vocab), 1 + Math.floor(r() * 3)]);
    const original = new Bm25();
    const n = 30 + Math.floor(r() * 200);
    for (let d = 0; d < n; d++) original.add(doc());
    if (seed % 2) original.trim();
    // Saved after removals (dead documents, free term ids) and additions not yet packed.
    for (let d = 0; d < n; d++) if (r() < 0.2) original.remove(d);
    for (let d = 0; d < n / 5; d++) original.add(doc());
    const saved = original.saved()!;
    const loaded = Bm25.fromSaved({ ...structuredClone({ ...saved, terms: undefined }), terms: viaSavedForm(saved.terms) });
    const tieBreak = (a: number, b: number) => a - b;
    const same = (what: string) => {
      for (let qi = 0; qi < 6; qi++) {
        const query = Array.from({ length: 1 + Math.floor(r() * 20) }, () => word(r, vocab * 1.2));
        assert.deepEqual(loaded.topK(query, 10, tieBreak), original.topK(query, 10, tieBreak), `seed ${seed} ${what}, topK ${qi}`);
        assert.deepEqual([...loaded.search(query)], [...original.search(query)], `seed ${seed} ${what}, search ${qi}`);
      }
      for (let d = 0; d < n * 2; d++) assert.deepEqual(loaded.termsOf(d), original.termsOf(d), `seed ${seed} ${what}, terms of ${d}`);
      assert.equal(loaded.size, original.size);
      assert.equal(loaded.dead, original.dead);
    };
    same('as loaded');
    // Edits after the load: removals that free term ids, additions that reuse them, a pack.
    for (let round = 0; round < 2; round++) {
      for (let d = 0; d < n; d++) if (r() < 0.15) { original.remove(d); loaded.remove(d); }
      for (let d = 0; d < n / 5; d++) { const t = doc(); original.add(t); loaded.add(t); }
      if (round === 1 && seed % 3 === 0) loaded.trim();
    }
    same('after edits');
  }
});

test('bm25: fromSaved refuses an inconsistent finished form', () => {
  const bm = new Bm25();
  bm.add(['a', 'b', 'b']);
  bm.add(['b', 'c']);
  const good = () => { const s = bm.saved()!; return { ...structuredClone({ ...s, terms: undefined }), terms: viaSavedForm(s.terms) }; };
  assert.doesNotThrow(() => Bm25.fromSaved(good()));
  const spoil: [string, (s: ReturnType<typeof good>) => void][] = [
    ['a term id out of range', (s) => { s.termPool[0] = 99; }],
    ['a document range past the pool', (s) => { s.docCount[1] = 9; }],
    ['a free term in a document', (s) => { s.terms.delete(0); }],
    ['a term in no document', (s) => { s.terms.add('z'); }],
    ['unsorted terms in a document', (s) => { [s.termPool[0], s.termPool[1]] = [s.termPool[1], s.termPool[0]]; }],
  ];
  for (const [what, f] of spoil) { const s = good(); f(s); assert.throws(() => Bm25.fromSaved(s), /malformed/, what); }
});

test('bm25: a first build with deferred postings (deferPostings, made by trim or the first search) answers as one grown per document', () => {
  for (let seed = 400; seed < 430; seed++) {
    const r = rng(seed);
    const vocab = 5 + Math.floor(r() * 200);
    const fractional = seed % 5 === 0;
    const doc = () => Array.from({ length: 1 + Math.floor(r() * 30) }, (): [string, number] => [word(r, vocab), fractional && r() < 0.2 ? 0.5 + r() : 1 + Math.floor(r() * 3)]);
    const deferred = new Bm25(), grown = new Bm25();
    deferred.deferPostings();
    const n = 30 + Math.floor(r() * 200);
    for (let d = 0; d < n; d++) { const t = doc(); deferred.add(t); grown.add(t); }
    // Removals while deferred (a term's last document frees its id), then a pack or a search first.
    for (let d = 0; d < n; d++) if (r() < 0.1) { deferred.remove(d); grown.remove(d); }
    if (seed % 2) { deferred.trim(); grown.trim(); }
    const tieBreak = (a: number, b: number) => a - b;
    for (let round = 0; round < 2; round++) {
      for (let qi = 0; qi < 6; qi++) {
        const query = Array.from({ length: 1 + Math.floor(r() * 20) }, () => word(r, vocab * 1.2));
        assert.deepEqual(deferred.topK(query, 10, tieBreak), grown.topK(query, 10, tieBreak), `seed ${seed} round ${round}, topK ${qi}`);
        assert.deepEqual([...deferred.search(query)], [...grown.search(query)], `seed ${seed} round ${round}, search ${qi}`);
      }
      for (let d = 0; d < n / 5; d++) { const t = doc(); deferred.add(t); grown.add(t); }
      for (let d = 0; d < n; d++) if (r() < 0.1) { deferred.remove(d); grown.remove(d); }
    }
    assert.equal(deferred.size, grown.size);
  }
});

test('bm25: scoreEach gives every document the score of a corpus built of them, to the last bit', () => {
  let scored = 0;
  for (let seed = 1; seed <= 60; seed++) {
    const r = rng(seed);
    const vocab = 3 + Math.floor(r() * 200);
    // Empty documents, repeated terms and repeated or absent query terms included.
    const docs = Array.from({ length: Math.floor(r() * 300) }, () => Array.from({ length: Math.floor(r() * 30) }, () => word(r, vocab)));
    const query = Array.from({ length: 1 + Math.floor(r() * 8) }, () => (r() < 0.1 ? 'absent' : word(r, vocab)));
    const bm = new Bm25();
    for (const d of docs) bm.add(d);
    const built = docs.map((_, i) => bm.score(i, query));
    assert.deepEqual(Bm25.scoreEach(docs, query), built, `seed ${seed}`);
    if (built.some((s) => s > 0)) scored++;
  }
  assert.ok(scored > 50, `corpora where some document scores: ${scored}`);
});

test('bm25: searches between edits of a packed corpus (bounds kept, postings in two runs) answer as the exhaustive search and a fresh corpus', () => {
  for (let seed = 300; seed < 330; seed++) {
    const r = rng(seed);
    const vocab = 5 + Math.floor(r() * 150);
    // Lengths and frequencies vary a lot, so an added document can exceed what a term's bound was computed from.
    // Some weights are 0: such a posting adds nothing, yet its document is searched and scored (0).
    const doc = () => Array.from({ length: 1 + Math.floor(r() ** 2 * 60) }, (): [string, number] => [word(r, vocab), r() < 0.1 ? 2 + Math.floor(r() * 20) : r() < 0.05 ? 0 : 1]);
    const texts: ([string, number][] | null)[] = [];
    const bm = new Bm25();
    bm.deferPostings();
    const n = 50 + Math.floor(r() * 300);
    for (let d = 0; d < n; d++) { const t = doc(); texts.push(t); bm.add(t); }
    bm.trim();
    const key = (id: number) => id % 5;
    for (let round = 0; round < 12; round++) {
      // Searches first (they keep bounds and move lists), then an edit: a few documents out, a few in.
      for (let qi = 0; qi < 3; qi++) {
        const query = Array.from({ length: 1 + Math.floor(r() * 25) }, () => word(r, vocab));
        const k = 1 + Math.floor(r() * 12);
        const tieBreak = (a: number, b: number) => key(a) - key(b) || a - b;
        const got = bm.topK(query, k, tieBreak);
        assert.deepEqual(got, exhaustive(bm, query, k, tieBreak, () => true), `seed ${seed}, round ${round}, query ${qi}`);
        const liveIds = texts.flatMap((t, id) => (t ? [id] : []));
        const fresh = new Bm25();
        for (const id of liveIds) fresh.add(texts[id]!);
        assert.deepEqual(got, fresh.topK(query, k, (a, b) => tieBreak(liveIds[a], liveIds[b])).map((h) => ({ doc: liveIds[h.doc], score: h.score })), `seed ${seed}, round ${round}, query ${qi}: fresh`);
      }
      for (let d = 0; d < texts.length; d++) if (texts[d] && r() < 0.05) { bm.remove(d); texts[d] = null; }
      for (let d = 0; d < 1 + n / 10; d++) { const t = doc(); texts.push(t); bm.add(t); }
    }
  }
});

test('bm25: a document added after a search can outscore the bounds that search kept, and topK still finds it', () => {
  const bm = new Bm25();
  // 3,000 documents of 20 terms: 'mid' once in every tenth (more than topK seeds its threshold
  // from), 'rare' once in forty others (more weight than one 'mid', less than thirty).
  for (let d = 0; d < 3000; d++) bm.add(Array.from({ length: 20 }, (_, i) => (i === 0 && d % 10 === 0 ? 'mid' : i === 0 && d % 10 === 5 && d < 400 ? 'rare' : `filler${(d + i) % 40}`)));
  bm.trim();
  const query = ['rare', 'mid'];
  const byId = (a: number, b: number) => a - b;
  assert.deepEqual(bm.topK(query, 1, byId).map((h) => h.doc), [5], "the first of 'rare'");
  // 'mid' thirty times in a short document: more than any posting of 'mid' gave when its bound was kept.
  const added = bm.add(Array.from({ length: 30 }, () => 'mid'));
  const expected = exhaustive(bm, query, 1, byId, () => true);
  assert.equal(expected[0].doc, added, 'the added document scores highest');
  assert.deepEqual(bm.topK(query, 1, byId), expected);
});

test('bm25: a document whose first walked posting adds nothing (weight 0) is offered once', () => {
  const bm = new Bm25();
  // More documents than topK seeds from, so the last one is found by walking, 'zero' (bound 0) first.
  for (let d = 0; d < 300; d++) bm.add([['b', 1], ['filler', 1]]);
  bm.add([['zero', 0], ['b', 2]]);
  const byId = (a: number, b: number) => a - b;
  const hits = bm.topK(['zero', 'b'], 400, byId);
  assert.equal(new Set(hits.map((h) => h.doc)).size, hits.length, 'no document twice');
  assert.deepEqual(hits, exhaustive(bm, ['zero', 'b'], 400, byId, () => true));
});
