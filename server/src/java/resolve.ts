// Resolution: a file's reference sites -> edges to the declarations they mean, read against the
// workspace symbol table. It models as much of Java's static typing as the source shows:
// scopes (already settled by extraction), imports, nesting, inheritance, type variables with
// simple generic substitution, overloads by arity and known argument types.
// What it cannot pin to an internal declaration is either known external (JDK or library
// types) or kept as an unresolved reference with its name.

import type { Expr, FileFacts, RefFact, SymbolFact } from './facts';
import { enclosingTypeIndex, isTypeKind, type SymbolTable, type TypeInfo } from './symbols';
import { erasedSimpleName } from './extract';
import jdkMemberTypes from '../../data/jdk-member-types.json';
import { BoundedMemo } from '../text/boundedMemo';
import { EdgeListBuilder, type EdgeKind, type EdgeList } from './edgeList';

export type { EdgeKind } from './edgeList';

export interface Edge {
  /** Symbol id of the referring member (or type). */
  from: string;
  /** Symbol id of the declaration. */
  to: string;
  kind: EdgeKind;
  line: number;
  col: number;
}

export interface Unresolved { from: string; name: string; kind: string; line: number; col: number }

export interface FileResolution {
  edges: EdgeList;
  unresolved: Unresolved[];
  /** Reference sites known to point outside the workspace (JDK, libraries). */
  external: number;
  /** Simple type names this file's resolution looked up; a change to any of them re-resolves it. */
  consulted: string[];
  /**
   * Which member names (methods, fields, member types; constructors as '<init>') this file's
   * resolution looked up in which types, as sorted memberLookupKey hashes. Resolution reads a type's
   * members only by name, so a change to other members cannot change this file's result
   * (workspaceIndex.ts relies on it; a hash collision only costs a needless re-resolution).
   */
  memberLookups: Int32Array;
}

/** A 32-bit FNV-1a hash of a (simple type name, member name) pair. */
export function memberLookupKey(typeName: string, member: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < typeName.length; i++) h = Math.imul(h ^ typeName.charCodeAt(i), 0x01000193);
  h = Math.imul(h ^ 0x23, 0x01000193); // '#' between the two names
  for (let i = 0; i < member.length; i++) h = Math.imul(h ^ member.charCodeAt(i), 0x01000193);
  return h | 0;
}

/** A resolved static type. */
type T =
  | { k: 'int'; t: TypeInfo; args?: T[]; dims: number }     // internal type
  | { k: 'ext'; name: string; args?: T[]; dims: number }    // external or primitive, by simple name
  | { k: 'var'; name: string; bounds: string[]; ctx: Ctx; dims: number };

type Named = { k: 'typeName'; type: T } | { k: 'value'; type: T | null } | { k: 'package'; name: string };
/** A name that may have resolved to a field declaration. */
type NamedField = Named & { field?: SymbolFact };

interface Ctx {
  facts: FileFacts;
  file: string;
  /** Symbol index whose scope we are in (member or type). */
  at: number;
  /** Generic substitution in force (type var name -> type). */
  subst?: Map<string, T>;
}

const PRIMITIVES = new Set(['int', 'long', 'short', 'byte', 'char', 'boolean', 'float', 'double', 'void']);
const BOXES: Record<string, string> = { int: 'Integer', long: 'Long', short: 'Short', byte: 'Byte', char: 'Character', boolean: 'Boolean', float: 'Float', double: 'Double' };
const WIDENING: Record<string, string[]> = {
  byte: ['short', 'int', 'long', 'float', 'double'], short: ['int', 'long', 'float', 'double'], char: ['int', 'long', 'float', 'double'],
  int: ['long', 'float', 'double'], long: ['float', 'double'], float: ['double'],
};
/** External types whose assignability we know for sure; anything else external is "unknown". */
const CLOSED = new Set([...PRIMITIVES, ...Object.values(BOXES), 'String']);
const STRING_SUPERS = new Set(['CharSequence', 'Object', 'Comparable', 'Serializable']);

/** Element types of common JDK generics, so `list.get(0).foo()` reaches `foo` on an internal type. */
const GENERIC_RESULTS: Record<string, number> = {
  get: -1, next: 0, previous: 0, getFirst: 0, getLast: 0, peek: 0, poll: 0, pop: 0, element: 0, remove: -1,
  orElse: 0, orElseGet: 0, orElseThrow: 0, join: 0, take: 0, first: 0, last: 0, getValue: 1, getKey: 0,
  put: 1, getOrDefault: 1, computeIfAbsent: 1, computeIfPresent: 1, compute: 1, merge: 1, putIfAbsent: 1,
  pollFirst: 0, pollLast: 0, peekFirst: 0, peekLast: 0, firstKey: 0, lastKey: 0, floor: 0, ceiling: 0, higher: 0, lower: 0,
  call: 0, apply: -1, getAcquire: 0, getPlain: 0, getAndSet: 0,
};
const GENERIC_CONTAINERS: Record<string, number> = { iterator: 0, listIterator: 0, stream: 0, keySet: 0, values: 1, descendingIterator: 0 };

export function resolveFile(file: string, facts: FileFacts, table: SymbolTable): FileResolution {
  return new Resolver(file, facts, table).run();
}

/**
 * What a written type name (simple, `Outer.Inner`, or qualified; no type arguments) means at a
 * symbol of a file (`at`: its index in the file's facts, -1 for the file's top level): the one set
 * of rules every stage reads type names by — local classes, enclosing types and the member types
 * they declare or inherit, single-type and static imports, the same package, on-demand imports,
 * java.lang; type variables in scope shadow types. 'external' is a type from outside the index
 * (an imported JDK or unread library type). The answerer keeps caches: use it for one index state.
 */
export type TypeNameResolver = (name: string, at: number) => TypeInfo | 'external' | undefined;

export function typeNameResolver(table: SymbolTable, file: string, facts: FileFacts): TypeNameResolver {
  const r = new Resolver(file, facts, table);
  return (name, at) => r.typeNameAt(name, at);
}

/** A qualified name (`com.acme.Foo.Inner`) as a type of the table, the longest package prefix first. */
export function qualifiedTypeIn(table: SymbolTable, qualified: string): TypeInfo | undefined {
  return new Resolver('', EMPTY_FACTS, table).qualifiedTypeOf(qualified);
}

const EMPTY_FACTS: FileFacts = { package: '', imports: [], symbols: [], refs: [], hasErrors: false, lineCount: 0 };

class Resolver {
  private edges = new EdgeListBuilder();
  private unresolved: Unresolved[] = [];
  private external = 0;
  private consulted = new Set<string>();
  private memberLookups = new Set<number>();
  private exprTypes = new Map<Expr, T | null>();
  private namedCache = new Map<number, Map<string, NamedField | null>>();
  /** Per file whose context is read, then by type scope and text. All caches live as long as one file's resolution, whose `consulted` already holds what they consulted. */
  private typeCache = new Map<FileFacts, Map<number, Map<string, T | null>>>();
  private simpleTypeCache = new Map<FileFacts, Map<number, Map<string, TypeInfo | 'external' | null>>>();
  private localClasses = new Map<FileFacts, SymbolFact[]>();
  /**
   * Memos of answers that depend only on the table (and, through visibility, on this file), so
   * recomputing them within one resolution gives the same answer and adds no consulted name or
   * member lookup that the first computation did not already add. Dropped when the table changes.
   * An answer computed while a supertype list was still being resolved (a cycle through supersOf)
   * may be partial, so it is not kept (`partialSeen`).
   */
  private memoEpoch = -1;
  private hierarchies = new Map<TypeInfo, HierarchyOrder>();
  private qualifiedTypes = new Map<string, TypeInfo | undefined>();
  private owners = new Map<SymbolFact, TypeInfo | undefined>();
  private externalSupersOf = new Map<TypeInfo, { supers: T[]; n: number; names: string[] }>();
  private opaqueWildcard = new Map<FileFacts, boolean>();
  /** Supertype lists being resolved right now, and how often one was read before it was complete. */
  private supersPending = new Set<string>();
  private partialSeen = 0;

  constructor(private file: string, private facts: FileFacts, private table: SymbolTable) {}

  private checkMemoEpoch(): void {
    if (this.memoEpoch === this.table.epoch) return;
    this.memoEpoch = this.table.epoch;
    this.hierarchies.clear();
    this.qualifiedTypes.clear();
    this.owners.clear();
    this.externalSupersOf.clear();
    this.opaqueWildcard.clear();
  }

  run(): FileResolution {
    const { facts } = this;
    for (const ref of facts.refs) this.resolveRef(ref);
    // Structural edges: supertypes and imports.
    facts.symbols.forEach((s, i) => {
      if (s.superclass) this.structural(s, i, s.superclass, s.kind === 'interface' ? 'extends' : s.anonymous ? 'extends' : 'extends');
      for (const it of s.interfaces ?? []) this.structural(s, i, it, s.kind === 'interface' ? 'extends' : 'implements');
    });
    for (const imp of facts.imports) {
      if (imp.wildcard) continue;
      const name = imp.static ? imp.name.slice(0, imp.name.lastIndexOf('.')) : imp.name;
      const t = this.qualifiedType(name);
      if (t) this.edges.push(this.fileId(), t.id, 'imports', imp.line, 0);
    }
    return { edges: this.edges.build(), unresolved: this.unresolved, external: this.external, consulted: [...this.consulted].sort(), memberLookups: Int32Array.from(this.memberLookups).sort() };
  }

  private fileId(): string {
    return `file:${this.file}`;
  }

  private structural(s: SymbolFact, i: number, text: string, kind: EdgeKind): void {
    const t = this.resolveTypeText(text, { facts: this.facts, file: this.file, at: s.parent >= 0 ? s.parent : i });
    if (t?.k === 'int') this.edges.push(s.id, t.t.id, kind, s.nameSpan.sl, s.nameSpan.sc);
  }

  // ---- reference sites ----

  private resolveRef(ref: RefFact): void {
    const from = this.facts.symbols[ref.from]?.id ?? this.fileId();
    const ctx: Ctx = { facts: this.facts, file: this.file, at: ref.from };
    const edge = (to: string, kind: EdgeKind) => this.edges.push(from, to, kind, ref.line, ref.col);
    const miss = () => this.unresolved.push({ from, name: ref.name, kind: ref.kind, line: ref.line, col: ref.col });
    switch (ref.kind) {
      case 'type': {
        const t = this.resolveTypeText(ref.type ?? ref.name, ctx);
        if (t?.k === 'int') edge(t.t.id, 'type');
        else if (t) this.external++;
        else if (/^[a-z]/.test(ref.name)) { /* a package segment of a qualified name */ }
        else miss();
        return;
      }
      case 'new': {
        const t = this.resolveTypeText(ref.type ?? ref.name, ctx);
        if (t?.k !== 'int') { if (t) this.external++; else miss(); return; }
        const ctor = this.pickMethod([t.t], '<init>', ref.args ?? [], ctx, false);
        edge(ctor ? ctor.id : t.t.id, 'new');
        return;
      }
      case 'ctorCall': {
        const self = this.enclosingType(ctx.at);
        if (!self) { miss(); return; }
        const target = ref.name === 'super' ? this.superOf(self) : { k: 'int' as const, t: self, dims: 0 };
        if (target?.k !== 'int') { if (target) this.external++; else miss(); return; }
        const ctor = this.pickMethod([target.t], '<init>', ref.args ?? [], ctx, false);
        edge(ctor ? ctor.id : target.t.id, 'ctorCall');
        return;
      }
      case 'call':
      case 'methodRef': {
        const e = ref.expr;
        if (!e || e.k !== 'call') { miss(); return; }
        const m = this.resolveCall(e, ctx, ref.kind === 'methodRef');
        if (m === 'external') this.external++;
        else if (m) edge(m.id, ref.kind);
        else miss();
        return;
      }
      case 'field':
      case 'name': {
        const e = ref.expr;
        if (!e) { miss(); return; }
        const r = e.k === 'name' ? this.resolveName(e.name, ctx) : e.k === 'field' ? this.resolveFieldAccess(e, ctx) : null;
        if (!r) { miss(); return; }
        if (r.k === 'package') return;
        if (r.k === 'typeName') {
          if (r.type.k === 'int') edge(r.type.t.id, 'type');
          else this.external++;
          return;
        }
        if (r.field) edge(r.field.id, 'field');
        else this.external++;
        return;
      }
    }
  }

  // ---- names ----

  /** A bare identifier that is not a local: a field, a type or a package (JLS 6.5.2 order). */
  private resolveName(name: string, ctx: Ctx): NamedField | null {
    const cache = byScope(this.namedCache, typeScopeOf(ctx.facts, ctx.at));
    const hit = cache.get(name);
    if (hit !== undefined) return hit;
    const r = this.computeName(name, ctx);
    cache.set(name, r);
    return r;
  }

  private computeName(name: string, ctx: Ctx): NamedField | null {
    // Fields of enclosing types, innermost first, each with its supertypes.
    for (let t = this.enclosingType(ctx.at); t; t = t.outer ? this.table.type(t.outer) : undefined) {
      const f = this.findField(t, name);
      if (f === 'external') return { k: 'value', type: null };
      if (f) return { k: 'value', type: this.memberType(f.info, f.sym, f.sym.type ?? '', undefined), field: f.sym };
    }
    // Static imports.
    for (const imp of this.facts.imports) {
      if (!imp.static) continue;
      const owner = imp.wildcard ? imp.name : imp.name.slice(0, imp.name.lastIndexOf('.'));
      if (!imp.wildcard && !imp.name.endsWith('.' + name)) continue;
      const t = this.qualifiedType(owner);
      if (!t) { if (!imp.wildcard) return { k: 'value', type: null }; continue; }
      const f = this.findField(t, name);
      if (f && f !== 'external') return { k: 'value', type: this.memberType(f.info, f.sym, f.sym.type ?? '', undefined), field: f.sym };
    }
    const type = this.resolveTypeText(name, ctx);
    if (type) return { k: 'typeName', type };
    if (this.table.isPackage(name) || /^[a-z]/.test(name)) return { k: 'package', name };
    return null;
  }

  private fieldCache = new Map<Expr, NamedField | null>();

  /** Memoised per expression: every link of a long chain `a.b.c…` is a reference site of its own. */
  private resolveFieldAccess(e: Extract<Expr, { k: 'field' }>, ctx: Ctx): NamedField | null {
    const hit = this.fieldCache.get(e);
    if (hit !== undefined) return hit;
    const r = this.computeFieldAccess(e, ctx);
    this.fieldCache.set(e, r);
    return r;
  }

  private computeFieldAccess(e: Extract<Expr, { k: 'field' }>, ctx: Ctx): NamedField | null {
    const recv = this.namedOrTyped(e.recv, ctx);
    if (!recv) return null;
    if (recv.k === 'package') {
      const q = `${recv.name}.${e.name}`;
      const t = this.qualifiedType(q);
      if (t) return { k: 'typeName', type: { k: 'int', t, dims: 0 } };
      return { k: 'package', name: q };
    }
    let rt = recv.type;
    if (!rt) return { k: 'value', type: null };
    if (rt.k === 'var') rt = this.boundOf(rt) ?? ext('Object');
    if (rt.k === 'int' && rt.dims === 0) {
      const f = this.findField(rt.t, e.name);
      if (f && f !== 'external') return { k: 'value', type: this.memberType(f.info, f.sym, f.sym.type ?? '', rt), field: f.sym };
      if (recv.k === 'typeName') {
        const nested = this.memberTypeNamed(rt.t, e.name);
        if (nested) return { k: 'typeName', type: { k: 'int', t: nested, dims: 0 } };
      }
      if (f === 'external') return { k: 'value', type: null };
      return null;
    }
    return { k: 'value', type: rt.dims > 0 && e.name === 'length' ? ext('int') : null };
  }

  /** Receiver of a `.`: a package, a type name, or a value with a type. */
  private namedOrTyped(e: Expr, ctx: Ctx): Named | null {
    if (e.k === 'name') return this.resolveName(e.name, ctx);
    if (e.k === 'field') return this.resolveFieldAccess(e, ctx);
    const t = this.typeOf(e, ctx);
    return { k: 'value', type: t };
  }

  // ---- expression types ----

  private typeOf(e: Expr, ctx: Ctx): T | null {
    if (this.exprTypes.has(e)) return this.exprTypes.get(e) ?? null;
    this.exprTypes.set(e, null); // cycles (a var initialised from itself) end here
    const t = this.computeType(e, ctx);
    this.exprTypes.set(e, t);
    return t;
  }

  private computeType(e: Expr, ctx: Ctx): T | null {
    switch (e.k) {
      case 'lit': return ext(e.type);
      case 'local': {
        if (e.type) return this.resolveTypeText(e.type, ctx);
        if (e.init) return this.typeOf(e.init, ctx);
        return null;
      }
      case 'this': {
        const t = this.enclosingType(ctx.at);
        return t ? { k: 'int', t, dims: 0 } : null;
      }
      case 'super': {
        const t = this.enclosingType(ctx.at);
        return t ? this.superOf(t) : null;
      }
      case 'qualThis': {
        const t = this.resolveTypeText(e.type, ctx);
        return t;
      }
      case 'name':
      case 'field': {
        const r = this.namedOrTyped(e, ctx);
        return r && r.k !== 'package' ? r.type : null;
      }
      case 'call': {
        const m = this.resolveCallTyped(e, ctx);
        return m;
      }
      case 'new':
      case 'cast': return this.resolveTypeText(e.type, ctx);
      case 'index': {
        const t = this.typeOf(e.recv, ctx);
        return t && t.dims > 0 ? { ...t, dims: t.dims - 1 } as T : null;
      }
      case 'ternary': return this.typeOf(e.a, ctx) ?? this.typeOf(e.b, ctx);
      case 'classLit': return ext('Class');
      default: return null;
    }
  }

  // ---- calls ----

  private lastCallType = new Map<Expr, T | null>();

  private resolveCallTyped(e: Extract<Expr, { k: 'call' }>, ctx: Ctx): T | null {
    if (this.lastCallType.has(e)) return this.lastCallType.get(e) ?? null;
    this.resolveCall(e, ctx, false);
    return this.lastCallType.get(e) ?? null;
  }

  private callCache = new Map<Expr, SymbolFact | 'external' | null>();

  /** The method a call means, and (as a side effect) the type it returns. */
  private resolveCall(e: Extract<Expr, { k: 'call' }>, ctx: Ctx, isRef: boolean): SymbolFact | 'external' | null {
    if (this.callCache.has(e)) return this.callCache.get(e) ?? null;
    this.callCache.set(e, null);
    const r = this.computeCall(e, ctx, isRef);
    this.callCache.set(e, r);
    return r;
  }

  private computeCall(e: Extract<Expr, { k: 'call' }>, ctx: Ctx, isRef: boolean): SymbolFact | 'external' | null {
    const setType = (t: T | null) => this.lastCallType.set(e, t);
    setType(null);
    let candidates: TypeInfo[] = [];
    let recvType: T | undefined;
    if (!e.recv) {
      // Innermost enclosing type that has a member of that name (JLS 15.12.1), then static imports.
      for (let t = this.enclosingType(ctx.at); t; t = t.outer ? this.table.type(t.outer) : undefined) {
        const found = this.hierarchyHas(t, e.name);
        if (found === 'external') return 'external';
        if (found) { candidates = [t]; recvType = { k: 'int', t, dims: 0 }; break; }
      }
      if (!candidates.length) {
        for (const imp of this.facts.imports) {
          if (!imp.static) continue;
          if (!imp.wildcard && !imp.name.endsWith('.' + e.name)) continue;
          const owner = imp.wildcard ? imp.name : imp.name.slice(0, imp.name.lastIndexOf('.'));
          const t = this.qualifiedType(owner);
          if (!t) { if (!imp.wildcard) return 'external'; continue; }
          if (this.hierarchyHas(t, e.name)) { candidates.push(t); recvType = { k: 'int', t, dims: 0 }; }
        }
        if (!candidates.length) {
          const hasExternalStaticImport = this.facts.imports.some((i) => i.static && i.wildcard && !this.qualifiedType(i.name));
          return hasExternalStaticImport ? 'external' : null;
        }
      }
    } else {
      const recv = this.namedOrTyped(e.recv, ctx);
      if (!recv) return null;
      if (recv.k === 'package') return null;
      let rt = recv.type;
      if (!rt) return 'external';
      if (rt.k === 'var') rt = this.boundOf(rt) ?? ext('Object');
      if (rt.k !== 'int' || rt.dims > 0) {
        // An external receiver: try the element types of well-known generic containers.
        if (rt.k === 'ext' && rt.args?.length && rt.dims === 0) setType(this.genericResult(rt, e.name));
        return 'external';
      }
      candidates = [rt.t];
      recvType = rt;
    }
    const m = this.pickMethod(candidates, e.name, e.args, ctx, isRef);
    if (!m) {
      // The hierarchy reaches outside the workspace: an inherited external method.
      if (candidates.some((c) => this.reachesExternal(c))) return 'external';
      return null;
    }
    const owner = this.ownerOf(m);
    if (owner && m.returnType) setType(this.memberType(owner, m, m.returnType, recvType));
    return m;
  }

  private genericResult(rt: Extract<T, { k: 'ext' }>, name: string): T | null {
    const args = rt.args ?? [];
    let i = GENERIC_RESULTS[name];
    if (i !== undefined) {
      if (i < 0) i = args.length - 1;
      return args[i] ?? null;
    }
    const c = GENERIC_CONTAINERS[name];
    if (c !== undefined && args[Math.min(c, args.length - 1)]) return { k: 'ext', name: 'Iterable', args: [args[Math.min(c, args.length - 1)]], dims: 0 };
    return null;
  }

  /** Chooses among the methods named `name` visible from `types` by arity and argument types. */
  private pickMethod(types: TypeInfo[], name: string, args: Expr[], ctx: Ctx, anyArity: boolean): SymbolFact | null {
    const found = types.length === 1 ? this.candidates(types[0], name) : this.collectCandidates(types, name);
    if (!found.length) return null;
    if (anyArity) return found[0].sym;
    const argTypes = args.map((a) => this.typeOf(a, ctx));
    let best: SymbolFact | null = null;
    let bestScore = -Infinity;
    for (const { sym, depth } of found) {
      const params = sym.params ?? [];
      const n = params.length;
      const fits = sym.varargs ? args.length >= n - 1 : args.length === n;
      if (!fits) continue;
      let score = -depth * 0.01;
      const fixed = sym.varargs ? n - 1 : n;
      for (let i = 0; i < fixed; i++) score += this.argFit(argTypes[i], params[i].type, sym);
      if (sym.varargs) {
        const el = params[n - 1].type.replace(/\[\]$/, '');
        if (args.length === n && argTypes[n - 1]?.dims) score += this.argFit(argTypes[n - 1], params[n - 1].type, sym);
        else for (let i = n - 1; i < args.length; i++) score += this.argFit(argTypes[i], el, sym);
        score -= 0.5; // fixed-arity methods win ties, as in JLS 15.12.2 phases
      }
      if (score > bestScore) { bestScore = score; best = sym; }
    }
    return best;
  }

  private candidateCache = new Map<TypeInfo, Map<string, Candidate[]>>();

  /** Candidates in one type, memoised per resolution: the common case of a call. */
  private candidates(t: TypeInfo, name: string): Candidate[] {
    let byName = this.candidateCache.get(t);
    if (!byName) this.candidateCache.set(t, (byName = new Map()));
    let found = byName.get(name);
    if (!found) byName.set(name, (found = this.collectCandidates([t], name)));
    return found;
  }

  /** Visible methods named `name` in the types and their supertypes (constructors: in the types only), nearest first. */
  private collectCandidates(types: TypeInfo[], name: string): Candidate[] {
    const found: Candidate[] = [];
    for (const t of types) {
      if (name === '<init>') {
        this.memberLookups.add(memberLookupKey(t.name, name));
        for (const i of t.members.get('<init>') ?? []) if (this.visible(t, t.facts.symbols[i])) found.push({ sym: t.facts.symbols[i], depth: 0 });
      } else {
        this.walkHierarchy(t, name, (info, depth) => {
          for (const i of info.members.get(name) ?? []) {
            const s = info.facts.symbols[i];
            if (s.kind === 'method' && this.visible(info, s)) found.push({ sym: s, depth });
          }
          // Record components answer `r.name()` with their accessor.
          if (!found.length) {
            for (const i of info.members.get(name) ?? []) {
              const s = info.facts.symbols[i];
              if (s.modifiers.includes('record-component')) found.push({ sym: s, depth });
            }
          }
          return false;
        });
      }
    }
    return found;
  }

  /** How well an argument of type `a` fits a parameter written `p`: 2 exact, 1 compatible, 0 unknown, -5 incompatible. */
  private argFit(a: T | null, p: string, method: SymbolFact): number {
    if (!a) return 0;
    const { base: pBase, dims: pDims } = paramShape(p);
    if (method.typeParams?.some((tp) => tp.name === pBase) || this.isTypeVarOfOwner(method, pBase)) return a.dims >= pDims ? 1 : -5;
    const aName = a.k === 'int' ? a.t.name : a.k === 'ext' ? a.name : '';
    if (a.k === 'ext' && a.name === 'null') return PRIMITIVES.has(pBase) && pDims === 0 ? -5 : 1;
    if (a.dims !== pDims) return pBase === 'Object' && pDims === 0 ? 1 : -5;
    if (aName === pBase) return 2;
    if (a.k === 'ext' && CLOSED.has(aName) && CLOSED.has(pBase)) {
      if (WIDENING[aName]?.includes(pBase) || BOXES[aName] === pBase || BOXES[pBase] === aName) return 1;
      return -5;
    }
    if (a.k === 'ext' && aName === 'String') return STRING_SUPERS.has(pBase) ? 1 : CLOSED.has(pBase) ? -5 : 0;
    if (a.k === 'int') {
      if (CLOSED.has(pBase)) return -5;
      const owner = this.ownerOf(method);
      const pt = owner ? this.resolveTypeText(pBase, { facts: owner.facts, file: owner.file, at: owner.index }) : null;
      if (pt?.k === 'int') return this.isSubtype(a.t, pt.t) ? 1 : -5;
      return 0;
    }
    if (a.k === 'ext' && CLOSED.has(aName)) {
      if (pBase === 'Object' || pBase === 'Number' || pBase === 'Comparable' || pBase === 'Serializable') return 1;
      const owner = this.ownerOf(method);
      const pt = owner ? this.resolveTypeText(pBase, { facts: owner.facts, file: owner.file, at: owner.index }) : null;
      if (pt?.k === 'int') return -5;
    }
    return 0;
  }

  /**
   * Private members are invisible outside their own file (their top-level class, in practice).
   * This is also what lets private edits stay local: they never change another file's resolution.
   */
  private visible(owner: TypeInfo, member: SymbolFact): boolean {
    return owner.file === this.file || !member.modifiers.includes('private');
  }

  private isTypeVarOfOwner(method: SymbolFact, name: string): boolean {
    for (let o = this.ownerOf(method); o; o = o.outer ? this.table.type(o.outer) : undefined) {
      if (o.sym.typeParams?.some((tp) => tp.name === name)) return true;
    }
    return false;
  }

  private isSubtype(a: TypeInfo, b: TypeInfo): boolean {
    return this.walkHierarchy(a, undefined, (t) => t === b);
  }

  private ownerOf(member: SymbolFact): TypeInfo | undefined {
    this.checkMemoEpoch();
    if (this.owners.has(member)) return this.owners.get(member);
    const id = member.id;
    const hash = id.indexOf('#');
    const owner = hash >= 0 ? this.table.type(id.slice(0, hash)) : undefined;
    this.owners.set(member, owner);
    return owner;
  }

  // ---- hierarchy ----

  private superCache = new Map<string, { epoch: number; supers: T[] }>();

  /** Direct supertypes, resolved in the declaring file's context. */
  private supersOf(t: TypeInfo): T[] {
    const cached = this.superCache.get(t.id);
    if (cached && cached.epoch === this.table.epoch) {
      if (this.supersPending.has(t.id)) this.partialSeen++;
      return cached.supers;
    }
    const ctx: Ctx = { facts: t.facts, file: t.file, at: t.sym.parent >= 0 ? t.sym.parent : t.index };
    const supers: T[] = [];
    const texts = [...(t.sym.superclass ? [t.sym.superclass] : []), ...(t.sym.interfaces ?? [])];
    this.superCache.set(t.id, { epoch: this.table.epoch, supers });
    this.supersPending.add(t.id);
    for (const s of texts) {
      const r = this.resolveTypeText(s, ctx);
      if (r) supers.push(r);
      else supers.push(ext(s));
    }
    this.supersPending.delete(t.id);
    if (t.sym.kind === 'enum') supers.push(ext('Enum'));
    if (t.sym.kind === 'record') supers.push(ext('Record'));
    return supers;
  }

  private superOf(t: TypeInfo): T | null {
    if (t.sym.kind === 'interface') return null;
    const s = this.supersOf(t)[0];
    if (t.sym.superclass || t.sym.anonymous) return s ?? null;
    return ext(t.sym.kind === 'enum' ? 'Enum' : t.sym.kind === 'record' ? 'Record' : 'Object');
  }

  /** Visits a type and its supertypes breadth-first, noting that `member` was looked up in each; stops when `visit` returns true. */
  private walkHierarchy(start: TypeInfo, member: string | undefined, visit: (t: TypeInfo, depth: number) => boolean): boolean {
    // The breadth-first order is kept per start type and grown only as far as walks go: a type's
    // supertypes are appended once a walk has visited it without stopping there, as a walk of its
    // own would, so the same supertype lists are resolved and the same names consulted.
    this.checkMemoEpoch();
    let h = this.hierarchies.get(start);
    if (!h || h.expanding) {
      // A walk from inside the growth of the same order (resolving a supertype list that walks its
      // own type) sees that list as it is now, in an order of its own.
      const fresh = new HierarchyOrder(start);
      if (!h) this.hierarchies.set(start, fresh);
      h = fresh;
    }
    const looked = member === undefined ? 0 : h.lookedUp.get(member) ?? 0;
    let i = 0;
    try {
      for (; ; i++) {
        while (h.expanded < i) h = this.expand(h);
        if (i >= h.types.length) return false;
        const t = h.types[i];
        if (i >= h.consultedUpTo) { this.consulted.add(t.name); h.consultedUpTo = i + 1; }
        if (member !== undefined && i >= looked) this.memberLookups.add(memberLookupKey(t.name, member));
        if (visit(t, h.depths[i])) { i++; return true; }
      }
    } finally {
      if (member !== undefined && i > looked) h.lookedUp.set(member, Math.max(i, h.lookedUp.get(member) ?? 0));
    }
  }

  /**
   * Appends the supertypes of the order's next visited type. A supertype list still being resolved
   * (a cycle through supersOf) is read as it is now, as the original walk would read it, into a
   * private copy of the order: the shared order stays for walks that read the list later.
   */
  private expand(h: HierarchyOrder): HierarchyOrder {
    const j = h.expanded;
    const t = h.types[j];
    h.expanding = true;
    let supers: T[];
    try { supers = this.supersOf(t); } finally { h.expanding = false; }
    const into = this.supersPending.has(t.id) && this.hierarchies.get(h.types[0]) === h ? h.copy() : h;
    into.expanded = j + 1;
    const depth = into.depths[j] + 1;
    if (depth >= 50) return into;
    for (const s of supers) {
      if (s.k !== 'int' || into.seen.has(s.t.id)) continue;
      into.seen.add(s.t.id);
      into.types.push(s.t);
      into.depths.push(depth);
    }
    return into;
  }

  private reachesExternal(t: TypeInfo): boolean {
    // Every class reaches java.lang.Object, so any unresolved method may be inherited from outside.
    let result = false;
    this.walkHierarchy(t, undefined, (info) => {
      if (info.sym.kind !== 'interface' || this.supersOf(info).some((s) => s.k !== 'int')) result = true;
      return result;
    });
    return result || t.sym.kind === 'interface';
  }

  private hierarchyHas(t: TypeInfo, name: string): boolean | 'external' {
    const has = this.walkHierarchy(t, name, (info) => (info.members.get(name) ?? []).some((i) => {
      const s = info.facts.symbols[i];
      return (s.kind === 'method' && this.visible(info, s)) || s.modifiers.includes('record-component');
    }));
    if (has) return true;
    // Methods of java.lang.Object and of external supertypes are reachable unqualified too.
    if (OBJECT_METHODS.has(name)) return 'external';
    return false;
  }

  private findField(t: TypeInfo, name: string): { info: TypeInfo; sym: SymbolFact } | 'external' | null {
    let hit: { info: TypeInfo; sym: SymbolFact } | null = null;
    this.walkHierarchy(t, name, (info) => {
      for (const i of info.members.get(name) ?? []) {
        const s = info.facts.symbols[i];
        if ((s.kind === 'field' || s.kind === 'enumConstant') && this.visible(info, s)) { hit = { info, sym: s }; return true; }
      }
      return false;
    });
    return hit;
  }

  /** Whether `t` inherits a member type of that name from a JDK supertype (`Entry` from Map). */
  private inheritsJdkMemberType(t: TypeInfo, name: string): boolean {
    return this.walkHierarchy(t, name, (info) => this.externalSupers(info).some((s) => JDK_MEMBER_TYPES.get(s)?.has(name) ?? false));
  }

  /**
   * Whether `t` has a supertype that neither the workspace, a jar nor the JDK declares: it may hold
   * any member type. Consulted only after every other scope failed, so a missing jar does not turn
   * imported and same-package names into unknowns of its own.
   */
  private hasOpaqueSupertype(t: TypeInfo, name: string): boolean {
    return this.walkHierarchy(t, name, (info) => this.externalSupers(info).some((s) => !JDK_TYPES.has(s)));
  }

  private externalSupers(info: TypeInfo): string[] {
    this.checkMemoEpoch();
    const supers = this.supersOf(info);
    const hit = this.externalSupersOf.get(info);
    // A list still being resolved grows: the memo holds for the list as it was.
    if (hit && hit.supers === supers && hit.n === supers.length) return hit.names;
    const names = supers.flatMap((s) => (s.k === 'ext' ? [erasedSimpleName(s.name).replace(/\[\]/g, '')] : []));
    this.externalSupersOf.set(info, { supers, n: supers.length, names });
    return names;
  }

  private memberTypeNamed(t: TypeInfo, name: string): TypeInfo | undefined {
    let found: TypeInfo | undefined;
    this.walkHierarchy(t, name, (info) => {
      const id = info.nested.get(name);
      const t = id ? this.table.type(id) : undefined;
      if (t && this.visible(info, t.sym)) found = t;
      return !!found;
    });
    return found;
  }

  /** The type of a member's declared type text, with the receiver's type arguments substituted. */
  private memberType(owner: TypeInfo, member: SymbolFact, text: string, recv: T | undefined): T | null {
    // An empty substitution reads like none (resolveTypeText caches only then), so none is made.
    let subst: Map<string, T> | undefined;
    if (recv?.k === 'int' && (recv.args?.length || recv.t !== owner)) {
      const mapped = this.asSuper(recv, owner);
      const params = owner.sym.typeParams ?? [];
      if (mapped?.args) params.forEach((p, i) => { const a = mapped.args?.[i]; if (a) (subst ??= new Map()).set(p.name, a); });
    }
    const idx = symbolIndexIn(owner.facts, member);
    const ctx: Ctx = { facts: owner.facts, file: owner.file, at: idx >= 0 ? idx : owner.index, subst };
    const t = this.resolveTypeText(text, ctx);
    if (t?.k === 'var') return this.boundOf(t) ?? null;
    return t;
  }

  /** View `t` as its supertype `target`, carrying type arguments through `extends Base<Foo>`. */
  private asSuper(t: Extract<T, { k: 'int' }>, target: TypeInfo, depth = 0): Extract<T, { k: 'int' }> | null {
    if (t.t === target) return t;
    if (depth > 20) return null;
    const subst = new Map<string, T>();
    (t.t.sym.typeParams ?? []).forEach((p, i) => { const a = t.args?.[i]; if (a) subst.set(p.name, a); });
    const ctx: Ctx = { facts: t.t.facts, file: t.t.file, at: t.t.sym.parent >= 0 ? t.t.sym.parent : t.t.index, subst };
    const texts = [...(t.t.sym.superclass ? [t.t.sym.superclass] : []), ...(t.t.sym.interfaces ?? [])];
    for (const s of texts) {
      const r = this.resolveTypeText(s, ctx);
      if (r?.k === 'int') {
        const up = this.asSuper(r, target, depth + 1);
        if (up) return up;
      }
    }
    return null;
  }

  private boundOf(v: Extract<T, { k: 'var' }>): T | null {
    const b = v.bounds[0];
    if (!b) return ext('Object');
    const r = this.resolveTypeText(b, { ...v.ctx, subst: undefined });
    return r?.k === 'var' ? null : r;
  }

  // ---- type names ----

  private enclosingType(at: number): TypeInfo | undefined {
    const i = enclosingTypeOf(this.facts, at);
    return i >= 0 ? this.table.type(this.facts.symbols[i].id) : undefined;
  }

  /** Resolves written type text (`Map<K, List<Foo>>[]`, `Outer.Inner`, `java.util.List`) in a context. */
  private resolveTypeText(text: string, ctx: Ctx): T | null {
    const cache = ctx.subst?.size ? undefined : byScope(perFacts(this.typeCache, ctx.facts), typeScopeOf(ctx.facts, ctx.at));
    if (cache) {
      const hit = cache.get(text);
      if (hit !== undefined) return hit;
    }
    const parsed = parsedTypeText(text);
    const r = parsed ? this.resolveParsed(parsed, ctx) : null;
    if (cache) cache.set(text, r);
    return r;
  }

  private resolveParsed(p: ParsedType, ctx: Ctx): T | null {
    const args = p.args.map((a) => (a ? this.resolveParsed(a, ctx) ?? ext(a.name) : ext('Object')));
    const dims = p.dims;
    const simple = p.name;
    if (PRIMITIVES.has(simple)) return { k: 'ext', name: simple, dims };
    const segs = simple.split('.');
    // Type variables of enclosing methods and types.
    if (segs.length === 1) {
      const sub = ctx.subst?.get(simple);
      if (sub) return dims ? { ...sub, dims: sub.dims + dims } as T : sub;
      const tv = this.typeVar(simple, ctx);
      if (tv) return { ...tv, dims };
    }
    const head = this.simpleType(segs[0], ctx);
    let t: TypeInfo | undefined;
    if (head === 'external') return { k: 'ext', name: segs[segs.length - 1], args: args.length ? args : undefined, dims };
    if (head) {
      t = head;
      for (const s of segs.slice(1)) {
        this.consulted.add(s);
        t = t ? this.memberTypeNamed(t, s) : undefined;
      }
    } else if (segs.length > 1) {
      t = this.qualifiedType(segs.join('.'));
      if (!t) return /^[a-z]/.test(segs[0]) ? { k: 'ext', name: segs[segs.length - 1], args: args.length ? args : undefined, dims } : null;
    }
    if (!t) return null;
    return { k: 'int', t, args: args.length ? args : undefined, dims };
  }

  private typeVar(name: string, ctx: Ctx): Extract<T, { k: 'var' }> | null {
    for (let i = ctx.at; i >= 0; i = scopeParent(ctx.facts, i)) {
      const s = ctx.facts.symbols[i];
      const tp = s.typeParams?.find((p) => p.name === name);
      if (tp) return { k: 'var', name, bounds: tp.bounds, ctx: { ...ctx, at: i }, dims: 0 };
      if (s.modifiers.includes('static') && s.kind !== 'method') break;
    }
    return null;
  }

  /** A simple type name seen from a context (JLS 6.4.1 shadowing order, roughly). */
  private simpleType(name: string, ctx: Ctx): TypeInfo | 'external' | undefined {
    this.consulted.add(name);
    const facts = ctx.facts;
    // It depends only on the enclosing type (not on the member inside it).
    const start = enclosingTypeOf(facts, ctx.at);
    const cache = byScope(perFacts(this.simpleTypeCache, facts), start);
    const hit = cache.get(name);
    if (hit !== undefined) return hit ?? undefined;
    const r = this.computeSimpleType(name, facts, start);
    cache.set(name, r ?? null);
    return r;
  }

  private computeSimpleType(name: string, facts: FileFacts, start: number): TypeInfo | 'external' | undefined {
    // Local classes of the same file.
    let locals = this.localClasses.get(facts);
    if (!locals) this.localClasses.set(facts, (locals = facts.symbols.filter((s) => s.local && !s.anonymous)));
    for (const s of locals) if (s.name === name) return this.table.type(s.id);
    // Enclosing types and their member types (inherited ones too).
    for (let i = start; i >= 0; i = enclosingTypeOf(facts, facts.symbols[i].parent)) {
      const t = this.table.type(facts.symbols[i].id);
      if (!t) continue;
      if (t.name === name && !t.sym.anonymous) return t;
      const nested = this.memberTypeNamed(t, name);
      if (nested) return nested;
      if (this.inheritsJdkMemberType(t, name)) return 'external';
    }
    // Single-type imports.
    for (const imp of importsOf(facts).single.get(name) ?? []) {
      const t = this.qualifiedType(imp.name);
      if (t) return t;
      if (!imp.static) return 'external';
    }
    // Same package.
    const own = this.table.topLevelIn(facts.package, name);
    if (own) return own;
    // On-demand imports: packages, or member types of a type.
    for (const imp of importsOf(facts).wildcard) {
      const t = this.table.topLevelIn(imp.name, name);
      if (t) return t;
      const owner = this.qualifiedType(imp.name);
      if (owner) {
        const nested = this.memberTypeNamed(owner, name);
        if (nested) return nested;
      }
    }
    if (JAVA_LANG.has(name)) return 'external';
    // Imported from outside the workspace by a wildcard we cannot see into.
    if (this.hasOpaqueWildcard(facts)) return 'external';
    // Inherited from a supertype we cannot see into.
    for (let i = start; i >= 0; i = enclosingTypeOf(facts, facts.symbols[i].parent)) {
      const t = this.table.type(facts.symbols[i].id);
      if (t && this.hasOpaqueSupertype(t, name)) return 'external';
    }
    return undefined;
  }

  /** Whether a non-static wildcard import names neither a package nor a type of the index (pure per table). */
  private hasOpaqueWildcard(facts: FileFacts): boolean {
    this.checkMemoEpoch();
    let r = this.opaqueWildcard.get(facts);
    if (r === undefined) {
      const seen = this.partialSeen;
      r = facts.imports.some((i) => i.wildcard && !i.static && !this.table.isPackage(i.name) && !this.qualifiedType(i.name));
      if (seen === this.partialSeen) this.opaqueWildcard.set(facts, r);
    }
    return r;
  }

  typeNameAt(name: string, at: number): TypeInfo | 'external' | undefined {
    const ctx: Ctx = { facts: this.facts, file: this.file, at };
    const segs = name.split('.');
    if (segs.length === 1 && (PRIMITIVES.has(name) || this.typeVar(name, ctx))) return undefined;
    const head = this.simpleType(segs[0], ctx);
    if (head === 'external') return 'external';
    if (head) {
      let t: TypeInfo | undefined = head;
      for (const s of segs.slice(1)) t = t ? this.memberTypeNamed(t, s) : undefined;
      return t;
    }
    if (segs.length === 1) return undefined;
    return this.qualifiedType(name) ?? (/^[a-z]/.test(segs[0]) ? 'external' : undefined);
  }

  qualifiedTypeOf(q: string): TypeInfo | undefined {
    return this.qualifiedType(q);
  }

  /** `com.acme.Foo.Inner` -> the type, trying the longest package prefix first. */
  private qualifiedType(q: string): TypeInfo | undefined {
    this.checkMemoEpoch();
    if (this.qualifiedTypes.has(q)) return this.qualifiedTypes.get(q);
    const seen = this.partialSeen;
    const r = this.computeQualifiedType(q);
    if (seen === this.partialSeen) this.qualifiedTypes.set(q, r);
    return r;
  }

  private computeQualifiedType(q: string): TypeInfo | undefined {
    const segs = q.split('.');
    for (let i = segs.length - 1; i >= 0; i--) {
      const pkg = segs.slice(0, i).join('.');
      this.consulted.add(segs[i]);
      const top = this.table.topLevelIn(pkg, segs[i]);
      if (!top) continue;
      let t: TypeInfo | undefined = top;
      for (const s of segs.slice(i + 1)) {
        this.consulted.add(s);
        t = t ? this.memberTypeNamed(t, s) : undefined;
      }
      if (t) return t;
    }
    return undefined;
  }
}

/**
 * The innermost symbol around `at` that changes how type names resolve: a type, a symbol with type
 * parameters, or a static field or constant (type parameters of the class are not in scope there;
 * see typeVar). Members in between see exactly the same names, so they share cached resolutions.
 */
function typeScopeOf(facts: FileFacts, at: number): number {
  if (at < 0) return at;
  const memo = perSymbol(typeScopes, facts);
  if (memo[at] === UNKNOWN) memo[at] = computeTypeScope(facts, at);
  return memo[at];
}

/** enclosingTypeIndex, memoised per file (pure: a file's symbols never change once extracted). */
function enclosingTypeOf(facts: FileFacts, at: number): number {
  if (at < 0) return at;
  const memo = perSymbol(enclosingTypes, facts);
  if (memo[at] === UNKNOWN) memo[at] = enclosingTypeIndex(facts, at);
  return memo[at];
}

const UNKNOWN = -2;
/**
 * Files whose per-file tables (below) are kept: those being resolved and the supertypes they
 * consult again and again. Every file's, kept for as long as it was indexed, were 33 MB on the
 * whole JDK after a cold resolution; a table is rebuilt in one pass over a file's symbols or
 * imports (java.base's cold resolution took as long with this bound as without it).
 */
const FILES_REMEMBERED = 1024;
const typeScopes = BoundedMemo.weak<FileFacts, Int32Array>(FILES_REMEMBERED);
const enclosingTypes = BoundedMemo.weak<FileFacts, Int32Array>(FILES_REMEMBERED);

function perSymbol(memos: BoundedMemo<FileFacts, Int32Array>, facts: FileFacts): Int32Array {
  let m = memos.peek(facts);
  if (!m || m.length !== facts.symbols.length) memos.set(facts, (m = new Int32Array(facts.symbols.length).fill(UNKNOWN)));
  return m;
}

function computeTypeScope(facts: FileFacts, at: number): number {
  let i = at;
  while (i >= 0) {
    const s = facts.symbols[i];
    if (isTypeKind(s.kind) || s.typeParams?.length || (s.kind !== 'method' && s.modifiers.includes('static'))) return i;
    i = s.parent;
  }
  return i;
}

/**
 * The symbol whose scope encloses symbol `i` for type variables: its parent, except for a local
 * class, whose parent in the facts is the enclosing type but which sees the type variables of the
 * method (or constructor) it is declared in: the innermost member whose span holds it.
 */
function scopeParent(facts: FileFacts, i: number): number {
  const s = facts.symbols[i];
  if (!s.local || s.parent < 0) return s.parent;
  let best = s.parent;
  const inside = (o: SymbolFact) => (o.span.sl < s.span.sl || (o.span.sl === s.span.sl && o.span.sc <= s.span.sc))
    && (o.span.el > s.span.el || (o.span.el === s.span.el && o.span.ec >= s.span.ec));
  for (let j = 0; j < facts.symbols.length; j++) {
    const o = facts.symbols[j];
    if (j === i || isTypeKind(o.kind) || !inside(o)) continue;
    const b = facts.symbols[best];
    if (best === s.parent || o.span.sl > b.span.sl || (o.span.sl === b.span.sl && o.span.sc > b.span.sc)) best = j;
  }
  return best;
}

/**
 * Member types a class inherits from JDK supertypes the index cannot see into (JLS §8.5): JDK
 * simple name -> the accessible member types it declares or inherits, read from the JDK's class
 * files by `node scripts/build-jdk-member-types.mjs`. `Entry` inside a class implementing Map
 * (Guava's ImmutableMap) is Map.Entry without an import; `AbortPolicy` inside a subclass of
 * ThreadPoolExecutor is its member type. Keys are simple names, as external supertypes are known.
 */
const JDK_MEMBER_TYPES = new Map<string, ReadonlySet<string>>(Object.entries(jdkMemberTypes.types).map(([k, v]) => [k, new Set(v)]));
const JDK_TYPES = new Set<string>([...JDK_MEMBER_TYPES.keys(), ...jdkMemberTypes.withoutMemberTypes]);

interface Candidate { sym: SymbolFact; depth: number }

const paramShapes = new Map<string, { base: string; dims: number }>();

/** A parameter's erased simple type name and array dimensions (`List<Foo>[]` -> List, 1); memoised, it is pure. */
function paramShape(p: string): { base: string; dims: number } {
  let shape = paramShapes.get(p);
  if (!shape) {
    const simple = erasedSimpleName(p);
    shape = { base: simple.replace(/\[\]/g, ''), dims: (simple.match(/\[\]/g) ?? []).length };
    paramShapes.set(p, shape);
  }
  return shape;
}

function perFacts<K, V>(caches: Map<FileFacts, Map<K, V>>, facts: FileFacts): Map<K, V> {
  let m = caches.get(facts);
  if (!m) caches.set(facts, (m = new Map()));
  return m;
}

function byScope<V>(caches: Map<number, Map<string, V>>, scope: number): Map<string, V> {
  let m = caches.get(scope);
  if (!m) caches.set(scope, (m = new Map()));
  return m;
}

/** A walk's breadth-first order of a type and its supertypes, as far as walks have needed it. */
class HierarchyOrder {
  types: TypeInfo[];
  depths: number[] = [0];
  seen: Set<string>;
  /** types[0, expanded) have had their supertypes appended. */
  expanded = 0;
  /** Set while the next supertype list is being resolved. */
  expanding = false;
  /** types[0, consultedUpTo) are in the resolution's consulted names. */
  consultedUpTo = 0;
  /** Member name -> n: the lookups of it in types[0, n) are in the resolution's member lookups. */
  lookedUp = new Map<string, number>();
  constructor(start: TypeInfo) {
    this.types = [start];
    this.seen = new Set([start.id]);
  }
  copy(): HierarchyOrder {
    const c = new HierarchyOrder(this.types[0]);
    c.types = [...this.types];
    c.depths = [...this.depths];
    c.seen = new Set(this.seen);
    c.expanded = this.expanded;
    c.consultedUpTo = this.consultedUpTo;
    c.lookedUp = new Map(this.lookedUp);
    return c;
  }
}

interface ImportIndex { single: Map<string, FileFacts['imports']>; wildcard: FileFacts['imports'] }
const importIndexes = BoundedMemo.weak<FileFacts, ImportIndex>(FILES_REMEMBERED);

/** A file's single-type imports by their last segment (the simple name they import), and its wildcard imports, in source order. */
function importsOf(facts: FileFacts): ImportIndex {
  return importIndexes.get(facts, () => {
    const ix: ImportIndex = { single: new Map(), wildcard: [] };
    for (const imp of facts.imports) {
      if (imp.wildcard) { ix.wildcard.push(imp); continue; }
      const last = imp.name.slice(imp.name.lastIndexOf('.') + 1);
      const list = ix.single.get(last);
      if (list) list.push(imp); else ix.single.set(last, [imp]);
    }
    return ix;
  });
}

const symbolIndexes = BoundedMemo.weak<FileFacts, Map<SymbolFact, number>>(FILES_REMEMBERED);

/** `facts.symbols.indexOf(sym)` without the scan (a file's symbols never change once extracted). */
function symbolIndexIn(facts: FileFacts, sym: SymbolFact): number {
  let m = symbolIndexes.peek(facts);
  if (!m || m.size !== facts.symbols.length) {
    m = new Map();
    for (let i = facts.symbols.length - 1; i >= 0; i--) m.set(facts.symbols[i], i);
    symbolIndexes.set(facts, m);
  }
  return m.get(sym) ?? -1;
}

const parsedTypeTexts = new BoundedMemo<string, ParsedType | null>(100_000);

/** parseTypeText memoised: it is pure, and resolution reads its result without changing it. */
function parsedTypeText(text: string): ParsedType | null {
  return parsedTypeTexts.get(text, parseTypeText);
}

function ext(name: string): T {
  return { k: 'ext', name, dims: 0 };
}

interface ParsedType { name: string; args: (ParsedType | null)[]; dims: number }

/** `Map<String,List<Foo>>[]` -> { name: 'Map', args: [...], dims: 1 }. Wildcards become their bound or null. */
export function parseTypeText(text: string): ParsedType | null {
  let pos = 0;
  const s = text.replace(/\s+/g, '');
  function parse(): ParsedType | null {
    if (s[pos] === '?') {
      pos++;
      if (s.startsWith('extends', pos)) { pos += 7; return parse(); }
      if (s.startsWith('super', pos)) { pos += 5; parse(); return null; }
      return null;
    }
    let name = '';
    const args: (ParsedType | null)[] = [];
    while (pos < s.length && /[\w$.]/.test(s[pos])) name += s[pos++];
    if (s[pos] === '<') {
      pos++;
      while (pos < s.length && s[pos] !== '>') {
        args.push(parse());
        if (s[pos] === ',') pos++;
        else if (s[pos] !== '>') { pos++; }
      }
      pos++;
      // `Outer<A>.Inner`
      if (s[pos] === '.') { pos++; const inner = parse(); if (inner) return { ...inner, name: `${name}.${inner.name}` }; }
    }
    let dims = 0;
    while (s.startsWith('[]', pos)) { dims++; pos += 2; }
    if (s.startsWith('...', pos)) { dims++; pos += 3; }
    if (s[pos] === '&') { pos++; parse(); }
    return name ? { name, args, dims } : null;
  }
  return parse();
}

const OBJECT_METHODS = new Set(['equals', 'hashCode', 'toString', 'getClass', 'notify', 'notifyAll', 'wait', 'clone', 'finalize', 'values', 'valueOf', 'ordinal', 'name', 'compareTo', 'getDeclaringClass']);

const JAVA_LANG = new Set(('Object String StringBuilder StringBuffer Integer Long Short Byte Character Boolean Float Double Number Math StrictMath ' +
  'System Thread Runnable Class ClassLoader Enum Record Iterable Comparable CharSequence Cloneable AutoCloseable Override Deprecated ' +
  'SuppressWarnings FunctionalInterface SafeVarargs Exception RuntimeException Error Throwable IllegalArgumentException ' +
  'IllegalStateException NullPointerException UnsupportedOperationException IndexOutOfBoundsException ArrayIndexOutOfBoundsException ' +
  'StringIndexOutOfBoundsException ClassCastException ArithmeticException NumberFormatException CloneNotSupportedException ' +
  'InterruptedException ReflectiveOperationException ClassNotFoundException NoSuchMethodException NoSuchFieldException ' +
  'InstantiationException IllegalAccessException SecurityException AssertionError OutOfMemoryError StackOverflowError ' +
  'LinkageError NegativeArraySizeException ArrayStoreException ExceptionInInitializerError VirtualMachineError Void Process ' +
  'ProcessBuilder Runtime ThreadLocal InheritableThreadLocal StackTraceElement Appendable Readable Package Module ModuleLayer ' +
  'ThreadGroup StackWalker ScopedValue IllegalMonitorStateException TypeNotPresentException EnumConstantNotPresentException ' +
  'IncompatibleClassChangeError AbstractMethodError NoClassDefFoundError UnsatisfiedLinkError InternalError Compiler ' +
  'SecurityManager CharacterData ProcessHandle IllegalCallerException LayerInstantiationException WrongThreadException MatchException').split(' '));
