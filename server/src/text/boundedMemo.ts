// A memo of a pure function for values asked again and again across requests (token counts,
// novelty, name parts, URIs, per-file tables keyed by a file's facts). Bounded by
// generations: keys go into the newer of two maps; when it holds half of `size` it becomes the
// older one and the oldest is dropped, so at most `size` is held and a key still in use
// survives (a hit in the older map moves it to the newer). No eviction order to maintain, and
// no moment when everything is forgotten at once (a memo cleared when full held anything from
// nothing to all of it: the server's memory after the same requests depended on when it last
// cleared).
//
// Weighed (`BoundedMemo.weighed`), `size` bounds the values' total weight rather than their
// number: file texts by their characters.
//
// Keyed by objects (`BoundedMemo.weak`), a memo holds its values only while the key lives too:
// the per-file tables keyed by a file's facts were WeakMaps, which kept a table for every file
// whose facts were ever consulted for as long as the file was indexed (on the whole JDK, every
// file after a cold resolution; more after every request that touched another file).
//
// Keyed by strings cut from larger ones (`BoundedMemo.ofSlices`), a memo stores a copy of each
// key: V8 makes a slice a view that keeps the whole text alive. The token counts of rendered
// lines, keyed by slices of whole rendered groups, held 78 MB after 1,000 requests on the JDK.

type Store<K, V> = { get(key: K): V | undefined; set(key: K, value: V): unknown };

export class BoundedMemo<K, V> {
  private newer: Store<K, V>;
  private older: Store<K, V>;
  /** The weight of what `newer` holds. */
  private held = 0;
  /** What a generation holds. */
  private readonly half: number;

  /**
   * `keep`: the key as stored, when the memo stores one (a miss, or a key of the older generation
   * moving to the newer). `weigh`: a value's share of `size` (1 each by default).
   */
  constructor(size: number, private readonly generation: () => Store<K, V> = () => new Map<K, V>(), private readonly keep: (key: K) => K = (key) => key, private readonly weigh: (value: V) => number = () => 1) {
    this.half = Math.max(1, Math.floor(size / 2));
    this.newer = generation();
    this.older = generation();
  }

  /** A memo keyed by objects, holding nothing alive that only it references. */
  static weak<K extends object, V>(size: number): BoundedMemo<K, V> {
    return new BoundedMemo<K, V>(size, () => new WeakMap<K, V>());
  }

  /** A memo keyed by strings that may be slices of larger ones: each key is stored as a copy of its own. */
  static ofSlices<V>(size: number): BoundedMemo<string, V> {
    return new BoundedMemo<string, V>(size, undefined, (key) => Buffer.from(key, 'utf16le').toString('utf16le'));
  }

  /** A memo whose values' total weight is bounded by `size`; a value heavier than a generation is not kept. */
  static weighed<K, V>(size: number, weigh: (value: V) => number): BoundedMemo<K, V> {
    return new BoundedMemo<K, V>(size, undefined, undefined, weigh);
  }

  /** Forgets everything, as a new memo of the same size (bench:memory measures what a memo held this way). */
  clear(): void {
    this.newer = this.generation();
    this.older = this.generation();
    this.held = 0;
  }

  /** The remembered value of `key`, if any (nothing computed). */
  peek(key: K): V | undefined {
    const recent = this.newer.get(key);
    if (recent !== undefined) return recent;
    const old = this.older.get(key);
    if (old !== undefined) this.set(key, old);
    return old;
  }

  /** Remembers `value` for `key` (replacing what was remembered). */
  set(key: K, value: V): void {
    const weight = this.weigh(value);
    if (weight > this.half) return;
    const replaced = this.newer.get(key);
    if (replaced === undefined) {
      if (this.held + weight > this.half) {
        this.older = this.newer;
        this.newer = this.generation();
        this.held = 0;
      }
      this.held += weight;
      key = this.keep(key);
    } else this.held += weight - this.weigh(replaced);
    this.newer.set(key, value);
  }

  /** The remembered value of `key`, computed by `compute` on a miss. */
  get(key: K, compute: (key: K) => V): V {
    const known = this.peek(key);
    if (known !== undefined) return known;
    const value = compute(key);
    this.set(key, value);
    return value;
  }
}
