// Reading declarations out of the index and the file text: owners, signature lines, Javadoc
// first sentences, the internal types a signature mentions. Shared by recall, prune and items.

import type { SymbolFact } from '../java/facts';
import type { SymbolRef, WorkspaceIndex } from '../index/workspaceIndex';
import { isTypeKind } from '../java/symbols';

export function ownerOf(ref: SymbolRef): SymbolRef | undefined {
  const p = ref.sym.parent;
  if (p < 0) return undefined;
  return { file: ref.file, index: p, sym: ref.file.facts.symbols[p] };
}

/** The innermost type containing (or being) the symbol. */
export function ownerType(ref: SymbolRef): SymbolRef | undefined {
  let r: SymbolRef | undefined = isTypeKind(ref.sym.kind) ? ref : ownerOf(ref);
  while (r && !isTypeKind(r.sym.kind)) r = ownerOf(r);
  return r;
}

/** The direct members (not nested types' members) of a type. */
export function membersOf(type: SymbolRef): SymbolRef[] {
  const out: SymbolRef[] = [];
  type.file.facts.symbols.forEach((s, i) => {
    if (s.parent === type.index && !s.local && !s.anonymous) out.push({ file: type.file, index: i, sym: s });
  });
  return out;
}

/** First sentences already cut, per `max` then Javadoc text: every request re-reads the same declarations. */
const sentences = new Map<number, Map<string, string>>();
/** Past this many remembered Javadocs (per `max`) the memo starts over, so it stays bounded. */
const MAX_REMEMBERED_SENTENCES = 100_000;

/** First sentence of a Javadoc comment, with inline tags reduced to their text; '' if none. */
export function firstSentence(javadoc: string | undefined, max = 220): string {
  if (!javadoc) return '';
  let memo = sentences.get(max);
  if (!memo) sentences.set(max, (memo = new Map()));
  let s = memo.get(javadoc);
  if (s === undefined) {
    if (memo.size >= MAX_REMEMBERED_SENTENCES) memo.clear();
    memo.set(javadoc, (s = cutFirstSentence(javadoc, max)));
  }
  return s;
}

function cutFirstSentence(javadoc: string, max: number): string {
  let t = javadoc.split(/\n\s*@/)[0];
  t = t.replace(/\{@(?:link|linkplain|code|literal|value)\s+([^}]*)\}/g, '$1').replace(/<[^>]+>/g, '').replace(/\s+/g, ' ').trim();
  if (t.startsWith('@')) return '';
  const m = t.match(/^.*?[.!?](?=\s|$)/);
  let s = m ? m[0] : t;
  if (s.length > max) s = s.slice(0, max - 1).replace(/\s+\S*$/, '') + '…';
  return s;
}

/** A Javadoc reference: `{@link Type#member}`, `{@link #member}`, `{@link Type}`, `@see ...`. */
export interface DocLink { type?: string; member?: string }

export function javadocRefs(javadoc: string | undefined): DocLink[] {
  if (!javadoc) return [];
  const out: DocLink[] = [];
  for (const m of javadoc.matchAll(/(?:\{@(?:link|linkplain)\s+|@see\s+)([A-Za-z0-9_.$]*)(?:#([A-Za-z0-9_$]+))?/g)) {
    const type = m[1] ? m[1].slice(m[1].lastIndexOf('.') + 1) : undefined;
    if (type || m[2]) out.push({ type: type || undefined, member: m[2] });
  }
  return out;
}

/** Names mentioned by {@link X#y} / {@link #y} / {@code y} tags in a Javadoc. */
export function javadocLinks(javadoc: string | undefined): string[] {
  if (!javadoc) return [];
  const out: string[] = [];
  for (const r of javadocRefs(javadoc)) { if (r.type) out.push(r.type); if (r.member) out.push(r.member); }
  for (const m of javadoc.matchAll(/\{@code\s+([A-Za-z_$][A-Za-z0-9_$]*)(?:[#.]([A-Za-z_$][A-Za-z0-9_$]*))?/g)) { out.push(m[1]); if (m[2]) out.push(m[2]); }
  return out;
}

/**
 * The 0-based inclusive line range of a declaration's signature: from its first line (annotations
 * and modifiers) to the line that opens its body or ends it. Whole lines only.
 */
export function signatureLines(sym: SymbolFact, lines: string[]): { start: number; end: number } {
  const start = sym.span.sl;
  if (sym.kind === 'field' || sym.kind === 'enumConstant') {
    return { start, end: Math.min(sym.span.el, start + 2) };
  }
  let depth = 0;
  for (let l = Math.max(start, sym.nameSpan.sl); l <= Math.min(sym.span.el, start + 8); l++) {
    const text = stripLine(lines[l] ?? '');
    for (const ch of text) {
      if (ch === '(') depth++;
      else if (ch === ')') depth--;
      else if ((ch === '{' || ch === ';') && depth <= 0) return { start, end: l };
    }
  }
  return { start, end: Math.min(sym.span.el, Math.max(start, sym.nameSpan.sl)) };
}

/** A line with string literals and // comments removed (for brace counting). */
export function stripLine(line: string): string {
  return line.replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/'(?:[^'\\]|\\.)*'/g, "''").replace(/\/\/.*$/, '');
}

/** The first line of a declaration's Javadoc comment (the line holding `/**`), or span.sl when none. */
export function docStartLine(sym: SymbolFact, lines: string[]): number {
  if (!sym.javadoc) return sym.span.sl;
  for (let l = sym.span.sl - 1; l >= Math.max(0, sym.span.sl - 80); l--) {
    const t = lines[l]?.trim() ?? '';
    if (t.startsWith('/**')) return l;
    if (!(t.startsWith('*') || t.endsWith('*/') || t === '' || t.startsWith('@'))) break;
  }
  return sym.span.sl;
}

/** Simple type names in a type text: `Map<String, List<Foo>>` -> Map, String, List, Foo. */
export function typeNames(typeText: string | undefined): string[] {
  if (!typeText) return [];
  return (typeText.match(/[A-Za-z_$][A-Za-z0-9_$]*/g) ?? []).filter((n) => !/^(extends|super|final)$/.test(n)).map((n) => n);
}

/** Resolves a simple (or dotted) type name as seen from a file: same file, same package, imports, anywhere unique. */
export function resolveTypeName(index: WorkspaceIndex, fromPath: string, name: string): SymbolRef | undefined {
  const simple = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1) : name;
  const f = index.file(fromPath);
  if (f) {
    const i = f.facts.symbols.findIndex((s) => isTypeKind(s.kind) && s.name === simple);
    if (i >= 0) return { file: f, index: i, sym: f.facts.symbols[i] };
    for (const imp of f.facts.imports) {
      if (!imp.static && !imp.wildcard && imp.name.endsWith('.' + simple)) {
        const r = index.symbol(imp.name);
        if (r) return r;
      }
    }
    const pkg = f.facts.package;
    const r = index.symbol(pkg ? `${pkg}.${simple}` : simple);
    if (r) return r;
    for (const imp of f.facts.imports) {
      if (imp.wildcard && !imp.static) {
        const r2 = index.symbol(`${imp.name}.${simple}`);
        if (r2) return r2;
      }
    }
  }
  const ids = typesBySimpleName(index).get(simple);
  if (ids && ids.length === 1) return index.symbol(ids[0]);
  return undefined;
}

/**
 * A value derived from the whole index, rebuilt only when the index changes (its version).
 * Stages use it for workspace-wide tables that would be wasteful to compute per request.
 */
export function perIndexVersion<T>(build: (index: WorkspaceIndex) => T): (index: WorkspaceIndex) => T {
  const cache = new WeakMap<WorkspaceIndex, { version: number; value: T }>();
  return (index) => {
    const c = cache.get(index);
    if (c && c.version === index.version) return c.value;
    const value = build(index);
    cache.set(index, { version: index.version, value });
    return value;
  };
}

/** Simple name -> ids of the non-local declarations `keep` accepts, in file-path then source order. */
function idsByName(index: WorkspaceIndex, keep: (s: SymbolFact) => boolean): Map<string, string[]> {
  const sets = new Map<string, Set<string>>();
  for (const f of [...index.allFiles()].sort((a, b) => (a.path < b.path ? -1 : 1))) for (const s of f.facts.symbols) {
    if (s.local || s.anonymous || !keep(s)) continue;
    let ids = sets.get(s.name);
    if (!ids) sets.set(s.name, (ids = new Set()));
    ids.add(s.id);
  }
  const map = new Map<string, string[]>();
  for (const [name, ids] of sets) map.set(name, [...ids]);
  return map;
}

/** Simple type name -> ids of internal types with that name (sorted), per index version. */
export const typesBySimpleName = perIndexVersion((index) => {
  const map = idsByName(index, (s) => isTypeKind(s.kind));
  for (const l of map.values()) l.sort();
  return map;
});

/** Simple member/type name -> ids of every declaration with that name, per index version. */
export const declarationsByName = perIndexVersion((index) => idsByName(index, () => true));

export function isType(sym: SymbolFact): boolean {
  return isTypeKind(sym.kind);
}

export const usageCounts = perIndexVersion((index): Map<string, number> => {
  const from = new Map<string, Set<string>>();
  for (const f of index.allFiles()) for (const e of f.resolution?.edges ?? []) {
    if (e.kind === 'imports' || e.kind === 'extends' || e.kind === 'implements') continue;
    let s = from.get(e.to);
    if (!s) from.set(e.to, (s = new Set()));
    s.add(e.from);
  }
  const map = new Map<string, number>();
  for (const [id, s] of from) map.set(id, s.size);
  return map;
});
