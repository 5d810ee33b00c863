// A memo of a pure function for values asked again and again across requests (token counts,
// novelty, name parts, URIs). Bounded by clearing when full: no eviction order to maintain, and
// a full clear is rare at these sizes.

export class BoundedMemo<K, V> {
  private readonly values = new Map<K, V>();

  constructor(private readonly size: number) {}

  /** The remembered value of `key`, if any (nothing computed). */
  peek(key: K): V | undefined {
    return this.values.get(key);
  }

  /** The remembered value of `key`, computed by `compute` on a miss. */
  get(key: K, compute: (key: K) => V): V {
    const known = this.values.get(key);
    if (known !== undefined) return known;
    const value = compute(key);
    if (this.values.size >= this.size) this.values.clear();
    this.values.set(key, value);
    return value;
  }
}
