// The inverted index behind description matching (descriptions.ts): BM25+ over four weighted
// fields with MiniSearch 7's formula and constants (k 1.2, b 0.7, d 0.5; a field's length is its
// number of distinct tokens; idf from the documents holding the term in that field), which it
// replaced for its size: the whole JDK has ~500k descriptions, and MiniSearch's radix tree of
// per-field Maps held 85 MB for java.base's 120k. Here a term is an id, a (term, field) posting
// list one flat array of numbers (doc and tf in one), and field lengths one pooled array.
//
// Unlike MiniSearch, a field's average length is its exact total over the live documents divided
// by their count, not a running mean in the order documents come and go: every statistic is then
// a function of the live documents alone, so a table after any history of adds and removals
// scores each document bit for bit as a fresh build of the same documents does (within 1e-12 of
// MiniSearch's, which test/retrieval/descriptionTable checks). That is what lets the caller keep
// term scores across an edit (see `stats` and `takeChangedTerms`).

/** Field order fixes the order of the floating-point sum over fields (MiniSearch's `fields`). */
export const FIELDS = ['name', 'signature', 'owner', 'doc'] as const;
export const FIELD_BOOST = [3, 1, 0.5, 1.5];
const NF = FIELDS.length;
const K = 1.2, B = 0.7, D = 0.5;
/**
 * A posting is one number, doc * TF_SPAN + tf: half the heap of a [doc, tf] pair (~48 MB on the
 * whole JDK), exact for any doc id (a double holds 2^53). A term's count in one field of one
 * declaration stays far below it: Java caps parameters at 255 and identifiers at 65,535 bytes, and a
 * Javadoc summary is cut at 400 characters. Counting stops at TF_SPAN - 1 so a posting never spills
 * into the next doc id.
 */
const TF_SPAN = 65_536;

/** One term's score in each document containing it, documents in MiniSearch's result order. */
export interface TermScores { docs: Int32Array; scores: Float64Array }

export class DescriptionTable {
  private termIds = new Map<string, number>();
  private freeTermIds: number[] = [];
  /** termId * NF + field -> its postings (doc * TF_SPAN + tf), docs ascending (ids only grow). */
  private postings: (number[] | undefined)[] = [];
  /** doc * NF + field -> the field's distinct token count. */
  private fieldLength: number[] = [];
  /** Per doc id: its declaration and file (undefined once removed). */
  readonly sym: (string | undefined)[] = [];
  readonly path: (string | undefined)[] = [];
  /** Per field: the sum of its length over the live documents (an integer, so exact). */
  private total = new Array<number>(NF).fill(0);
  private count = 0;
  /** Terms whose postings changed since the last takeChangedTerms (a term's scores moved with them). */
  private changed = new Set<string>();
  /** termScores' accumulator by document id, and which ids it has seen (reset after each use). */
  private scratch?: { score: Float64Array; seen: Uint8Array };

  constructor(private tokenize: (text: string) => string[]) {}

  get size(): number { return this.count; }
  /** Ids handed out so far (live and removed). */
  get capacity(): number { return this.sym.length; }

  /**
   * What every term's scores depend on besides its own postings and its documents' lengths: the
   * number of live documents and each field's total length. While these stay the same, only the
   * terms takeChangedTerms names have different scores.
   */
  stats(): string { return `${this.count} ${this.total.join(' ')}`; }

  /** The terms whose postings changed since the last call (documents holding them came or went). */
  takeChangedTerms(): Set<string> {
    const out = this.changed;
    this.changed = new Set();
    return out;
  }

  /** A document's tokens, field by field (what addTokens takes and a saved description holds). */
  tokens(fields: readonly string[]): string[][] {
    return fields.map((f) => this.tokenize(f));
  }

  add(sym: string, path: string, fields: readonly string[]): number {
    return this.addTokens(sym, path, this.tokens(fields));
  }

  /** Adds a document from its tokens (`tokens(fields)`, as they were, not lower-cased). */
  addTokens(sym: string, path: string, fieldTokens: readonly (readonly string[])[]): number {
    const doc = this.sym.length;
    this.sym.push(sym);
    this.path.push(path);
    this.count++;
    for (let f = 0; f < NF; f++) {
      const tokens = fieldTokens[f];
      const distinct = new Set(tokens).size;
      this.fieldLength[doc * NF + f] = distinct;
      this.total[f] += distinct;
      for (const t of tokens) {
        const term = t.toLowerCase();
        if (!term) continue;
        this.changed.add(term);
        let id = this.termIds.get(term);
        if (id === undefined) {
          id = this.freeTermIds.pop() ?? this.termIds.size;
          this.termIds.set(term, id);
        }
        const list = this.postings[id * NF + f];
        if (!list) this.postings[id * NF + f] = [doc * TF_SPAN + 1];
        else if (Math.floor(list[list.length - 1] / TF_SPAN) !== doc) list.push(doc * TF_SPAN + 1);
        else if (list[list.length - 1] % TF_SPAN < TF_SPAN - 1) list[list.length - 1]++;
      }
    }
    return doc;
  }

  /** Removes a document added with these `fields` (derived again by the caller). */
  remove(doc: number, fields: readonly string[]): void {
    for (let f = 0; f < NF; f++) {
      const tokens = this.tokenize(fields[f]);
      this.total[f] -= new Set(tokens).size;
      for (const t of tokens) {
        const term = t.toLowerCase();
        if (!term) continue;
        this.changed.add(term);
        const id = this.termIds.get(term);
        if (id === undefined) continue;
        const list = this.postings[id * NF + f];
        if (!list) continue;
        const at = findDoc(list, doc);
        if (at < 0) continue;
        if (--list[at] % TF_SPAN > 0) continue;
        list.splice(at, 1);
        if (list.length) continue;
        this.postings[id * NF + f] = undefined;
        let used = false;
        for (let g = 0; g < NF; g++) if (this.postings[id * NF + g]) used = true;
        if (!used) { this.termIds.delete(term); this.freeTermIds.push(id); }
      }
    }
    this.sym[doc] = undefined;
    this.path[doc] = undefined;
    this.count--;
  }

  /**
   * A one-term search: each document's score summed over the fields in order, as MiniSearch does;
   * documents in the order they are first met (MiniSearch's result order).
   */
  termScores(term: string): TermScores {
    const id = this.termIds.get(term);
    if (id === undefined) return { docs: new Int32Array(0), scores: new Float64Array(0) };
    const cap = this.sym.length;
    if (!this.scratch || this.scratch.seen.length < cap) this.scratch = { score: new Float64Array(cap), seen: new Uint8Array(cap) };
    const { score, seen } = this.scratch;
    const order: number[] = [];
    for (let f = 0; f < NF; f++) {
      const list = this.postings[id * NF + f];
      if (!list) continue;
      const df = list.length, avg = this.total[f] / this.count;
      const idf = Math.log(1 + (this.count - df + 0.5) / (df + 0.5));
      for (let i = 0; i < list.length; i++) {
        const d = Math.floor(list[i] / TF_SPAN), tf = list[i] - d * TF_SPAN;
        const raw = idf * (D + (tf * (K + 1)) / (tf + K * (1 - B + (B * this.fieldLength[d * NF + f]) / avg)));
        const w = FIELD_BOOST[f] * raw;
        if (seen[d]) score[d] += w;
        else { seen[d] = 1; score[d] = w; order.push(d); }
      }
    }
    const docs = Int32Array.from(order), scores = new Float64Array(order.length);
    for (let i = 0; i < order.length; i++) { const d = order[i]; scores[i] = score[d]; seen[d] = 0; }
    return { docs, scores };
  }

  /** Gives back the spare room a build by pushes left in every posting list (most terms are rare). */
  trim(): void {
    for (let i = 0; i < this.postings.length; i++) { const list = this.postings[i]; if (list) this.postings[i] = list.slice(); }
  }

  /**
   * Renumbers the live documents densely, in their order, once removed ones outnumber them:
   * returns old id -> new id (-1: removed), or undefined when nothing was done.
   */
  compact(floor = 1000): Int32Array | undefined {
    const dead = this.sym.length - this.count;
    if (dead <= Math.max(floor, this.count)) return undefined;
    const map = new Int32Array(this.sym.length).fill(-1);
    let next = 0;
    for (let d = 0; d < this.sym.length; d++) {
      if (this.sym[d] === undefined) continue;
      map[d] = next;
      this.sym[next] = this.sym[d];
      this.path[next] = this.path[d];
      for (let f = 0; f < NF; f++) this.fieldLength[next * NF + f] = this.fieldLength[d * NF + f];
      next++;
    }
    this.sym.length = next;
    this.path.length = next;
    this.fieldLength.length = next * NF;
    for (const list of this.postings) {
      if (!list) continue;
      for (let i = 0; i < list.length; i++) { const d = Math.floor(list[i] / TF_SPAN); list[i] = map[d] * TF_SPAN + (list[i] - d * TF_SPAN); }
    }
    this.scratch = undefined;
    return map;
  }
}

/** Where `doc`'s posting is in a list, or -1. */
function findDoc(list: number[], doc: number): number {
  const key = doc * TF_SPAN;
  let lo = 0, hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid] < key) lo = mid + 1; else hi = mid;
  }
  return lo < list.length && list[lo] < key + TF_SPAN ? lo : -1;
}
