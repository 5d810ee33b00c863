// One file's resolved reference edges, packed. The whole JDK resolves to 1.8 M edges; as one
// object each they took 145 MB of the index's 536 MB (80 bytes an edge). Here an edge is five
// 32-bit numbers, and its two symbol ids are indexes into the file's table of distinct ids (the
// same string instances the symbols hold): about 20 bytes an edge.

import type { Edge } from './resolve';

/** What an edge records a reference as; its position here is its number in a packed list. */
export const EDGE_KINDS = ['call', 'new', 'field', 'type', 'ctorCall', 'methodRef', 'extends', 'implements', 'imports'] as const;
export type EdgeKind = (typeof EDGE_KINDS)[number];
const KIND_INDEX = new Map<string, number>(EDGE_KINDS.map((k, i) => [k, i]));

/** Numbers per edge in `data`: from, to, kind, line, col. */
const STRIDE = 5;

/** Read-only and never edited: a file's new resolution is a new list (memos key on its identity). */
export class EdgeList implements Iterable<Edge> {
  static readonly EMPTY = new EdgeList([], new Int32Array(0));

  /** `ids`: the distinct symbol ids the edges name; `data`: STRIDE numbers per edge, ids as indexes into `ids` (EdgeListBuilder makes both). */
  constructor(private readonly ids: readonly string[], private readonly data: Int32Array) {}

  /** A list from what `packed` gave (the index cache), or undefined when the numbers do not describe one. */
  static fromPacked(ids: readonly string[], data: Int32Array): EdgeList | undefined {
    if (data.length % STRIDE !== 0) return undefined;
    for (let o = 0; o < data.length; o += STRIDE) {
      if (data[o] < 0 || data[o] >= ids.length || data[o + 1] < 0 || data[o + 1] >= ids.length) return undefined;
      if (data[o + 2] < 0 || data[o + 2] >= EDGE_KINDS.length) return undefined;
    }
    return data.length ? new EdgeList(ids, data) : EdgeList.EMPTY;
  }

  /** The list's own table and numbers, for the index cache to write as they are (read-only). */
  packed(): { ids: readonly string[]; data: Int32Array } {
    return { ids: this.ids, data: this.data };
  }

  get length(): number { return this.data.length / STRIDE; }
  from(i: number): string { return this.ids[this.data[i * STRIDE]]; }
  to(i: number): string { return this.ids[this.data[i * STRIDE + 1]]; }
  kind(i: number): EdgeKind { return EDGE_KINDS[this.data[i * STRIDE + 2]]; }
  line(i: number): number { return this.data[i * STRIDE + 3]; }
  col(i: number): number { return this.data[i * STRIDE + 4]; }

  /** How many distinct ids the edges name; `fromSlot` and `toSlot` number them 0 .. idCount − 1 (`idAt`). */
  get idCount(): number { return this.ids.length; }
  fromSlot(i: number): number { return this.data[i * STRIDE]; }
  toSlot(i: number): number { return this.data[i * STRIDE + 1]; }
  idAt(slot: number): string { return this.ids[slot]; }

  /** The distinct targets, in the order of their first edge. */
  targets(): string[] {
    const seen = new Uint8Array(this.ids.length);
    const out: string[] = [];
    for (let o = 1; o < this.data.length; o += STRIDE) {
      const t = this.data[o];
      if (!seen[t]) { seen[t] = 1; out.push(this.ids[t]); }
    }
    return out;
  }

  /** Edge i as a new object (callers may keep or change it). */
  at(i: number): Edge {
    const d = this.data, o = i * STRIDE;
    return { from: this.ids[d[o]], to: this.ids[d[o + 1]], kind: EDGE_KINDS[d[o + 2]], line: d[o + 3], col: d[o + 4] };
  }

  *[Symbol.iterator](): Iterator<Edge> {
    for (let i = 0; i < this.length; i++) yield this.at(i);
  }

  toArray(): Edge[] {
    return Array.from({ length: this.length }, (_, i) => this.at(i));
  }

  /** As JSON, the edges as objects (what the resolution held before it was packed). */
  toJSON(): Edge[] {
    return this.toArray();
  }
}

export class EdgeListBuilder {
  private ids: string[] = [];
  private idIndex = new Map<string, number>();
  private data = new Int32Array(STRIDE * 16);
  private n = 0;

  push(from: string, to: string, kind: EdgeKind, line: number, col: number): void {
    const k = KIND_INDEX.get(kind);
    if (k === undefined) throw new Error(`unknown edge kind ${kind}`);
    if (this.n + STRIDE > this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    const d = this.data;
    d[this.n] = this.idOf(from);
    d[this.n + 1] = this.idOf(to);
    d[this.n + 2] = k;
    d[this.n + 3] = line;
    d[this.n + 4] = col;
    this.n += STRIDE;
  }

  build(): EdgeList {
    if (this.n === 0) return EdgeList.EMPTY;
    // A copy of the used part: the spare capacity would stay alive with the list.
    return new EdgeList(this.ids, this.data.slice(0, this.n));
  }

  private idOf(id: string): number {
    let i = this.idIndex.get(id);
    if (i === undefined) { i = this.ids.length; this.ids.push(id); this.idIndex.set(id, i); }
    return i;
  }
}
