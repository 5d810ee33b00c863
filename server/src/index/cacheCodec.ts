// The compact encoding of cached files: one string table and one Int32Array hold every file's
// declarations and edges. v8 serialization of ~80k symbol objects (spans, lists, optional
// fields) cost ~0.5 s to read back on java.base; strings plus integers are a memcpy and a
// tight decoding loop. Decoding checks every length and string index and throws on anything
// inconsistent, so a damaged cache is rebuilt, never half-trusted.
// Reference sites are never stored: the index re-extracts them from the text when needed.
// The same Writer/Reader and facts encoding (with reference sites) carry parse results from the
// worker threads to the main thread (transferCodec.ts).

import type { Expr, FileFacts, ImportFact, Param, RefFact, RefKind, SymbolFact, SymbolKind, TypeParam } from '../java/facts';
import type { FileResolution, Unresolved } from '../java/resolve';
import { EdgeList } from '../java/edgeList';
import type { FileStamp } from './files';

/**
 * A file's facts, its resolution (edges) when the snapshot was consistent, and its disk stamp if
 * known. A dependency's type (deps/library.ts) also keeps its folder in the jar cache and its mark,
 * so a warm start restores it with the workspace instead of re-resolving what refers to it.
 */
export interface CachedFile { hash: string; facts: FileFacts; resolution?: FileResolution; stamp?: FileStamp; library?: CachedLibrary }
export interface CachedLibrary { root: string; dependency: string; internal: boolean; fromSources: boolean }

export interface EncodedFiles {
  /** The string table, concatenated (one string deserializes as one copy; 150k would not). */
  text: string;
  /** Where each string of the table starts in `text`, plus its end. */
  offsets: Int32Array;
  ints: Int32Array;
  /** Stamps (size, mtime) of the files that have one, in file order. */
  floats: Float64Array;
  /** Checksums of `ints` and `offsets`, which decoding verifies. */
  check: number;
  stringsCheck: number;
  /** Read back under a digest of every byte (persist.ts readFramed): the checksums need no second pass. */
  digested?: boolean;
}

const SYMBOL_KINDS = new Set<string>(['class', 'interface', 'enum', 'record', 'annotation', 'method', 'constructor', 'field', 'enumConstant']);
const REF_KINDS = new Set<string>(['call', 'new', 'field', 'name', 'type', 'ctorCall', 'methodRef']);

export class CorruptCache extends Error {}

export function checksum(ints: Int32Array): number {
  let h = ints.length | 0;
  for (let i = 0; i < ints.length; i++) h = (Math.imul(h, 31) + ints[i]) | 0;
  return h;
}

export class Writer {
  private strings: string[] = [];
  private stringIds = new Map<string, number>();
  private ints = new Int32Array(1 << 16);
  private n = 0;
  floats: number[] = [];

  int(v: number): void {
    if (this.n === this.ints.length) {
      const grown = new Int32Array(this.ints.length * 2);
      grown.set(this.ints);
      this.ints = grown;
    }
    this.ints[this.n++] = v;
  }
  bool(v: boolean): void { this.int(v ? 1 : 0); }
  optBool(v: boolean | undefined): void { this.int(v === undefined ? -1 : v ? 1 : 0); }
  str(s: string): void {
    let id = this.stringIds.get(s);
    if (id === undefined) { id = this.strings.length; this.strings.push(s); this.stringIds.set(s, id); }
    this.int(id);
  }
  optStr(s: string | undefined): void { if (s === undefined) this.int(-1); else this.str(s); }
  list<T>(items: readonly T[], each: (item: T) => void): void { this.int(items.length); for (const x of items) each(x); }
  optList<T>(items: readonly T[] | undefined, each: (item: T) => void): void { if (items === undefined) this.int(-1); else this.list(items, each); }
  strs(items: readonly string[]): void { this.list(items, (s) => this.str(s)); }
  /** A whole array of 32-bit integers, its length first (a finished structure's pool: one copy, no per-number call). */
  int32s(a: Int32Array): void {
    this.int(a.length);
    if (this.n + a.length > this.ints.length) {
      const grown = new Int32Array(Math.max(this.ints.length * 2, this.n + a.length));
      grown.set(this.ints.subarray(0, this.n));
      this.ints = grown;
    }
    this.ints.set(a, this.n);
    this.n += a.length;
  }
  /** An optional value whose encoding never starts with -1 (a string, a list, a non-negative int). */
  opt<T>(v: T | undefined, each: (v: T) => void): void { if (v === undefined) this.int(-1); else each(v); }

  finish(): EncodedFiles {
    const ints = this.ints.subarray(0, this.n);
    const offsets = new Int32Array(this.strings.length + 1);
    let at = 0;
    this.strings.forEach((s, i) => { offsets[i] = at; at += s.length; });
    offsets[this.strings.length] = at;
    return { text: this.strings.join(''), offsets, ints, floats: Float64Array.from(this.floats), check: checksum(ints), stringsCheck: checksum(offsets) };
  }
}

export class Reader {
  private pos = 0;
  private floatPos = 0;
  private strings: string[];
  constructor(private e: EncodedFiles) {
    const { text, offsets } = e;
    const n = offsets.length - 1;
    if (n < 0 || offsets[0] !== 0 || offsets[n] !== text.length) throw new CorruptCache('cache string table malformed');
    this.strings = new Array<string>(n);
    for (let i = 0; i < n; i++) {
      if (offsets[i + 1] < offsets[i]) throw new CorruptCache('cache string table malformed');
      this.strings[i] = text.slice(offsets[i], offsets[i + 1]);
    }
  }

  get done(): boolean { return this.pos === this.e.ints.length; }
  int(): number {
    if (this.pos >= this.e.ints.length) throw new CorruptCache('cache data ends early');
    return this.e.ints[this.pos++];
  }
  bool(): boolean { return this.int() !== 0; }
  optBool(): boolean | undefined { const v = this.int(); return v < 0 ? undefined : v !== 0; }
  str(): string {
    const i = this.int();
    if (i < 0 || i >= this.strings.length) throw new CorruptCache('cache string index out of range');
    return this.strings[i];
  }
  optStr(): string | undefined { return this.e.ints[this.pos] === -1 ? (this.pos++, undefined) : this.str(); }
  count(): number {
    const n = this.int();
    if (n < 0 || n > this.e.ints.length - this.pos) throw new CorruptCache('cache list length out of range');
    return n;
  }
  list<T>(each: () => T): T[] { const n = this.count(); const out = new Array<T>(n); for (let i = 0; i < n; i++) out[i] = each(); return out; }
  optList<T>(each: () => T): T[] | undefined { return this.e.ints[this.pos] === -1 ? (this.pos++, undefined) : this.list(each); }
  strs(): string[] { return this.list(() => this.str()); }
  /** What int32s wrote: a view of the read sections, not a copy (it keeps them alive while held). */
  int32s(): Int32Array {
    const n = this.count();
    const out = this.e.ints.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
  opt<T>(each: () => T): T | undefined { return this.e.ints[this.pos] === -1 ? (this.pos++, undefined) : each(); }
  float(): number {
    if (this.floatPos >= this.e.floats.length) throw new CorruptCache('cache stamps end early');
    return this.e.floats[this.floatPos++];
  }
  oneOf<K extends string>(allowed: Set<string>): K {
    const s = this.str();
    if (!allowed.has(s)) throw new CorruptCache(`cache holds an unknown kind ${JSON.stringify(s).slice(0, 40)}`);
    return s as K;
  }
}

export function encodeFiles(files: [string, CachedFile][]): EncodedFiles {
  const w = new Writer();
  w.list(files, ([path, f]) => {
    w.str(path);
    w.str(f.hash);
    w.bool(!!f.stamp);
    if (f.stamp) w.floats.push(f.stamp.size, f.stamp.mtimeMs);
    w.bool(!!f.library);
    if (f.library) { w.str(f.library.root); w.str(f.library.dependency); w.bool(f.library.internal); w.bool(f.library.fromSources); }
    encodeFacts(w, f.facts);
    if (!f.resolution) { w.int(-1); return; }
    const r = f.resolution;
    w.int(r.external);
    w.strs(r.consulted);
    w.list([...r.memberLookups], (k) => w.int(k));
    w.list(r.unresolved, (u) => { w.str(u.from); w.str(u.name); w.str(u.kind); w.int(u.line); w.int(u.col); });
    // As the list holds them: its ids, then its numbers in one block (edgeList.ts).
    const edges = r.edges.packed();
    w.strs(edges.ids);
    w.int32s(edges.data);
  });
  return w.finish();
}

/** A reader over sections read back from disk, once their types and checksums hold (else CorruptCache). */
export function verifiedReader(e: EncodedFiles): Reader {
  if (typeof e.text !== 'string' || !(e.offsets instanceof Int32Array) || !(e.ints instanceof Int32Array) || !(e.floats instanceof Float64Array)) {
    throw new CorruptCache('cache sections missing');
  }
  if (!e.digested && (checksum(e.ints) !== e.check || checksum(e.offsets) !== e.stringsCheck)) throw new CorruptCache('cache checksum mismatch');
  return new Reader(e);
}

export function decodeFiles(e: EncodedFiles): Map<string, CachedFile> {
  const r = verifiedReader(e);
  const files = new Map<string, CachedFile>();
  const n = r.count();
  for (let i = 0; i < n; i++) {
    const path = r.str();
    const hash = r.str();
    const stamp = r.bool() ? { size: r.float(), mtimeMs: r.float() } : undefined;
    const library = r.bool() ? { root: r.str(), dependency: r.str(), internal: r.bool(), fromSources: r.bool() } : undefined;
    const facts = decodeFacts(r);
    let resolution: FileResolution | undefined;
    const external = r.int(); // -1: saved without resolution
    if (external < -1) throw new CorruptCache('cache resolution malformed');
    if (external >= 0) {
      const consulted = r.strs();
      const memberLookups = Int32Array.from(r.list(() => r.int()));
      const unresolved = r.list((): Unresolved => ({ from: r.str(), name: r.str(), kind: r.str(), line: r.int(), col: r.int() }));
      // A copy: a view would keep the whole cache's numbers alive.
      const edges = EdgeList.fromPacked(r.strs(), r.int32s().slice());
      if (!edges) throw new CorruptCache('cache edges malformed');
      resolution = { edges, unresolved, external, consulted, memberLookups };
    }
    const entry: CachedFile = { hash, facts, resolution };
    if (stamp) entry.stamp = stamp;
    if (library) entry.library = library;
    files.set(path, entry);
  }
  if (!r.done) throw new CorruptCache('cache has trailing data');
  return files;
}

/** With `refs`, the reference sites too (for the worker transfer); else they are left out (the cache). */
export function encodeFacts(w: Writer, f: FileFacts, refs = false): void {
  w.str(f.package);
  w.int(f.lineCount);
  w.bool(f.hasErrors);
  w.list(f.imports, (im) => { w.str(im.name); w.bool(im.static); w.bool(im.wildcard); w.int(im.line); });
  w.list(f.symbols, (s) => {
    w.str(s.id); w.str(s.kind); w.str(s.name); w.int(s.parent);
    w.int(s.nameSpan.sl); w.int(s.nameSpan.sc); w.int(s.nameSpan.el); w.int(s.nameSpan.ec);
    w.int(s.span.sl); w.int(s.span.sc); w.int(s.span.el); w.int(s.span.ec);
    w.strs(s.modifiers);
    w.strs(s.annotations);
    w.optStr(s.javadoc);
    w.optList(s.typeParams, (t) => { w.str(t.name); w.strs(t.bounds); });
    w.optStr(s.superclass);
    w.optList(s.interfaces, (t) => w.str(t));
    w.optBool(s.anonymous);
    w.optBool(s.local);
    w.optList(s.params, (p) => { w.str(p.name); w.str(p.type); });
    w.optBool(s.varargs);
    w.optStr(s.returnType);
    w.optList(s.throws, (t) => w.str(t));
    w.optStr(s.type);
    w.optList(s.unreadLocals, (p) => { w.str(p.name); w.str(p.type); });
    w.optList(s.unreadParams, (i) => w.int(i));
  });
  if (refs) w.list(f.refs, (ref) => encodeRef(w, ref));
}

function encodeRef(w: Writer, ref: RefFact): void {
  w.str(ref.kind); w.str(ref.name); w.int(ref.line); w.int(ref.col); w.int(ref.from);
  w.opt(ref.expr, (e) => encodeExpr(w, e));
  w.optStr(ref.type);
  w.optList(ref.args, (e) => encodeExpr(w, e));
}

function encodeExpr(w: Writer, e: Expr): void {
  w.str(e.k);
  switch (e.k) {
    case 'name': w.str(e.name); w.int(e.line); w.int(e.col); break;
    // type null (`var`) is written as an absent string.
    case 'local': w.opt(e.type ?? undefined, (t) => w.str(t)); w.opt(e.init, (i) => encodeExpr(w, i)); w.opt(e.dims, (d) => w.int(d)); break;
    case 'qualThis': case 'lit': case 'cast': w.str(e.type); break;
    case 'field': encodeExpr(w, e.recv); w.str(e.name); break;
    case 'ternary': encodeExpr(w, e.a); encodeExpr(w, e.b); break;
    case 'call': w.opt(e.recv, (r) => encodeExpr(w, r)); w.str(e.name); w.list(e.args, (a) => encodeExpr(w, a)); break;
    case 'new': w.str(e.type); w.list(e.args, (a) => encodeExpr(w, a)); break;
    case 'index': encodeExpr(w, e.recv); break;
  }
}

export function decodeFacts(r: Reader, refs = false): FileFacts {
  const pkg = r.str();
  const lineCount = r.int();
  const hasErrors = r.bool();
  const imports = r.list((): ImportFact => ({ name: r.str(), static: r.bool(), wildcard: r.bool(), line: r.int() }));
  const n = r.count();
  const symbols: SymbolFact[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const id = r.str();
    const kind = r.oneOf<SymbolKind>(SYMBOL_KINDS);
    const name = r.str();
    const parent = r.int();
    if (parent < -1 || parent >= i) throw new CorruptCache('cache symbol parent out of range');
    const s: SymbolFact = {
      id, kind, name, parent,
      nameSpan: { sl: r.int(), sc: r.int(), el: r.int(), ec: r.int() },
      span: { sl: r.int(), sc: r.int(), el: r.int(), ec: r.int() },
      modifiers: r.strs(),
      annotations: r.strs(),
    };
    // Optional fields are set only when present, as extraction leaves them.
    const javadoc = r.optStr(); if (javadoc !== undefined) s.javadoc = javadoc;
    const typeParams = r.optList((): TypeParam => ({ name: r.str(), bounds: r.strs() })); if (typeParams) s.typeParams = typeParams;
    const superclass = r.optStr(); if (superclass !== undefined) s.superclass = superclass;
    const interfaces = r.optList(() => r.str()); if (interfaces) s.interfaces = interfaces;
    const anonymous = r.optBool(); if (anonymous !== undefined) s.anonymous = anonymous;
    const local = r.optBool(); if (local !== undefined) s.local = local;
    const params = r.optList((): Param => ({ name: r.str(), type: r.str() })); if (params) s.params = params;
    const varargs = r.optBool(); if (varargs !== undefined) s.varargs = varargs;
    const returnType = r.optStr(); if (returnType !== undefined) s.returnType = returnType;
    const throws = r.optList(() => r.str()); if (throws) s.throws = throws;
    const type = r.optStr(); if (type !== undefined) s.type = type;
    const unreadLocals = r.optList((): Param => ({ name: r.str(), type: r.str() })); if (unreadLocals) s.unreadLocals = unreadLocals;
    const unreadParams = r.optList(() => r.int()); if (unreadParams) s.unreadParams = unreadParams;
    symbols[i] = s;
  }
  if (refs) return { package: pkg, imports, symbols, refs: r.list(() => decodeRef(r)), hasErrors, lineCount };
  return { package: pkg, imports, symbols, refs: [], refsReleased: true, hasErrors, lineCount };
}

function decodeRef(r: Reader): RefFact {
  const ref: RefFact = { kind: r.oneOf<RefKind>(REF_KINDS), name: r.str(), line: r.int(), col: r.int(), from: r.int() };
  // Optional fields are set only when present, as extraction leaves them.
  const expr = r.opt(() => decodeExpr(r)); if (expr) ref.expr = expr;
  const type = r.optStr(); if (type !== undefined) ref.type = type;
  const args = r.optList(() => decodeExpr(r)); if (args) ref.args = args;
  return ref;
}

function decodeExpr(r: Reader): Expr {
  const k = r.str();
  switch (k) {
    case 'name': return { k, name: r.str(), line: r.int(), col: r.int() };
    case 'local': {
      const e: Expr = { k, type: r.optStr() ?? null };
      const init = r.opt(() => decodeExpr(r)); if (init) e.init = init;
      const dims = r.opt(() => r.int()); if (dims !== undefined) e.dims = dims;
      return e;
    }
    case 'qualThis': case 'lit': case 'cast': return { k, type: r.str() };
    case 'field': return { k, recv: decodeExpr(r), name: r.str() };
    case 'ternary': return { k, a: decodeExpr(r), b: decodeExpr(r) };
    case 'call': {
      const recv = r.opt(() => decodeExpr(r));
      const name = r.str();
      const args = r.list(() => decodeExpr(r));
      return recv ? { k, recv, name, args } : { k, name, args };
    }
    case 'new': return { k, type: r.str(), args: r.list(() => decodeExpr(r)) };
    case 'index': return { k, recv: decodeExpr(r) };
    case 'this': case 'super': case 'classLit': case 'unknown': return { k };
    default: throw new CorruptCache(`unknown expression kind ${JSON.stringify(k).slice(0, 40)}`);
  }
}
