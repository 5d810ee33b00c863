// The inverted index behind description matching (descriptions.ts): BM25+ over four weighted
// fields with MiniSearch 7's formula and constants (k 1.2, b 0.7, d 0.5; a field's length is its
// number of distinct tokens; idf from the documents holding the term in that field), which it
// replaced for its size: the whole JDK has ~500k descriptions, and MiniSearch's radix tree of
// per-field Maps held 85 MB for java.base's 120k. Here a term is an id, a (term, field) posting
// list a range of one pool of numbers (doc and tf in one), and field lengths one Int32Array: the
// form a warm start loads as it was saved (`saved`, `fromSaved`).
//
// Unlike MiniSearch, a field's average length is its exact total over the live documents divided
// by their count, not a running mean in the order documents come and go: every statistic is then
// a function of the live documents alone, so a table after any history of adds and removals
// scores each document bit for bit as a fresh build of the same documents does (within 1e-12 of
// MiniSearch's, which test/retrieval/descriptionTable checks). That is what lets the caller keep
// term scores across an edit (see `stats` and `takeChangedTerms`).

import { CorruptCache } from '../../index/cacheCodec';
import { SlotTable } from '../../text/slotTable';

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
  /** Terms by id (term id * NF + field is a slot of the postings below); ids are reused once a term is gone. */
  private terms = new SlotTable();
  /**
   * Postings by slot (termId * NF + field): doc * TF_SPAN + tf, docs ascending (ids only grow).
   * A finished table holds them all in one pool (slot -> its range [at[slot], at[slot + 1])),
   * which a warm start reads back as it was saved; a list edited or made since is in `lists`
   * (null: emptied), which `trim` packs into the pool again. One Float64Array for every list,
   * rather than a JS array per (term, field), most of which hold one posting.
   */
  private pool = new Float64Array(0);
  private at = new Int32Array(1);
  private lists: (number[] | null | undefined)[] = [];
  /** doc * NF + field -> the field's distinct token count (`fieldLength` slots in use: capacity * NF). */
  private fieldLength = new Int32Array(1024);
  /** Per doc id: its declaration and file (undefined once removed). */
  readonly sym: (string | undefined)[] = [];
  readonly path: (string | undefined)[] = [];
  /** Per field: the sum of its length over the live documents (an integer, so exact). */
  private total = new Array<number>(NF).fill(0);
  private count = 0;
  /** Terms whose postings changed since the last takeChangedTerms (a term's scores moved with them). */
  private changed = new Set<string>();
  /** termScores' accumulator by document id, and which ids it has seen (reset after each use). */
  private scratch?: { score: Float64Array; seen: Uint8Array; order: Int32Array };

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
    if ((doc + 1) * NF > this.fieldLength.length) {
      const grown = new Int32Array(Math.max(2 * this.fieldLength.length, (doc + 1) * NF));
      grown.set(this.fieldLength);
      this.fieldLength = grown;
    }
    for (let f = 0; f < NF; f++) {
      const tokens = fieldTokens[f];
      const distinct = new Set(tokens).size;
      this.fieldLength[doc * NF + f] = distinct;
      this.total[f] += distinct;
      for (const t of tokens) {
        const term = t.toLowerCase();
        if (!term) continue;
        this.changed.add(term);
        const id = this.terms.slotOf(term) ?? this.terms.add(term);
        const list = this.editable(id * NF + f);
        if (!list.length || Math.floor(list[list.length - 1] / TF_SPAN) !== doc) list.push(doc * TF_SPAN + 1);
        else if (list[list.length - 1] % TF_SPAN < TF_SPAN - 1) list[list.length - 1]++;
      }
    }
    return doc;
  }

  /** A slot's postings, or undefined when it has none (a view of the pool while the list was not edited). */
  private list(slot: number): ArrayLike<number> | undefined {
    const l = this.lists[slot];
    if (l !== undefined) return l === null || !l.length ? undefined : l;
    if (slot + 1 >= this.at.length || this.at[slot] === this.at[slot + 1]) return undefined;
    return this.pool.subarray(this.at[slot], this.at[slot + 1]);
  }

  /** A slot's postings as a plain array to edit (packed into the pool again by `trim`). */
  private editable(slot: number): number[] {
    let l = this.lists[slot];
    if (l) return l;
    const packed = l === undefined ? this.list(slot) : undefined;
    l = packed ? Array.from(packed) : [];
    this.lists[slot] = l;
    return l;
  }

  /** Whether a term id holds a posting in any field. */
  private used(id: number): boolean {
    for (let g = 0; g < NF; g++) if (this.list(id * NF + g)) return true;
    return false;
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
        const id = this.terms.slotOf(term);
        if (id === undefined || !this.list(id * NF + f)) continue;
        const list = this.editable(id * NF + f);
        const at = findDoc(list, doc);
        if (at < 0) continue;
        if (--list[at] % TF_SPAN > 0) continue;
        list.splice(at, 1);
        if (list.length) continue;
        this.lists[id * NF + f] = null;
        if (!this.used(id)) this.terms.delete(id);
      }
    }
    this.forget(doc);
  }

  private forget(doc: number): void {
    this.sym[doc] = undefined;
    this.path[doc] = undefined;
    this.count--;
  }

  /**
   * Removes documents without their fields (a warm start's documents of files that changed while
   * stopped, whose old facts are gone): one pass over every posting list, dropping theirs. Ends
   * as `remove` of each would.
   */
  removeDocuments(docs: Iterable<number>): void {
    const dead = new Uint8Array(this.sym.length);
    let any = false;
    for (const d of docs) {
      if (dead[d] || this.sym[d] === undefined && this.path[d] === undefined) continue;
      dead[d] = 1;
      any = true;
      for (let f = 0; f < NF; f++) this.total[f] -= this.fieldLength[d * NF + f];
      this.forget(d);
    }
    if (!any) return;
    const slots = Math.max(this.lists.length, this.at.length - 1);
    for (let slot = 0; slot < slots; slot++) {
      const list = this.list(slot);
      if (!list) continue;
      let hit = false;
      for (let i = 0; i < list.length && !hit; i++) hit = dead[Math.floor(list[i] / TF_SPAN)] === 1;
      if (!hit) continue;
      const kept = Array.prototype.filter.call(list, (p: number) => dead[Math.floor(p / TF_SPAN)] !== 1) as number[];
      this.lists[slot] = kept.length ? kept : null;
      const id = Math.floor(slot / NF);
      this.changed.add(this.terms.stringAt(id)!);
      if (!kept.length && !this.used(id)) this.terms.delete(id);
    }
  }

  /**
   * A one-term search: each document's score summed over the fields in order, as MiniSearch does;
   * documents in the order they are first met (MiniSearch's result order).
   */
  termScores(term: string): TermScores {
    const id = this.terms.slotOf(term);
    if (id === undefined) return { docs: new Int32Array(0), scores: new Float64Array(0) };
    const cap = this.sym.length;
    if (!this.scratch || this.scratch.seen.length < cap) this.scratch = { score: new Float64Array(cap), seen: new Uint8Array(cap), order: new Int32Array(cap) };
    const { score, seen, order } = this.scratch;
    let n = 0; // documents in `order`, as first seen
    for (let f = 0; f < NF; f++) {
      const list = this.list(id * NF + f);
      if (!list) continue;
      const df = list.length, avg = this.total[f] / this.count;
      const idf = Math.log(1 + (this.count - df + 0.5) / (df + 0.5));
      for (let i = 0; i < list.length; i++) {
        const d = Math.floor(list[i] / TF_SPAN), tf = list[i] - d * TF_SPAN;
        const raw = idf * (D + (tf * (K + 1)) / (tf + K * (1 - B + (B * this.fieldLength[d * NF + f]) / avg)));
        const w = FIELD_BOOST[f] * raw;
        if (seen[d]) score[d] += w;
        else { seen[d] = 1; score[d] = w; order[n++] = d; }
      }
    }
    const docs = order.slice(0, n), scores = new Float64Array(n);
    for (let i = 0; i < n; i++) { const d = docs[i]; scores[i] = score[d]; seen[d] = 0; }
    return { docs, scores };
  }

  /** Packs every posting list into one pool (a first build grew lists by pushes; edits copy lists out of it). */
  trim(): void {
    if (!this.lists.length) return; // packed as it is
    const slots = Math.max(this.lists.length, this.at.length - 1);
    let n = 0;
    for (let slot = 0; slot < slots; slot++) n += this.list(slot)?.length ?? 0;
    const pool = new Float64Array(n), at = new Int32Array(slots + 1);
    n = 0;
    for (let slot = 0; slot < slots; slot++) {
      at[slot] = n;
      const list = this.list(slot);
      if (list) { pool.set(list, n); n += list.length; }
    }
    at[slots] = n;
    this.pool = pool;
    this.at = at;
    this.lists = [];
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
    const renumber = (list: { length: number; [i: number]: number }) => {
      for (let i = 0; i < list.length; i++) { const d = Math.floor(list[i] / TF_SPAN); list[i] = map[d] * TF_SPAN + (list[i] - d * TF_SPAN); }
    };
    // Pooled lists of slots edited since are stale copies (`lists` wins): renumbered all the same.
    renumber(this.pool);
    for (const list of this.lists) if (list) renumber(list);
    this.scratch = undefined;
    return map;
  }

  /**
   * The table in its finished form (descriptions.ts SAVED_DESCRIPTION_TABLE), packed first: terms
   * by id, the pool split into documents and frequencies, slot ranges and field lengths. The
   * documents' declarations and files are the caller's to save (a document's file, its facts).
   */
  saved(): SavedTable {
    this.trim();
    const terms = this.terms.length;
    const docs = new Int32Array(this.pool.length), tfs = new Int32Array(this.pool.length);
    for (let i = 0; i < this.pool.length; i++) { const d = Math.floor(this.pool[i] / TF_SPAN); docs[i] = d; tfs[i] = this.pool[i] - d * TF_SPAN; }
    // Slots past the last term's (a term id freed at the end) hold nothing: written as none.
    const at = this.at.length - 1 > terms * NF ? this.at.subarray(0, terms * NF + 1) : this.at;
    const full = new Int32Array(terms * NF + 1);
    full.set(at);
    full.fill(at[at.length - 1], at.length);
    return { terms: this.terms, at: full, docs, tfs, fieldLength: this.fieldLength.subarray(0, this.sym.length * NF) };
  }

  /**
   * A table from its finished form, whose live documents are those `paths` names (doc id -> its
   * file; their declarations are set by `name` once the caller knows them). It scores every
   * document as the table that was saved. Throws on anything inconsistent (a range outside the
   * pool, documents out of order or not live, a frequency out of range, a term twice or without
   * postings, a free id in use).
   */
  static fromSaved(s: SavedTable, paths: readonly (string | undefined)[], tokenize: (text: string) => string[]): DescriptionTable {
    const bad = (what: string): never => { throw new CorruptCache(`saved description index malformed: ${what}`); };
    const t = new DescriptionTable(tokenize);
    const terms = s.terms.length, slots = terms * NF, capacity = paths.length;
    if (s.at.length !== slots + 1 || s.at[0] !== 0 || s.at[slots] !== s.docs.length || s.tfs.length !== s.docs.length) bad('ranges');
    if (s.fieldLength.length !== capacity * NF) bad('field lengths');
    const pool = new Float64Array(s.docs.length);
    for (let slot = 0; slot < slots; slot++) {
      const from = s.at[slot], to = s.at[slot + 1];
      if (to < from) bad('ranges');
      for (let i = from; i < to; i++) {
        const d = s.docs[i], tf = s.tfs[i];
        if (!(d >= 0 && d < capacity) || paths[d] === undefined || (i > from && s.docs[i - 1] >= d)) bad('a posting\'s document');
        if (!(tf >= 1 && tf < TF_SPAN)) bad('a frequency');
        pool[i] = d * TF_SPAN + tf;
      }
    }
    t.pool = pool;
    t.at = Int32Array.from(s.at);
    // The term table checked itself (no term twice, free ids free); here: postings exactly for held terms.
    const held = s.terms.heldSlots();
    for (let id = 0; id < terms; id++) {
      let has = false;
      for (let f = 0; f < NF; f++) if (s.at[id * NF + f] < s.at[id * NF + f + 1]) has = true;
      if (has !== (held[id] === 1)) bad(has ? 'a free term id in use' : 'a term without postings');
    }
    t.terms = s.terms;
    t.fieldLength = Int32Array.from(s.fieldLength);
    for (let d = 0; d < capacity; d++) {
      t.sym.push(undefined);
      t.path.push(paths[d]);
      if (paths[d] === undefined) continue;
      t.count++;
      for (let f = 0; f < NF; f++) {
        const n = t.fieldLength[d * NF + f];
        if (n < 0) bad('a field length');
        t.total[f] += n;
      }
    }
    return t;
  }

  /** Sets a loaded document's declaration (fromSaved leaves them to the caller, who has the facts). */
  name(doc: number, sym: string): void {
    this.sym[doc] = sym;
  }
}

/** A DescriptionTable's finished form (`saved`, `fromSaved`). */
export interface SavedTable {
  /** Terms by id. */
  terms: SlotTable;
  /** Slot (term id * NF + field) -> where its postings start in `docs`/`tfs`, plus the end. */
  at: Int32Array;
  docs: Int32Array;
  tfs: Int32Array;
  /** doc * NF + field -> the field's distinct token count. */
  fieldLength: Int32Array;
}

/** Where `doc`'s posting is in a list, or -1. */
function findDoc(list: ArrayLike<number>, doc: number): number {
  const key = doc * TF_SPAN;
  let lo = 0, hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid] < key) lo = mid + 1; else hi = mid;
  }
  return lo < list.length && list[lo] < key + TF_SPAN ? lo : -1;
}
