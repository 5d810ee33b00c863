// A small Okapi BM25 used by the re-rank (identifier-weighted fields) and similar-code recall.
// Deterministic: documents keep their insertion order, ties are broken by the caller.

import { SlotTable } from '../text/slotTable';

export const K1 = 1.2;
export const B = 0.75;

/**
 * The documents containing a term, ascending, each followed by the term's frequency in it:
 * [doc, tf, doc, tf, ...]. One array per term, not two: most terms are rare, and a small array
 * costs more in its header and spare room than in its entries.
 */
type Postings = number[];
/** One run of a term's postings as read: a view of the packed pool, or the array added since. */
type PostingList = ArrayLike<number>;


export interface Scored { doc: number; score: number }

/**
 * A corpus in its finished form, as saved beside the index cache (preparedCache.ts) and loaded
 * by a warm start without re-adding a document: the term table (slots are term ids), the documents'
 * pool ranges and lengths (count -1: removed), the pools. The postings and document frequencies
 * are not in it: they are the pools transposed, which fromSaved does in two passes.
 */
export interface SavedBm25 {
  terms: SlotTable;
  docStart: Int32Array;
  docCount: Int32Array;
  docLen: Int32Array;
  termPool: Int32Array;
  tfPool: Int32Array;
}

export class Bm25 {
  /** Terms by id; ids index `df` and `postings`, and are reused once a term is gone. */
  private terms = new SlotTable();
  private df: number[] = [];
  /**
   * Documents by id, in columns: a document's distinct term ids, ascending, with each one's
   * frequency, are the range [docStart, docStart + docCount) of the two pools below (docCount -1:
   * removed; ids are positions, so they never move, nor do their pool ranges), and docLen its
   * length. Pools rather than a Map per document (java.base's similar-code corpus holds 60k
   * documents and 1.3M distinct terms), and columns rather than an object per document (the whole
   * JDK's holds 235k, each an object for the collector to mark).
   */
  private docStart = new Int32Array(64);
  private docCount = new Int32Array(64);
  private docLen = new Float64Array(64);
  /** Document ids given so far, removed ones included. */
  private docTotal = 0;
  private termPool: Int32Array = new Int32Array(64);
  /** Frequencies: whole numbers as 32-bit integers, until a weight that is not one comes (then doubles). */
  private tfPool: Int32Array | Float64Array = new Int32Array(64);
  private pooled = 0;
  private live = 0;
  private totalLen = 0;
  /**
   * term id -> documents containing it: a query touches only its own postings. Those added since
   * the last pack() are here, one array per term; pack() moves every term's into `packed`, one
   * Int32Array for all (term id -> its range [packedAt, packedAt + packedLen)): on the whole
   * JDK a JS array per term held 8 bytes per number and a header per term.
   */
  private postings: (Postings | undefined)[] = [];
  private packed: Int32Array = new Int32Array(0);
  private packedAt: Int32Array = new Int32Array(0);
  private packedLen: Int32Array = new Int32Array(0);
  /**
   * A first build (deferPostings): add() leaves the postings out and trim() makes them from the
   * pools in two passes, instead of a JS array per term grown by pushes (on the whole JDK, hundreds
   * of megabytes of arrays and their collection while the corpus was built).
   */
  private deferred = false;
  /**
   * term id -> the most one posting of it adds to a score before idf (MaxScore's bound, see
   * bound()), at the average length `avg` it was computed at. Kept across edits: an added
   * document raises it where it must, a removed one leaves it an upper bound, so an edit does not
   * make the next search walk every posting of its frequent terms again.
   */
  private bounds = new Map<number, { shape: number; avg: number }>();
  /** topK's per-document sums and marks of the documents touched, all zero between searches (grown with the documents, never shrunk). */
  private sums = new Float64Array(0);
  private marks = new Uint8Array(0);

  /** Adds a document as (term, weight) pairs; a weight > 1 counts the term that many times. */
  add(terms: Iterable<[string, number]> | string[]): number {
    const tf = new Map<number, number>();
    let len = 0;
    for (const t of terms as Iterable<string | [string, number]>) {
      const [term, w] = typeof t === 'string' ? [t, 1] : t;
      const id = this.idFor(term);
      tf.set(id, (tf.get(id) ?? 0) + w);
      len += w;
    }
    const doc = this.docTotal;
    const ids = [...tf.keys()].sort((a, b) => a - b);
    const start = this.reserve(ids.length);
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i], f = tf.get(id)!;
      const bound = this.bounds.get(id);
      if (bound) bound.shape = Math.max(bound.shape, Bm25.shape(f, len, bound.avg));
      this.termPool[start + i] = id;
      if (this.tfPool instanceof Int32Array && !(Number.isInteger(f) && f >= 0 && f <= 0x7fffffff)) this.tfPool = Float64Array.from(this.tfPool);
      this.tfPool[start + i] = f;
      this.df[id]++;
      if (this.deferred) continue;
      const list = this.postings[id];
      if (list) list.push(doc, f);
      else this.postings[id] = [doc, f]; // exact size: most terms stay in one document
    }
    this.pushDoc(start, ids.length, len);
    this.live++;
    this.totalLen += len;
    return doc;
  }

  /** Appends a document's row to the columns. */
  private pushDoc(start: number, count: number, len: number): void {
    if (this.docTotal === this.docStart.length) {
      const size = Math.max(64, this.docTotal + (this.docTotal >> 2));
      const grow = <A extends Int32Array | Float64Array>(a: A, b: A): A => { b.set(a); return b; };
      this.docStart = grow(this.docStart, new Int32Array(size));
      this.docCount = grow(this.docCount, new Int32Array(size));
      this.docLen = grow(this.docLen, new Float64Array(size));
    }
    this.docStart[this.docTotal] = start;
    this.docCount[this.docTotal] = count;
    this.docLen[this.docTotal] = len;
    this.docTotal++;
  }

  /** Whether `doc` is a live document's id. */
  private isLive(doc: number): boolean {
    return doc >= 0 && doc < this.docTotal && this.docCount[doc] >= 0;
  }

  /** Room for `n` more entries in the pools; returns where they start. */
  private reserve(n: number): number {
    const start = this.pooled;
    if (start + n > this.termPool.length) {
      // A quarter more, not twice: after trim() the pools are exact, and one edit must not double a large corpus's.
      const size = Math.max(this.termPool.length + (this.termPool.length >> 2), start + n, 64);
      const terms = new Int32Array(size), tfs = this.tfPool instanceof Int32Array ? new Int32Array(size) : new Float64Array(size);
      terms.set(this.termPool.subarray(0, start));
      tfs.set(this.tfPool.subarray(0, start));
      this.termPool = terms;
      this.tfPool = tfs;
    }
    this.pooled = start + n;
    return start;
  }

  /** A term's id, given a new one (postings to come) if the corpus does not hold it. */
  private idFor(term: string): number {
    let id = this.terms.slotOf(term);
    if (id !== undefined) return id;
    // The table keeps a copy: a term cut out of a file's text must not keep the whole text alive.
    id = this.terms.add(term);
    this.df[id] = 0;
    this.postings[id] = undefined;
    if (id < this.packedLen.length) this.packedLen[id] = 0;
    return id;
  }

  /** The frequency of term `id` in a document, 0 if absent (binary search of its sorted ids). */
  private tf(doc: number, id: number | undefined): number {
    if (id === undefined) return 0;
    const a = this.termPool, end = this.docStart[doc] + this.docCount[doc];
    let lo = this.docStart[doc], hi = end;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (a[mid] < id) lo = mid + 1; else hi = mid;
    }
    return lo < end && a[lo] === id ? this.tfPool[lo] : 0;
  }

  /**
   * Takes a document out: every statistic (N, df, average length) is then what a corpus built
   * without it has, so scores equal a fresh build's to the last bit. Its postings stay behind as
   * dead entries that searches skip; `dead` says how many ids a caller could compact away.
   */
  remove(doc: number): void {
    if (!this.isLive(doc)) return;
    for (let i = this.docStart[doc]; i < this.docStart[doc] + this.docCount[doc]; i++) {
      const id = this.termPool[i];
      if (--this.df[id]) continue;
      this.terms.delete(id);
      this.bounds.delete(id); // the id may be given to another term
      this.postings[id] = undefined;
      if (id < this.packedLen.length) this.packedLen[id] = 0;
    }
    this.docCount[doc] = -1;
    this.live--;
    this.totalLen -= this.docLen[doc];
  }

  /**
   * Gives back spare room after adding many documents at once: the pools are cut to their size,
   * and every term's postings are packed into one Int32Array (when every frequency is a whole
   * number, else the per-term arrays are only cut to size). Answers are unchanged: the lists hold
   * the same numbers in the same order.
   */
  trim(): void {
    this.termPool = this.termPool.slice(0, this.pooled);
    this.tfPool = this.tfPool.slice(0, this.pooled);
    if (this.deferred) { this.deferred = false; this.transpose(); return; }
    if (!(this.tfPool instanceof Int32Array)) {
      for (let id = 0; id < this.postings.length; id++) this.postings[id] = this.postings[id]?.slice();
      return;
    }
    const terms = this.terms.length;
    let total = 0;
    for (let id = 0; id < terms; id++) total += this.packedLenOf(id) + (this.postings[id]?.length ?? 0);
    const packed = new Int32Array(total), at = new Int32Array(terms), len = new Int32Array(terms);
    let n = 0;
    for (let id = 0; id < terms; id++) {
      at[id] = n;
      const from = this.packedLenOf(id) ? this.packedAt[id] : 0;
      packed.set(this.packed.subarray(from, from + this.packedLenOf(id)), n);
      n += this.packedLenOf(id);
      for (const x of this.postings[id] ?? []) packed[n++] = x;
      len[id] = n - at[id];
      this.postings[id] = undefined;
    }
    this.packed = packed;
    this.packedAt = at;
    this.packedLen = len;
  }

  /**
   * Until the next trim(), documents are added without their postings (a corpus built from
   * nothing, before anything is searched); a search in between packs them first.
   */
  deferPostings(): void {
    if (this.docTotal === 0) this.deferred = true;
  }

  /**
   * Every term's postings made from the live documents' pool ranges, documents ascending: the
   * lists add() would have grown, less removed documents' dead entries (which searches skip).
   * Whole-number frequencies go into one packed Int32Array, others into per-term arrays.
   */
  private transpose(): void {
    const terms = this.terms.length;
    const at = new Int32Array(terms), fill = new Int32Array(terms);
    let total = 0;
    for (let id = 0; id < terms; id++) { at[id] = total; total += 2 * this.df[id]; }
    const packed = this.tfPool instanceof Int32Array ? new Int32Array(total) : new Float64Array(total);
    for (let i = 0; i < this.docTotal; i++) {
      if (this.docCount[i] < 0) continue;
      for (let j = this.docStart[i]; j < this.docStart[i] + this.docCount[i]; j++) {
        const id = this.termPool[j], k = at[id] + fill[id];
        packed[k] = i;
        packed[k + 1] = this.tfPool[j];
        fill[id] += 2;
      }
    }
    this.postings = new Array(terms).fill(undefined);
    if (packed instanceof Int32Array) {
      this.packed = packed;
      this.packedAt = at;
      this.packedLen = fill;
      return;
    }
    this.packed = new Int32Array(0);
    this.packedAt = new Int32Array(0);
    this.packedLen = new Int32Array(0);
    for (let id = 0; id < terms; id++) if (fill[id]) this.postings[id] = Array.from(packed.subarray(at[id], at[id] + fill[id]));
  }

  private packedLenOf(id: number): number {
    return id < this.packedLen.length ? this.packedLen[id] : 0;
  }

  /**
   * The finished form (see SavedBm25), or undefined when a frequency is not a whole number (then
   * the pools are doubles and a warm start builds the corpus again). Holds views of the pools:
   * meant to be written out at once.
   */
  saved(): SavedBm25 | undefined {
    if (!(this.tfPool instanceof Int32Array)) return undefined;
    const n = this.docTotal;
    const docStart = new Int32Array(n), docCount = new Int32Array(n), docLen = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      if (this.docCount[i] < 0) { docCount[i] = -1; continue; }
      const len = this.docLen[i];
      if (!Number.isInteger(len) || len > 0x7fffffff) return undefined;
      docStart[i] = this.docStart[i]; docCount[i] = this.docCount[i]; docLen[i] = len;
    }
    return {
      terms: this.terms, docStart, docCount, docLen,
      termPool: this.termPool.subarray(0, this.pooled), tfPool: this.tfPool.subarray(0, this.pooled),
    };
  }

  /**
   * A corpus from its finished form: it answers every search as the corpus that was saved, to
   * the last bit (the same documents, statistics and postings, less the removed documents' dead
   * entries, which searches skip). Throws on anything inconsistent (a range outside its pool, a
   * term id out of range, a term twice), so a damaged file is rebuilt, never half-trusted.
   */
  static fromSaved(s: SavedBm25): Bm25 {
    const bm = new Bm25();
    const terms = s.terms.length, docs = s.docStart.length, pooled = s.termPool.length;
    const bad = (what: string) => { throw new Error(`saved BM25 corpus malformed: ${what}`); };
    if (s.docCount.length !== docs || s.docLen.length !== docs || s.tfPool.length !== pooled) bad('lengths');
    bm.terms = s.terms;
    const held = s.terms.heldSlots();
    // Documents, and each term's document frequency (its live documents).
    const df = new Int32Array(terms);
    bm.docStart = Int32Array.from(s.docStart);
    bm.docCount = Int32Array.from(s.docCount);
    bm.docLen = Float64Array.from(s.docLen);
    bm.docTotal = docs;
    for (let i = 0; i < docs; i++) {
      const count = s.docCount[i];
      if (count === -1) continue;
      const start = s.docStart[i], len = s.docLen[i];
      if (count < 0 || start < 0 || start + count > pooled || len < 0) bad('a document range');
      for (let j = start; j < start + count; j++) {
        const id = s.termPool[j];
        if (id < 0 || id >= terms || !held[id] || (j > start && s.termPool[j - 1] >= id)) bad('a document\'s terms');
        df[id]++;
      }
      bm.live++;
      bm.totalLen += len;
    }
    for (let id = 0; id < terms; id++) if (held[id] && !df[id]) bad('a term in no document');
    bm.df = Array.from(df);
    bm.termPool = s.termPool;
    bm.tfPool = s.tfPool;
    bm.pooled = pooled;
    bm.transpose();
    return bm;
  }

  /** A live document's terms with their frequencies, in term order (to re-add it elsewhere). */
  termsOf(doc: number): [string, number][] {
    if (!this.isLive(doc)) return [];
    const start = this.docStart[doc];
    return Array.from({ length: this.docCount[doc] }, (_, i): [string, number] => [this.terms.stringAt(this.termPool[start + i])!, this.tfPool[start + i]]).sort((a, b) => (a[0] < b[0] ? -1 : 1));
  }

  /** Documents in the corpus (removed ones not counted). */
  get size(): number {
    return this.live;
  }

  /** Removed documents whose ids are still taken. */
  get dead(): number {
    return this.docTotal - this.live;
  }

  idf(term: string): number {
    const id = this.terms.slotOf(term);
    const n = id === undefined ? 0 : this.df[id];
    return Math.log(1 + (this.live - n + 0.5) / (n + 0.5));
  }

  private avgLen(): number {
    return this.totalLen / Math.max(1, this.live) || 1;
  }

  /** What one occurrence count `f` of a term with this idf adds to a document of length `len`. */
  private static part(idf: number, f: number, len: number, avg: number): number {
    return idf * (f * (K1 + 1)) / (f + K1 * (1 - B + B * len / avg));
  }

  /** part() without the idf: how much of it the count and the document's length make. */
  private static shape(f: number, len: number, avg: number): number {
    return (f * (K1 + 1)) / (f + K1 * (1 - B + B * len / avg));
  }

  /**
   * Scores every document that contains a query term, through the postings. Per document the
   * terms are summed in the same order as score() sums them, so the two agree to the last bit.
   */
  search(query: Iterable<string>): Map<number, number> {
    const scores = new Map<number, number>();
    const avg = this.avgLen();
    for (const q of new Set(query)) {
      const id = this.terms.slotOf(q);
      if (id === undefined) continue;
      const idf = this.idf(q);
      for (const list of this.runsOf(id)) {
        for (let i = 0; i < list.length; i += 2) {
          const doc = list[i];
          if (this.docCount[doc] >= 0) scores.set(doc, (scores.get(doc) ?? 0) + Bm25.part(idf, list[i + 1], this.docLen[doc], avg));
        }
      }
    }
    return scores;
  }

  /**
   * What score() gives each of `documents` (weight-one terms) in a corpus of just them, without
   * building it: only the query's terms are counted. The same lengths, idf and per-term order as
   * add() and score(), so the two agree to the last bit (rerank scores its candidates once).
   */
  static scoreEach(documents: readonly (readonly string[])[], query: Iterable<string>): number[] {
    const terms = [...new Set(query)];
    const slot = new Map<string, number>();
    terms.forEach((t, i) => slot.set(t, i));
    const counts = new Float64Array(documents.length * terms.length);
    const df = new Array<number>(terms.length).fill(0);
    let totalLen = 0;
    documents.forEach((doc, d) => {
      totalLen += doc.length;
      for (const t of doc) {
        const i = slot.get(t);
        if (i !== undefined && counts[d * terms.length + i]++ === 0) df[i]++;
      }
    });
    const live = documents.length;
    const avg = totalLen / Math.max(1, live) || 1;
    const idf = df.map((n) => Math.log(1 + (live - n + 0.5) / (n + 0.5)));
    return documents.map((doc, d) => {
      let s = 0;
      for (let i = 0; i < terms.length; i++) {
        const f = counts[d * terms.length + i];
        if (f) s += Bm25.part(idf[i], f, doc.length, avg);
      }
      return s;
    });
  }

  score(doc: number, query: Iterable<string>): number {
    if (!this.isLive(doc)) return 0;
    const avg = this.avgLen();
    let s = 0;
    for (const q of new Set(query)) {
      const f = this.tf(doc, this.terms.slotOf(q));
      if (!f) continue;
      s += Bm25.part(this.idf(q), f, this.docLen[doc], avg);
    }
    return s;
  }

  /**
   * A live term's postings as ascending runs: its packed range (documents before the last pack),
   * then those added since (newer documents, so higher ids). Read as two runs rather than joined:
   * joining copied the whole packed list of every frequent term an edit added to, on every search
   * after it (on the whole JDK, tens of milliseconds a search).
   */
  private runsOf(id: number): PostingList[] {
    if (this.deferred) this.trim();
    const added = this.postings[id], n = this.packedLenOf(id);
    const out: PostingList[] = [];
    if (n) out.push(this.packed.subarray(this.packedAt[id], this.packedAt[id] + n));
    if (added) out.push(added);
    return out;
  }

  /** topK's accumulator and marks, at least one slot per document id, every slot zero. */
  private accumulator(): { acc: Float64Array; marked: Uint8Array } {
    if (this.sums.length < this.docTotal) {
      const size = Math.max(this.docTotal, this.sums.length + (this.sums.length >> 2));
      this.sums = new Float64Array(size);
      this.marks = new Uint8Array(size);
    }
    return { acc: this.sums, marked: this.marks };
  }

  /**
   * At least the largest score contribution of a term over all its postings. Its shape part
   * (part() without the idf) is kept per term with the average length it was computed at, and
   * scaled by how far the average has grown since: shape rises with the average, at most in
   * proportion (every term of its denominator shrinks by at most that factor), and falls when
   * the average falls. Recomputed from the postings when the average has moved more than
   * BOUND_DRIFT, so the bound stays close. topK's answer does not depend on how close it is.
   */
  private bound(term: string): number {
    const id = this.terms.slotOf(term);
    if (id === undefined) return 0;
    const avg = this.avgLen();
    let b = this.bounds.get(id);
    if (!b || Math.abs(avg / b.avg - 1) > BOUND_DRIFT) {
      let shape = 0;
      for (const list of this.runsOf(id)) {
        for (let i = 0; i < list.length; i += 2) {
          const doc = list[i];
          if (this.docCount[doc] >= 0) shape = Math.max(shape, Bm25.shape(list[i + 1], this.docLen[doc], avg));
        }
      }
      this.bounds.set(id, (b = { shape, avg }));
    }
    return this.idf(term) * b.shape * Math.max(1, avg / b.avg);
  }

  /**
   * The `k` best documents `accept` admits, best first: exactly the first `k` of search()'s
   * documents ordered by score, then `tieBreak` — with the same scores to the last bit — but
   * without scoring every posting (MaxScore, Turtle & Flood 1995). Terms are taken in ascending
   * order of their bound; once the documents of the strongest terms have set a first k-th best
   * score, a document holding only terms of the prefix whose bounds sum below it cannot enter, so
   * only the other terms' postings are walked and the prefix's terms are merely looked up for the
   * documents found there.
   */
  topK(query: Iterable<string>, k: number, tieBreak: (a: number, b: number) => number, accept: (doc: number) => boolean = () => true): Scored[] {
    const terms = [...new Set(query)].filter((t) => this.terms.slotOf(t) !== undefined);
    const termIds = terms.map((t) => this.terms.slotOf(t)!);
    if (!terms.length || k <= 0) return [];
    const avg = this.avgLen();
    const idfs = terms.map((t) => this.idf(t));
    /** The score exactly as search() sums it: query order. */
    const exact = (doc: number) => {
      const len = this.docLen[doc];
      let s = 0;
      for (let i = 0; i < terms.length; i++) {
        const f = this.tf(doc, termIds[i]);
        if (f) s += Bm25.part(idfs[i], f, len, avg);
      }
      return s;
    };
    const cursors = terms.map((t, i) => ({ term: t, id: termIds[i], idf: idfs[i], ub: this.bound(t), runs: this.runsOf(termIds[i]) }))
      .sort((a, b) => a.ub - b.ub || (a.term < b.term ? -1 : 1));
    /** bounded[i]: the sum of the bounds of cursors[0..i-1]. */
    const bounded = [0];
    for (const c of cursors) bounded.push(bounded[bounded.length - 1] + c.ub);
    // Bounds are summed in another order than exact scores: pad them against rounding.
    const below = (bound: number, threshold: number) => bound * (1 + 1e-9) + 1e-12 < threshold;
    const best: Scored[] = [];
    const before = (a: Scored, b: Scored) => a.score > b.score || (a.score === b.score && tieBreak(a.doc, b.doc) < 0);
    let threshold = 0;
    let first = 0; // cursors[first..] would be walked at this threshold; the ones before only looked up
    const offer = (doc: number) => {
      if (!accept(doc)) return;
      const hit = { doc, score: exact(doc) };
      if (best.length >= k && !before(hit, best[k - 1])) return;
      let at = best.length;
      while (at > 0 && before(hit, best[at - 1])) at--;
      best.splice(at, 0, hit);
      if (best.length > k) best.pop();
      if (best.length < k) return;
      threshold = best[k - 1].score;
      while (first < cursors.length && below(bounded[first + 1], threshold)) first++;
    };
    // A first threshold from the documents of the strongest terms (usually the rarest), so
    // pruning starts high instead of at the first k documents in corpus order.
    const seeded = new Set<number>();
    for (let i = cursors.length - 1; i >= 0 && seeded.size < SEED_DOCS; i--) {
      for (const list of cursors[i].runs) {
        for (let j = 0; j < list.length && seeded.size < SEED_DOCS; j += 2) {
          const doc = list[j];
          if (!seeded.has(doc) && this.docCount[doc] >= 0) { seeded.add(doc); offer(doc); }
        }
      }
    }
    // The walked terms, fixed now that the seeds set a threshold, term at a time: each document's
    // parts summed into one dense accumulator (a heap merging the lists document by document cost
    // more than the postings themselves), then every document touched whose bound can still
    // enter is scored exactly. A document no walked term holds cannot enter: its bound is
    // bounded[walked], below the threshold.
    const walked = first;
    const { acc, marked } = this.accumulator(), touched: number[] = [];
    try {
      for (let i = walked; i < cursors.length; i++) {
        const c = cursors[i];
        for (const list of c.runs) {
          for (let j = 0; j < list.length; j += 2) {
            const doc = list[j];
            if (this.docCount[doc] < 0) continue;
            if (!marked[doc]) { marked[doc] = 1; touched.push(doc); }
            acc[doc] += Bm25.part(c.idf, list[j + 1], this.docLen[doc], avg);
          }
        }
      }
      for (const doc of touched) {
        let bound = acc[doc] + bounded[walked];
        if (seeded.has(doc) || (best.length >= k && below(bound, threshold))) continue;
        // Replace the looked-up terms' bounds by their actual parts, strongest first, while it may still enter.
        for (let i = walked - 1; i >= 0 && best.length >= k && !below(bound, threshold); i--) {
          const f = this.tf(doc, cursors[i].id);
          bound += (f ? Bm25.part(cursors[i].idf, f, this.docLen[doc], avg) : 0) - cursors[i].ub;
        }
        if (best.length >= k && below(bound, threshold)) continue;
        offer(doc);
      }
    } finally {
      for (const doc of touched) { acc[doc] = 0; marked[doc] = 0; }
    }
    return best;
  }
}

/** How far the average document length may move before a term's kept bound is computed again (see bound()). */
const BOUND_DRIFT = 0.01;

/** Documents scored up front to set the first threshold of topK. */
const SEED_DOCS = 256;
