// The derived state: facts per file, the symbol table, resolved edges and their reverse.
// Ground state (file texts) lives with the caller; this class is told what each file now
// holds and keeps every edge into and out of it right.
// Invariant: after any sequence of updates the index equals a fresh build of the same files.

import type { FileFacts, RefFact, Span, SymbolFact } from '../java/facts';
import { memberLookupKey, resolveFile, type Edge, type FileResolution } from '../java/resolve';
import { isTypeKind, SymbolTable } from '../java/symbols';
import { holdsSorted } from '../deps/sorted';
import { BoundedMemo } from '../text/boundedMemo';
import { EdgeList } from '../java/edgeList';

export interface IndexedFile {
  path: string;
  /** The workspace folder the file belongs to. */
  root: string;
  hash: string;
  facts: FileFacts;
  resolution?: FileResolution;
}

export interface SymbolRef { file: IndexedFile; index: number; sym: SymbolFact }

/** A file read from a dependency jar (read-only): which dependency, and whether it is internal. */
export interface LibraryMark { dependency: string; internal: boolean; fromSources: boolean }

export interface IndexStats { files: number; symbols: number; edges: number; unresolved: number; external: number; resolvedShare: number }

/** Whether span a lies inside span b. */
function within(a: Span, b: Span): boolean {
  return (a.sl > b.sl || (a.sl === b.sl && a.sc >= b.sc)) && (a.el < b.el || (a.el === b.el && a.ec <= b.ec));
}

/** The change log's least length: a burst of edits, each re-resolving its consulters, stays in it. */
const CHANGE_LOG_FLOOR = 4096;

/**
 * A resolution's edges grouped by the symbol they leave, as indexes into its edge list in source
 * order: built on the first edgesFrom into the file and kept with the resolution object (replaced,
 * never edited, when the file changes). The gate reads the edges of every member of a class, and
 * filtering the whole file's edges per member was quadratic in the size of large classes. Kept for
 * the files recent requests read edges from.
 */
const edgesBySourceMemo = BoundedMemo.weak<FileResolution, Map<string, number[]>>(1024);
function edgesBySource(r: FileResolution): Map<string, number[]> {
  return edgesBySourceMemo.get(r, () => {
    const m = new Map<string, number[]>();
    const edges = r.edges;
    for (let i = 0; i < edges.length; i++) {
      const from = edges.from(i);
      const list = m.get(from);
      if (list) list.push(i); else m.set(from, [i]);
    }
    return m;
  });
}

export class WorkspaceIndex {
  readonly table = new SymbolTable();
  private files = new Map<string, IndexedFile>();
  private symbolsById = new Map<string, { path: string; index: number }>();
  /** Symbol id -> other files declaring the same id (multi-root copies), for takeover on removal. */
  private duplicates = new Map<string, Set<string>>();
  /**
   * Target symbol id -> files holding edges into it. Only queries of callers need it, so it is
   * built on the first such query (a warm start restores ~400k edges on java.base) and kept
   * current from then on. A target most files never touch: one file is held as its path, a
   * Set only from the second on (a Set per target was most of the map on the whole JDK).
   */
  private incomingMap: Map<string, string | Set<string>> | undefined;
  /**
   * Simple type name -> files whose resolution consulted it; built at its first use (a shape
   * change, or prepareConsultedBy in idle time), not while a warm start restores every file: on
   * the whole JDK that was a fifth of the restore.
   */
  private consultedByMap: Map<string, Set<string>> | undefined;
  /** Bumped on every change; snapshots and caches compare it. */
  version = 0;
  /**
   * The paths whose file, facts or resolution was replaced, in the order it happened, from
   * sequence number `changeLogStart` on: tables kept in step with the index ask which files
   * changed since they last looked (changedSince) instead of comparing every file (on the whole
   * JDK, 15k files per table at every edit, and a sort of them for some). Bounded: a table that
   * lags further than the log reaches compares every file, as before.
   */
  private changeLog: string[] = [];
  private changeLogStart = 0;
  /** Files resolved so far (benchmarks read it to count the files an update re-resolved). */
  resolutions = 0;
  /**
   * Re-extracts a file's reference sites when they were released (I/O lives with the caller).
   * Returns undefined when the text no longer matches the indexed hash: an update is on its way.
   */
  refsLoader?: (path: string, hash: string) => RefFact[] | undefined;
  /** Release reference sites after resolving, to keep memory proportional to declarations. */
  releaseRefs = false;
  /** Files read from dependency jars, by path (the rest is workspace code). */
  private libraries = new Map<string, LibraryMark>();
  /** Per workspace folder, per jar: every top-level type it holds, read or not (internal names, `a/b/C`, sorted). */
  private jarTypes = new Map<string, string[][]>();

  // ---- writes ----

  /** Adds or replaces a file without resolving anything (cold indexing adds all, then resolveAll). */
  put(path: string, root: string, hash: string, facts: FileFacts): void {
    this.dropFile(path);
    const f: IndexedFile = { path, root, hash, facts };
    this.files.set(path, f);
    this.noteChange(path);
    this.table.addFile(path, facts);
    // With duplicate ids (multi-root copies), the smallest path owns the id, whatever the order of updates.
    facts.symbols.forEach((s, index) => {
      const owner = this.symbolsById.get(s.id);
      if (owner && owner.path !== path) addTo(this.duplicates, s.id, owner.path < path ? path : owner.path);
      if (!owner || owner.path > path) this.symbolsById.set(s.id, { path, index });
    });
    this.version++;
  }

  /** Marks an indexed file as read from a dependency jar. */
  markLibrary(path: string, mark: LibraryMark): void {
    if (this.files.has(path)) this.libraries.set(path, mark);
  }

  setJarTypes(root: string, names: string[][] | undefined): void {
    if (names) this.jarTypes.set(root, names);
    else this.jarTypes.delete(root);
  }

  /**
   * Whether a qualified name (`a.b.Type` or `a.b.Type.Inner`) is a type of a dependency jar: only
   * the types the workspace reaches are read, so a real jar type may be missing from the table.
   */
  isJarType(qualified: string): boolean {
    for (let n = qualified; n.includes('.'); n = n.slice(0, n.lastIndexOf('.'))) {
      const internal = n.replaceAll('.', '/');
      for (const jars of this.jarTypes.values()) if (jars.some((names) => holdsSorted(names, internal))) return true;
    }
    return false;
  }

  libraryOf(path: string): LibraryMark | undefined {
    return this.libraries.get(path);
  }

  /**
   * Whether a symbol lives in a public dependency (Maven Central's commons-lang3, Guava): it
   * resolves, but models know it, so it stays out of the dependency surface.
   */
  isPublicLibrary(id: string): boolean {
    const at = this.symbolsById.get(id);
    const mark = at && this.libraries.get(at.path);
    return !!mark && !mark.internal;
  }

  /** Restores a file exactly as a saved snapshot had it, resolution included (warm start). */
  putResolved(path: string, root: string, hash: string, facts: FileFacts, resolution: FileResolution): void {
    this.put(path, root, hash, facts);
    const f = this.files.get(path)!;
    f.resolution = resolution;
    this.noteResolution(path, resolution);
    this.noteChange(path);
  }

  resolveAll(): void {
    for (const path of [...this.files.keys()].sort()) this.resolve(path);
  }

  /**
   * A file's new content, fully reconciled: the file is re-resolved, and so is every file whose
   * resolution consulted a type that appeared, vanished or changed its header (supertypes, type
   * parameters, kind, modifiers), or consulted a type and looked up a name among its changed members.
   * Returns the number of files re-resolved.
   */
  update(path: string, root: string, hash: string, facts: FileFacts): number {
    const old = this.files.get(path);
    const before = shapesOf(old?.facts);
    const pkgsBefore = this.table.packages.size;
    this.put(path, root, hash, facts);
    const changes = shapeChanges(before, shapesOf(facts));
    // Another file's imports decide what the type names in its member signatures mean.
    if (old && !sameImports(old.facts, facts)) for (const name of before.keys()) changes.whole.add(name);
    return this.reresolve(path, changes, pkgsBefore !== this.table.packages.size || old?.facts.package !== facts.package);
  }

  remove(path: string): number {
    const old = this.files.get(path);
    if (!old) return 0;
    const pkgsBefore = this.table.packages.size;
    this.dropFile(path);
    this.version++;
    return this.reresolve(undefined, shapeChanges(shapesOf(old.facts), new Map()), pkgsBefore !== this.table.packages.size);
  }

  /** Removes a file without re-resolving anyone (the caller resolves everything afterwards). */
  drop(path: string): void {
    this.dropFile(path);
    this.version++;
  }

  removeFolder(root: string): void {
    for (const f of [...this.files.values()]) if (f.root === root) this.dropFile(f.path);
    this.version++;
    this.resolveAll();
  }

  private reresolve(path: string | undefined, changes: ShapeChanges, everything: boolean): number {
    const todo = new Set<string>();
    if (path) todo.add(path);
    if (everything) for (const p of this.files.keys()) todo.add(p);
    const consultedBy = this.consultedBy();
    for (const name of changes.whole) for (const p of consultedBy.get(name) ?? []) todo.add(p);
    // A member change reaches only the consulters that looked a changed member name up in a type of that name.
    for (const [name, members] of changes.members) {
      const keys = [...members].map((m) => memberLookupKey(name, m));
      for (const p of consultedBy.get(name) ?? []) {
        if (todo.has(p)) continue;
        const looked = this.files.get(p)?.resolution?.memberLookups;
        if (!looked || keys.some((k) => holds(looked, k))) todo.add(p);
      }
    }
    for (const p of [...todo].sort()) if (this.files.has(p)) this.resolve(p);
    return todo.size;
  }

  private resolve(path: string): void {
    const f = this.files.get(path);
    if (!f) return;
    this.forgetResolution(f);
    // Mutated in place: the facts object's identity is what caches elsewhere key on.
    if (f.facts.refsReleased) {
      const refs = this.refsLoader?.(path, f.hash);
      if (refs) { f.facts.refs = refs; f.facts.refsReleased = false; }
    }
    const r = resolveFile(path, f.facts, this.table);
    this.resolutions++;
    if (this.releaseRefs) { f.facts.refs = []; f.facts.refsReleased = true; }
    f.resolution = r;
    this.noteResolution(path, r);
    this.noteChange(path);
  }

  /** Records a file's resolution in the reverse maps. */
  private noteResolution(path: string, r: FileResolution): void {
    if (this.incomingMap) for (const to of r.edges.targets()) addOneOrMore(this.incomingMap, to, path);
    if (this.consultedByMap) for (const n of r.consulted) addTo(this.consultedByMap, n, path);
  }

  /** Builds the consulters map now rather than at the first shape change (idle time after a start). */
  prepareConsultedBy(): void {
    this.consultedBy();
  }

  private consultedBy(): Map<string, Set<string>> {
    if (this.consultedByMap) return this.consultedByMap;
    const map = new Map<string, Set<string>>();
    for (const f of this.files.values()) for (const n of f.resolution?.consulted ?? []) addTo(map, n, f.path);
    return (this.consultedByMap = map);
  }

  /** Builds the callers map now rather than at the first query of callers (retrieval's prepare stage). */
  prepareIncoming(): void {
    this.incoming();
  }

  private incoming(): Map<string, string | Set<string>> {
    if (this.incomingMap) return this.incomingMap;
    const map = new Map<string, string | Set<string>>();
    for (const f of this.files.values()) for (const to of f.resolution?.edges.targets() ?? []) addOneOrMore(map, to, f.path);
    return (this.incomingMap = map);
  }

  private forgetResolution(f: IndexedFile): void {
    if (!f.resolution) return;
    if (this.incomingMap) for (const to of f.resolution.edges.targets()) deleteOneOrMore(this.incomingMap, to, f.path);
    if (this.consultedByMap) for (const n of f.resolution.consulted) this.consultedByMap.get(n)?.delete(f.path);
    f.resolution = undefined;
  }

  private dropFile(path: string): void {
    const f = this.files.get(path);
    if (!f) return;
    this.forgetResolution(f);
    this.files.delete(path);
    this.noteChange(path);
    this.libraries.delete(path);
    this.table.removeFile(path);
    for (const s of f.facts.symbols) {
      const dups = this.duplicates.get(s.id);
      dups?.delete(path);
      if (this.symbolsById.get(s.id)?.path !== path) continue;
      this.symbolsById.delete(s.id);
      // A duplicate declaration elsewhere (multi-root, copy-paste) takes over the id: the smallest path.
      const next = dups && [...dups].sort()[0];
      if (!next) continue;
      dups.delete(next);
      if (!dups.size) this.duplicates.delete(s.id);
      const i = this.files.get(next)?.facts.symbols.findIndex((x) => x.id === s.id) ?? -1;
      if (i >= 0) this.symbolsById.set(s.id, { path: next, index: i });
    }
  }

  private noteChange(path: string): void {
    this.changeLog.push(path);
    // Twice the files (a cold index puts and resolves each once), and never less than a burst of edits.
    const limit = Math.max(CHANGE_LOG_FLOOR, 2 * this.files.size);
    if (this.changeLog.length <= limit) return;
    const drop = this.changeLog.length - (limit >> 1);
    this.changeLog.splice(0, drop);
    this.changeLogStart += drop;
  }

  // ---- reads ----

  /** The sequence number of the next change (what a table keeps to ask changedSince later). */
  get changeSeq(): number {
    return this.changeLogStart + this.changeLog.length;
  }

  /**
   * The paths whose file, facts or resolution changed since `changeSeq` was `seq` (each once,
   * sorted; a path may since have gone from the index), or undefined when the log no longer
   * reaches that far back (then every file must be compared).
   */
  changedSince(seq: number): string[] | undefined {
    if (seq < this.changeLogStart || seq > this.changeSeq) return undefined;
    return [...new Set(this.changeLog.slice(seq - this.changeLogStart))].sort();
  }

  file(path: string): IndexedFile | undefined {
    return this.files.get(path);
  }

  allFiles(): IndexedFile[] {
    return [...this.files.values()];
  }

  /** Whether a declaration id is declared in more than one file (multi-root copies, a file moved between folders). */
  declaredInSeveralFiles(id: string): boolean {
    return this.duplicates.has(id);
  }

  symbol(id: string): SymbolRef | undefined {
    const at = this.symbolsById.get(id);
    if (!at) return undefined;
    const file = this.files.get(at.path);
    if (!file) return undefined;
    return { file, index: at.index, sym: file.facts.symbols[at.index] };
  }

  /** Edges out of a symbol (its own references), in source order (a new array: callers may keep or change it). */
  edgesFrom(id: string): Edge[] {
    const at = this.symbolsById.get(id);
    const r = at && this.files.get(at.path)?.resolution;
    if (!r) return [];
    return edgesBySource(r).get(id)?.map((i) => r.edges.at(i)) ?? [];
  }

  /**
   * Edges out of a member and out of the anonymous and local classes declared inside it, their
   * members included: what a method's body references, `new Diff() { getLeft() { … } }` too (for a
   * type, its own edges).
   * Edges between those nested symbols stay inside the body and are left out. In source order.
   */
  edgesWithin(id: string): Edge[] {
    const at = this.symbolsById.get(id);
    const file = at && this.files.get(at.path);
    const r = file?.resolution;
    if (!at || !file || !r) return [];
    const symbols = file.facts.symbols;
    const own = symbols[at.index];
    // A type's own edges only: the classes inside its members' bodies belong to those members.
    if (isTypeKind(own.kind)) return this.edgesFrom(id);
    // Symbols declared inside the body: anonymous classes are the member's children, but a local
    // class's parent is the enclosing type, so the test is the span. They are added after the member.
    const nested = new Set<string>();
    for (let i = at.index + 1; i < symbols.length; i++) {
      const s = symbols[i];
      if (s.local ? within(s.span, own.span) : nested.has(symbols[s.parent]?.id)) nested.add(s.id);
    }
    if (nested.size === 0) return this.edgesFrom(id);
    const bySource = edgesBySource(r);
    const out: Edge[] = [];
    for (const sourceId of [id, ...nested]) for (const i of bySource.get(sourceId) ?? []) if (!nested.has(r.edges.to(i))) out.push(r.edges.at(i));
    return out.sort((a, b) => a.line - b.line || a.col - b.col);
  }

  /** Edges into a symbol (its callers and users), ordered by file then position. */
  edgesTo(id: string): (Edge & { path: string })[] {
    const out: (Edge & { path: string })[] = [];
    const files = this.incoming().get(id);
    for (const p of typeof files === 'string' ? [files] : [...(files ?? [])].sort()) {
      const edges = this.files.get(p)?.resolution?.edges ?? EdgeList.EMPTY;
      for (let i = 0; i < edges.length; i++) if (edges.to(i) === id) out.push({ ...edges.at(i), path: p });
    }
    return out;
  }

  /** The innermost member or type whose span contains a position. */
  enclosingSymbol(path: string, line: number, character: number): SymbolRef | undefined {
    const f = this.files.get(path);
    if (!f) return undefined;
    let best: number | undefined;
    f.facts.symbols.forEach((s, i) => {
      const sp = s.span;
      const inside = (line > sp.sl || (line === sp.sl && character >= sp.sc)) && (line < sp.el || (line === sp.el && character <= sp.ec));
      if (!inside) return;
      if (best === undefined) { best = i; return; }
      const b = f.facts.symbols[best].span;
      if (sp.sl > b.sl || (sp.sl === b.sl && sp.sc >= b.sc)) best = i;
    });
    return best === undefined ? undefined : { file: f, index: best, sym: f.facts.symbols[best] };
  }

  stats(): IndexStats {
    let symbols = 0, edges = 0, unresolved = 0, external = 0;
    for (const f of this.files.values()) {
      symbols += f.facts.symbols.length;
      edges += f.resolution?.edges.length ?? 0;
      unresolved += f.resolution?.unresolved.length ?? 0;
      external += f.resolution?.external ?? 0;
    }
    const refs = edges + unresolved + external;
    return { files: this.files.size, symbols, edges, unresolved, external, resolvedShare: refs ? (edges + external) / refs : 1 };
  }

  /** A canonical, order-independent dump of the derived state; equal dumps mean equal indexes. */
  canonical(): string {
    const out: string[] = [];
    for (const p of [...this.files.keys()].sort()) {
      const f = this.files.get(p)!;
      out.push(`F ${p} ${f.hash}`);
      for (const s of f.facts.symbols) out.push(`S ${s.id} ${s.kind} ${s.nameSpan.sl}:${s.nameSpan.sc}${this.symbolsById.get(s.id)?.path === p ? ' owner' : ''}`);
      for (const e of f.resolution?.edges ?? []) out.push(`E ${e.from} ${e.kind} ${e.to} ${e.line}:${e.col}`);
      for (const u of f.resolution?.unresolved ?? []) out.push(`U ${u.from} ${u.kind} ${u.name} ${u.line}:${u.col}`);
    }
    return out.join('\n');
  }
}

/** Adds `value` to a key's values, held as the value itself while it is the only one. */
function addOneOrMore(map: Map<string, string | Set<string>>, key: string, value: string): void {
  const v = map.get(key);
  if (v === undefined) map.set(key, value);
  else if (typeof v === 'string') { if (v !== value) map.set(key, new Set([v, value])); }
  else v.add(value);
}

/** Takes `value` from a key's values (addOneOrMore's form: the last one left is held as itself, none as no key). */
function deleteOneOrMore(map: Map<string, string | Set<string>>, key: string, value: string): void {
  const v = map.get(key);
  if (v === value) map.delete(key);
  else if (typeof v !== 'string' && v?.delete(value) && v.size === 1) map.set(key, v.values().next().value as string);
}

function addTo(map: Map<string, Set<string>>, key: string, value: string): void {
  let s = map.get(key);
  if (!s) map.set(key, (s = new Set()));
  s.add(value);
}

/**
 * What resolution of other files can see of the types of one simple name: a header (package, id,
 * kind, supertypes, type parameters, modifiers) and each member by name. Private members, private
 * nested types and anonymous classes are invisible from other files (resolve.ts enforces it), so
 * edits to them never re-resolve anyone else. Local classes count: a type name in the file's member
 * signatures, which other files' resolution reads, may mean one of them.
 */
interface Shape { header: string; members: Map<string, string> }

function shapesOf(facts: FileFacts | undefined): Map<string, Shape> {
  const shapes = new Map<string, Shape>();
  if (!facts) return shapes;
  const hidden = (s: SymbolFact) => s.modifiers.includes('private') || !!s.anonymous;
  const typeParams = (s: SymbolFact) => (s.typeParams ?? []).map((t) => `${t.name}:${t.bounds.join('&')}`).join(',');
  facts.symbols.forEach((s, i) => {
    if (!isTypeKind(s.kind) || hidden(s)) return;
    let shape = shapes.get(s.name);
    if (!shape) shapes.set(s.name, (shape = { header: '', members: new Map() }));
    shape.header += ['\n#', facts.package, s.id, s.kind, s.superclass ?? '', (s.interfaces ?? []).join(','), typeParams(s), s.modifiers.join(' ')].join('\n');
    for (const m of facts.symbols) {
      if (m.parent !== i || hidden(m)) continue;
      // Keyed as resolution looks members up (resolve.ts memberNames): constructors under '<init>'.
      const key = m.kind === 'constructor' ? '<init>' : m.name;
      const text = [m.kind, m.id, m.modifiers.join(' '), m.type ?? '', m.returnType ?? '', (m.params ?? []).map((p) => p.type).join(','),
        m.varargs ? 'v' : '', typeParams(m)].join('|');
      shape.members.set(key, (shape.members.get(key) ?? '') + '\n' + text);
    }
  });
  return shapes;
}

/**
 * Which type names changed shape between two versions of a file. `whole`: a type appeared, vanished
 * or changed its header, so every file that consulted the name may resolve differently. `members`:
 * only these members of the name's types changed, so only files that looked up one of those member
 * names in a type of that name can resolve differently.
 */
interface ShapeChanges { whole: Set<string>; members: Map<string, Set<string>> }

function shapeChanges(before: Map<string, Shape>, after: Map<string, Shape>): ShapeChanges {
  const whole = new Set<string>();
  const members = new Map<string, Set<string>>();
  for (const [name, b] of before) {
    const a = after.get(name);
    if (!a || a.header !== b.header) { whole.add(name); continue; }
    const changed = new Set<string>();
    for (const [m, text] of b.members) if (a.members.get(m) !== text) changed.add(m);
    for (const m of a.members.keys()) if (!b.members.has(m)) changed.add(m);
    if (changed.size) members.set(name, changed);
  }
  for (const name of after.keys()) if (!before.has(name)) whole.add(name);
  return { whole, members };
}

/** Whether a sorted array holds a value. */
function holds(sorted: Int32Array, value: number): boolean {
  let lo = 0, hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return sorted[lo] === value;
}

function sameImports(a: FileFacts, b: FileFacts): boolean {
  const key = (f: FileFacts) => f.imports.map((i) => `${i.name}|${i.static}|${i.wildcard}`).join('\n');
  return key(a) === key(b);
}
