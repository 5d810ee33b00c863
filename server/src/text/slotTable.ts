// Strings numbered by slot, and the slot of a string: the term dictionaries of retrieval's
// prepared structures (word -> files, the BM25 corpora, the description table). Slots index the
// structures' typed arrays; a freed slot is given to the next new string.
//
// Why not a Map and an array: a warm start of the whole JDK loads about a million such strings
// from the saved structures, and a string object plus a hash-table entry each cost more to make,
// hash and collect than all the lookups requests make (this table took about 0.3 s off that
// start: word -> files and the similar-code corpus each loaded 0.13-0.14 s faster). So a table loaded
// from its saved form keeps the saved strings in one text, in slot order, with the saved slots
// sorted by their strings, and finds a string there by binary search. Strings given a slot later
// live in a Map beside it; a saved string that is deleted is marked gone.

import { CorruptCache, type Reader, type Writer } from '../index/cacheCodec';

export class SlotTable {
  /** The saved strings: slot s (below `saved`) holds text[starts[s], starts[s + 1]) unless gone. */
  private text = '';
  private starts: Int32Array = new Int32Array(1);
  private saved = 0;
  /** The saved slots holding a string when saved, sorted by it (code-unit order, as `<` compares strings); free saved slots are marked gone. */
  private order: Int32Array = new Int32Array(0);
  /** Saved slots whose string was deleted since (the slot may hold a newer string, in `laterString`). */
  private gone = new Uint8Array(0);
  /** Strings given a slot since the table was loaded (or made), both ways. */
  private laterSlot = new Map<string, number>();
  private laterString = new Map<number, string>();
  private freed: number[] = [];
  private slots = 0;
  private held = 0;

  /** Slots given so far, free ones included: every slot is below it. */
  get length(): number { return this.slots; }

  /** Strings held. */
  get size(): number { return this.held; }

  /** The slot holding `s`, if any. */
  slotOf(s: string): number | undefined {
    const later = this.laterSlot.get(s);
    if (later !== undefined) return later;
    let lo = 0, hi = this.order.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const c = this.compare(s, this.order[mid]);
      if (c === 0) { const slot = this.order[mid]; return this.gone[slot] ? undefined : slot; }
      if (c > 0) lo = mid + 1; else hi = mid;
    }
    return undefined;
  }

  /** Whether a slot holds a string. */
  holds(slot: number): boolean {
    return this.laterString.has(slot) || (slot < this.saved && !this.gone[slot]);
  }

  /** Per slot, 1 when it holds a string: for checks over many slots (a saved structure's pools). */
  heldSlots(): Uint8Array {
    const mask = new Uint8Array(this.slots);
    for (let slot = 0; slot < this.saved; slot++) mask[slot] = this.gone[slot] ^ 1;
    for (const slot of this.laterString.keys()) mask[slot] = 1;
    return mask;
  }

  /** The string a slot holds (undefined for a free slot). */
  stringAt(slot: number): string | undefined {
    const later = this.laterString.get(slot);
    if (later !== undefined) return later;
    return this.holds(slot) ? this.text.slice(this.starts[slot], this.starts[slot + 1]) : undefined;
  }

  /**
   * Gives `s`, which the table must not hold, a slot: the last one freed, else a new one. The
   * table keeps a copy, so a string cut out of a file's text does not keep that text alive.
   */
  add(s: string): number {
    const slot = this.freed.pop() ?? this.slots++;
    // V8 cuts a substring of 13 or more code units as a view of its parent; shorter ones are copies.
    const own = s.length > 12 ? Buffer.from(s, 'utf16le').toString('utf16le') : s;
    this.laterSlot.set(own, slot);
    this.laterString.set(slot, own);
    this.held++;
    return slot;
  }

  /** Frees a slot's string (nothing when it holds none). */
  delete(slot: number): void {
    const later = this.laterString.get(slot);
    if (later !== undefined) {
      this.laterString.delete(slot);
      this.laterSlot.delete(later);
    } else if (this.holds(slot)) this.gone[slot] = 1;
    else return;
    this.freed.push(slot);
    this.held--;
  }

  /**
   * The saved form: every slot's string in one text (a free slot's is empty), where each starts,
   * the slots holding a string sorted by it, and the free slots in the order they are given again.
   */
  write(w: Writer): void {
    const strings: string[] = new Array(this.slots);
    for (let slot = 0; slot < this.slots; slot++) strings[slot] = this.stringAt(slot) ?? '';
    const starts = new Int32Array(this.slots + 1);
    for (let slot = 0, at = 0; slot < this.slots; slot++) { at += strings[slot].length; starts[slot + 1] = at; }
    // The saved order less the gone, merged with the later strings sorted: no full sort after a load.
    const savedLive: number[] = [];
    for (const slot of this.order) if (!this.gone[slot]) savedLive.push(slot);
    const later = [...this.laterSlot.keys()].sort();
    const order = new Int32Array(savedLive.length + later.length);
    let i = 0, j = 0, n = 0;
    while (i < savedLive.length || j < later.length) {
      if (j === later.length || (i < savedLive.length && strings[savedLive[i]] < later[j])) order[n++] = savedLive[i++];
      else order[n++] = this.laterSlot.get(later[j++])!;
    }
    w.str(strings.join(''));
    w.int32s(starts);
    w.int32s(order);
    w.int32s(Int32Array.from(this.freed));
  }

  /** A table from its saved form; throws CorruptCache on anything inconsistent. */
  static read(r: Reader): SlotTable {
    const bad = (what: string): never => { throw new CorruptCache(`saved strings malformed: ${what}`); };
    const t = new SlotTable();
    // A slice of the saved file's string table, kept as it is: the structure's other strings
    // (paths, symbols) are slices of the same table and keep it alive anyway.
    t.text = r.str();
    t.starts = r.int32s();
    t.order = r.int32s();
    const freed = r.int32s();
    const slots = t.starts.length - 1;
    if (slots < 0 || t.starts[0] !== 0 || t.starts[slots] !== t.text.length) bad('offsets');
    for (let s = 0; s < slots; s++) if (t.starts[s + 1] < t.starts[s]) bad('offsets');
    // Every slot is either in the order or free, once.
    const seen = new Uint8Array(slots);
    for (const slot of t.order) { if (!(slot >= 0 && slot < slots) || seen[slot]) bad('a slot twice or out of range'); seen[slot] = 1; }
    for (const slot of freed) {
      if (!(slot >= 0 && slot < slots) || seen[slot]) bad('a free slot in use, twice or out of range');
      if (t.starts[slot + 1] !== t.starts[slot]) bad('a free slot with a string');
      seen[slot] = 1;
    }
    if (t.order.length + freed.length !== slots) bad('a slot neither held nor free');
    for (let k = 1; k < t.order.length; k++) if (t.compareSlots(t.order[k - 1], t.order[k]) >= 0) bad('strings out of order or twice');
    t.saved = t.slots = slots;
    t.held = t.order.length;
    t.freed = Array.from(freed);
    t.gone = new Uint8Array(slots);
    for (const slot of freed) t.gone[slot] = 1;
    return t;
  }

  /** `s` against saved slot `slot`'s string, in code units: negative, zero or positive. */
  private compare(s: string, slot: number): number {
    const from = this.starts[slot], n = this.starts[slot + 1] - from, m = Math.min(n, s.length);
    for (let i = 0; i < m; i++) {
      const d = s.charCodeAt(i) - this.text.charCodeAt(from + i);
      if (d) return d;
    }
    return s.length - n;
  }

  private compareSlots(a: number, b: number): number {
    const fa = this.starts[a], na = this.starts[a + 1] - fa, fb = this.starts[b], nb = this.starts[b + 1] - fb, m = Math.min(na, nb);
    for (let i = 0; i < m; i++) {
      const d = this.text.charCodeAt(fa + i) - this.text.charCodeAt(fb + i);
      if (d) return d;
    }
    return na - nb;
  }
}
