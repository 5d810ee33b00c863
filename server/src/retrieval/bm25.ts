// A small Okapi BM25 used by the re-rank (identifier-weighted fields) and similar-code recall.
// Deterministic: documents keep their insertion order, ties are broken by the caller.

export const K1 = 1.2;
export const B = 0.75;

export class Bm25 {
  private df = new Map<string, number>();
  private docs: { tf: Map<string, number>; len: number }[] = [];
  private totalLen = 0;
  /** term -> documents containing it, ascending: a query touches only its own postings. */
  private postings = new Map<string, number[]>();

  /** Adds a document as (term, weight) pairs; a weight > 1 counts the term that many times. */
  add(terms: Iterable<[string, number]> | string[]): number {
    const tf = new Map<string, number>();
    let len = 0;
    for (const t of terms as Iterable<string | [string, number]>) {
      const [term, w] = typeof t === 'string' ? [t, 1] : t;
      tf.set(term, (tf.get(term) ?? 0) + w);
      len += w;
    }
    const doc = this.docs.length;
    for (const term of tf.keys()) {
      this.df.set(term, (this.df.get(term) ?? 0) + 1);
      let list = this.postings.get(term);
      if (!list) this.postings.set(term, (list = []));
      list.push(doc);
    }
    this.docs.push({ tf, len });
    this.totalLen += len;
    return this.docs.length - 1;
  }

  get size(): number {
    return this.docs.length;
  }

  idf(term: string): number {
    const n = this.df.get(term) ?? 0;
    return Math.log(1 + (this.docs.length - n + 0.5) / (n + 0.5));
  }

  /**
   * Scores every document that contains a query term, through the postings. Per document the
   * terms are summed in the same order as score() sums them, so the two agree to the last bit.
   */
  search(query: Iterable<string>): Map<number, number> {
    const scores = new Map<number, number>();
    const avg = this.totalLen / Math.max(1, this.docs.length) || 1;
    for (const q of new Set(query)) {
      const list = this.postings.get(q);
      if (!list) continue;
      const idf = this.idf(q);
      for (const doc of list) {
        const d = this.docs[doc];
        const f = d.tf.get(q)!;
        scores.set(doc, (scores.get(doc) ?? 0) + idf * (f * (K1 + 1)) / (f + K1 * (1 - B + B * d.len / avg)));
      }
    }
    return scores;
  }

  score(doc: number, query: Iterable<string>): number {
    const d = this.docs[doc];
    if (!d) return 0;
    const avg = this.totalLen / Math.max(1, this.docs.length) || 1;
    let s = 0;
    for (const q of new Set(query)) {
      const f = d.tf.get(q);
      if (!f) continue;
      s += this.idf(q) * (f * (K1 + 1)) / (f + K1 * (1 - B + B * d.len / avg));
    }
    return s;
  }
}
