// Reading declarations out of the index and the file text: owners, signature lines, Javadoc
// first sentences, the internal types a signature mentions. Shared by recall, prune and items.

import type { SymbolFact } from '../java/facts';
import type { IndexedFile, SymbolRef, WorkspaceIndex } from '../index/workspaceIndex';
import { typeNameResolver } from '../java/resolve';
import { isTypeKind } from '../java/symbols';
import { lowerBound } from '../deps/sorted';
import { BoundedMemo } from '../text/boundedMemo';
import { EdgeList } from '../java/edgeList';

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

/** Past this many remembered Javadocs (per `max`) a memo starts over, so it stays bounded. */
const MAX_REMEMBERED_SENTENCES = 100_000;

/**
 * A Javadoc cutter remembered per `max` then Javadoc text: every request re-reads the same
 * declarations. '' for no Javadoc.
 */
function memoizedCut(cut: (javadoc: string, max: number) => string): (javadoc: string | undefined, max?: number) => string {
  const memos = new Map<number, BoundedMemo<string, string>>();
  return (javadoc, max = 220) => {
    if (!javadoc) return '';
    let memo = memos.get(max);
    if (!memo) memos.set(max, (memo = new BoundedMemo(MAX_REMEMBERED_SENTENCES)));
    return memo.get(javadoc, (j) => cut(j, max));
  };
}

/**
 * The first sentence of a Javadoc as a reader should see it: it ends at the first `.`, `!` or `?`
 * followed by white space, outside inline tags and not after an abbreviation (`e.g.`, `i.e.`,
 * `etc.` before a lower-case word), or at a block tag or paragraph; inline tags show their text
 * (`{@link Foo#bar() the bar}` -> `the bar`, `{@link Foo#bar()}` -> `Foo.bar()`,
 * `{@code a<b>}` -> `a<b>`), other HTML is dropped. Longer than `max`: cut at a word, with `…`.
 * The one cut of a Javadoc's first sentence: the shown summary (prune), the words recall reads
 * (descriptions, query, rerank, the organisation index) and a chunk's description (chunks/java)
 * all take it from here.
 */
export const docSummary = memoizedCut((javadoc, max) => cutSummary(javadoc, max));

const ABBREVIATION = /(?:^|[\s(\[])(?:e\.g|i\.e|cf|vs|viz|approx|resp|et al|incl|esp)\.$/i;
/** How far back from a full stop ABBREVIATION and ETC_BEFORE need to look (their longest match, and more). */
const ABBREVIATION_REACH = 12;
const ETC_BEFORE = /(?:^|\s)etc\.$/i;
// Matched where the scan stands (sticky): no copy of the rest of the Javadoc per `<` or `&`.
const BLOCK_HTML = /<\/?(?:p|ul|ol|li|pre|br|h[1-6]|table|dl|dt|dd|blockquote|hr)\b[^>]*>/iy;
const HTML_TAG = /<\/?[A-Za-z][^<>]*>/y;
const ENTITY = /&(#?\w+);/y;
const BLOCK_TAG = /\n\s*@/;
const WHITE_RUN = /\s+/g;
/** Where plain prose stops: what may start an inline tag, an HTML tag or an entity. */
const SPECIAL = /[{<&]/g;
const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'", nbsp: ' ', '#64': '@', '#47': '/', '#42': '*' };

/**
 * A Javadoc's prose as text: white space runs as one space, inline tags as their text, HTML
 * dropped; `breakable[k]`: whether the k-th character written may end a sentence (not inside an
 * inline tag; an inline tag's text counts by code point); `hardBreak`: where a paragraph or block
 * element cut it, or -1. Plain stretches between `{@`, `<` and `&` are copied whole: appending
 * char by char, and asking the string whether it ends in a space, made this the most allocating
 * step of a request on the JDK.
 */
function renderJavadoc(raw: string): { text: string; breakable: boolean[]; hardBreak: number } {
  const parts: string[] = [];
  let length = 0; // UTF-16 units written
  let endsInSpace = false, anyText = false;
  const breakable: boolean[] = [];
  let hardBreak = -1;
  /**
   * Writes `str` with its white space runs as one space (none first, none after a space), each
   * character written marked `canBreak`; characters are counted in UTF-16 units for the Javadoc's
   * own text (read unit by unit before) and by code point for a tag's or entity's text.
   */
  const write = (str: string, canBreak: boolean, count: 'units' | 'code points') => {
    let w = str.replace(WHITE_RUN, ' ');
    if (w.startsWith(' ') && (!length || endsInSpace)) w = w.slice(1);
    if (!w) return;
    parts.push(w);
    length += w.length;
    endsInSpace = w.endsWith(' ');
    anyText ||= w !== ' ';
    const n = count === 'units' ? w.length : [...w].length;
    for (let k = 0; k < n; k++) breakable.push(canBreak);
  };
  let i = 0;
  while (i < raw.length && hardBreak < 0) {
    SPECIAL.lastIndex = i;
    const next = SPECIAL.exec(raw)?.index ?? raw.length;
    if (next > i) { write(raw.slice(i, next), true, 'units'); i = next; continue; }
    const ch = raw[i];
    if (ch === '{' && raw[i + 1] === '@') {
      let depth = 0, j = i;
      for (; j < raw.length; j++) { if (raw[j] === '{') depth++; else if (raw[j] === '}' && --depth === 0) break; }
      const body = raw.slice(i + 2, j);
      const name = /^\w+/.exec(body)?.[0] ?? '';
      const arg = body.slice(name.length).trim();
      write(inlineTagText(name, arg), false, 'code points');
      i = j + 1;
      continue;
    }
    if (ch === '<') {
      BLOCK_HTML.lastIndex = i;
      const block = BLOCK_HTML.exec(raw);
      if (block) { if (anyText) hardBreak = length; i += block[0].length; continue; }
      HTML_TAG.lastIndex = i;
      const tag = HTML_TAG.exec(raw);
      if (tag) { i += tag[0].length; continue; }
    }
    if (ch === '&') {
      ENTITY.lastIndex = i;
      const ent = ENTITY.exec(raw);
      if (ent && ENTITIES[ent[1]] !== undefined) { write(ENTITIES[ent[1]], true, 'code points'); i += ent[0].length; continue; }
    }
    write(ch, true, 'units'); // a `{`, `<` or `&` that starts nothing
    i++;
  }
  return { text: parts.join(''), breakable, hardBreak };
}

function inlineTagText(name: string, arg: string): string {
  switch (name) {
    case 'link': case 'linkplain': case 'see': {
      const m = /^([^\s(]+(?:\([^)]*\))?)\s*([\s\S]*)$/.exec(arg);
      if (!m) return arg;
      if (m[2].trim()) return m[2].trim();
      const ref = m[1];
      return ref.startsWith('#') ? ref.slice(1) : ref.replace('#', '.');
    }
    case 'inheritDoc': return '';
    default: return arg; // code, literal, value, and any other tag: its text
  }
}

function cutSummary(javadoc: string, max: number): string {
  const tag = BLOCK_TAG.exec(javadoc);
  const prose = tag ? javadoc.slice(0, tag.index) : javadoc;
  if (prose.trimStart().startsWith('@')) return '';
  const { text, breakable, hardBreak } = renderJavadoc(prose);
  let end = hardBreak >= 0 ? hardBreak : text.length;
  for (let i = 0; i < end; i++) {
    const ch = text[i];
    if ((ch !== '.' && ch !== '!' && ch !== '?') || !breakable[i]) continue;
    if (i + 1 < text.length && text[i + 1] !== ' ') continue;
    if (ch === '.') {
      // The text up to the stop, as far back as the patterns can reach: where the window starts
      // past the text's start, no match can begin there, so `^` means the same as on the whole.
      const before = text.slice(Math.max(0, i + 1 - ABBREVIATION_REACH), i + 1);
      if (ABBREVIATION.test(before)) continue;
      // "etc." ends a sentence only before a capital (or the end).
      if (ETC_BEFORE.test(before) && i + 2 < text.length && !/[A-Z]/.test(text[i + 2])) continue;
    }
    end = i + 1;
    break;
  }
  let s = text.slice(0, end).trim();
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

/**
 * The first line of a declaration's Javadoc comment (the line holding `/**`), or span.sl when none.
 * The comment ends on the line before the declaration; its lines need not start with `*`.
 */
export function docStartLine(sym: SymbolFact, lines: string[]): number {
  if (!sym.javadoc) return sym.span.sl;
  let end = sym.span.sl - 1;
  while (end >= 0 && !(lines[end] ?? '').trim()) end--;
  if (end < 0 || !(lines[end] ?? '').trimEnd().endsWith('*/')) return sym.span.sl;
  for (let l = end; l >= Math.max(0, sym.span.sl - 200); l--) if ((lines[l] ?? '').includes('/**')) return l;
  return sym.span.sl;
}

/** Simple type names in a type text: `Map<String, List<Foo>>` -> Map, String, List, Foo. */
export function typeNames(typeText: string | undefined): string[] {
  if (!typeText) return [];
  return (typeText.match(/[A-Za-z_$][A-Za-z0-9_$]*/g) ?? []).filter((n) => !/^(extends|super|final)$/.test(n)).map((n) => n);
}

/**
 * A simple (or dotted) type name as seen from a declaration, by the index's own rules
 * (java/resolve.ts `typeNameResolver`); failing those, a type that is the only one of that simple
 * name anywhere (names from Javadoc or a task text, which have no scope of their own).
 */
export function resolveTypeName(index: WorkspaceIndex, from: SymbolRef, name: string): SymbolRef | undefined {
  const t = typeNameResolver(index.table, from.file.path, from.file.facts)(name, from.index);
  if (t === 'external') return undefined;
  if (t) return index.symbol(t.id);
  const simple = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1) : name;
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

/**
 * What a table kept in step with the index compares at a new index version: the files the index
 * changed since the table last looked (`seq`, the index's changeSeq then), or every file when
 * it has not looked yet or the index's change log no longer reaches back that far; and the paths
 * among `held` (the table's files) that are no longer indexed. Changed files come in path order;
 * every file in path order too, or in the index's own order (`fullOrder` 'index': no sort).
 */
export function filesToCompare(index: WorkspaceIndex, seq: number | undefined, held: ReadonlyMap<string, unknown>, fullOrder: 'path' | 'index' = 'path'): { files: IndexedFile[]; gone: string[] } {
  const changed = seq === undefined ? undefined : index.changedSince(seq);
  if (changed) {
    const files: IndexedFile[] = [], gone: string[] = [];
    for (const path of changed) {
      const f = index.file(path);
      if (f) files.push(f);
      else if (held.has(path)) gone.push(path);
    }
    return { files, gone };
  }
  const files = index.allFiles();
  if (fullOrder === 'path') files.sort((a, b) => (a.path < b.path ? -1 : 1));
  const live = new Set(files.map((f) => f.path));
  return { files, gone: [...held.keys()].filter((path) => !live.has(path)) };
}

/** The source of a restored share that is not the indexed file's: equal to no file's source. */
const STALE = Symbol('stale share');

/** Past this share of changed files a table is rebuilt rather than updated. */
const REBUILD_SHARE = 0.25;

/**
 * How many workspace-wide tables have been started for an index so far (built or restored from
 * nothing): retrieval's prepare phase must start every one a request reads, so that the first
 * request after "ready" builds none (tests compare this before and after a request).
 */
let tablesStarted = 0;
export const workspaceTablesStarted = (): number => tablesStarted;

/** One file's share of a workspace-wide table, and what it was derived from (compared by identity). */
interface FilePart<P> { source: unknown; part: P }
/** A file whose share changed at a new index version: its old share (if any) and its new one (if still indexed). */
export interface PartChange<P> { path: string; before?: P; after?: P }

/**
 * A workspace-wide table kept in step with the index file by file. At a new index version only
 * the files whose `source` (their facts or their resolution object: both are replaced, never
 * edited, when a file changes or is re-resolved) is not the one seen before are handed to `apply`
 * with their old and new shares; a one-file edit costs one file, not the workspace. `apply` must
 * leave the table exactly as building it from scratch would (checked by the consistency tests),
 * for lookups: a Map's iteration order follows the edit history, so tables are read with get().
 */
export function perIndexVersionIncremental<T, P, C = undefined>(spec: {
  source: (f: IndexedFile) => unknown;
  /** `context`: what the caller passed along, for shares that need more than the index (a file's text). */
  part: (f: IndexedFile, context: C) => P;
  create: () => T;
  apply: (table: T, changes: PartChange<P>[], index: WorkspaceIndex) => void;
  /**
   * false: always update, never rebuild from the shares (for a table that takes what it needs
   * out of a share when it is added, and keeps the rest itself).
   */
  rebuildOnManyChanges?: boolean;
  /**
   * With rebuildOnManyChanges false: hand the changes to `apply` this many files at a time, so a
   * first build never holds every file's share at once (the similar-code corpus's shares carry
   * every identifier of their file: the whole JDK's would be most of a gigabyte together).
   */
  batch?: number;
  /** Called after the last `apply` of a version; `first`: the table was built from nothing. */
  finish?: (table: T, first: boolean) => void;
  /**
   * A table saved in its finished form by an earlier start, with each file's share and the
   * content hash it was derived from (undefined: not known to be the indexed text's), taken on
   * the first build instead of an empty table. A file whose indexed hash is another, or that is
   * gone, or new, is then updated as after an edit, so the table is the one a fresh build makes.
   */
  restore?: (context: C) => { table: T; parts: Map<string, { hash?: string; part: P }> } | undefined;
}): (index: WorkspaceIndex, context?: C) => T {
  const cache = new WeakMap<WorkspaceIndex, { version: number; seq: number; table: T; parts: Map<string, FilePart<P>> }>();
  return (index, context) => {
    let c = cache.get(index);
    if (c && c.version === index.version) return c.table;
    let first = !c;
    if (!c) {
      tablesStarted++;
      const restored = spec.restore?.(context as C);
      cache.set(index, (c = { version: -1, seq: 0, table: restored?.table ?? spec.create(), parts: new Map() }));
      for (const [path, { hash, part }] of restored?.parts ?? []) {
        const f = index.file(path);
        // A share of other text is handed to `apply` as the one to take out (its source matches nothing).
        c.parts.set(path, { source: f && hash !== undefined && f.hash === hash ? spec.source(f) : STALE, part });
      }
      if (restored) first = false;
    }
    const changes: PartChange<P>[] = [];
    const batch = spec.rebuildOnManyChanges === false ? spec.batch ?? Infinity : Infinity;
    const take = (f: IndexedFile) => {
      const old = c.parts.get(f.path);
      const source = spec.source(f);
      if (old && old.source === source) return;
      const part = spec.part(f, context as C);
      changes.push({ path: f.path, before: old?.part, after: part });
      c.parts.set(f.path, { source, part });
      if (changes.length >= batch) spec.apply(c.table, changes.splice(0), index);
    };
    // A restored table's shares are compared with every file first.
    const { files, gone } = filesToCompare(index, c.version < 0 ? undefined : c.seq, c.parts, 'index');
    c.seq = index.changeSeq;
    for (const f of files) take(f);
    for (const path of gone) { changes.push({ path, before: c.parts.get(path)!.part }); c.parts.delete(path); }
    if (spec.rebuildOnManyChanges !== false && changes.length > REBUILD_SHARE * c.parts.size) {
      // Most files changed (a cascade after an edit to a popular type, a branch switch):
      // building afresh is cheaper than taking every old share out first.
      c.table = spec.create();
      spec.apply(c.table, [...c.parts].map(([path, p]) => ({ path, after: p.part })), index);
    } else if (changes.length) spec.apply(c.table, changes, index);
    spec.finish?.(c.table, first);
    c.version = index.version;
    return c.table;
  };
}

/** A file's non-local declarations `keep` accepts: name -> ids in source order. */
function namesOf(facts: IndexedFile['facts'], keep: (s: SymbolFact) => boolean): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const s of facts.symbols) {
    if (s.local || s.anonymous || !keep(s)) continue;
    const ids = out.get(s.name);
    if (ids) ids.push(s.id);
    else out.set(s.name, [s.id]);
  }
  return out;
}

/**
 * A names table: per name the answer `out`; every declaration of the name in (path, source
 * order), `all`, only where that differs from `out` (an id in two files, or sorted ids out of
 * path order); and the file of each, `paths`, one string when they are all in one file (most
 * names). No per-file copy: a file's share is its facts, and its names are derived again when it goes.
 */
interface NamesState { out: Map<string, string[]>; all: Map<string, string[]>; paths: Map<string, string | string[]> }

/**
 * Simple name -> ids of the declarations `keep` accepts, unique, in file-path then source order
 * (or sorted, `sortIds`). An edit recomputes only the names the edited files declare(d), each in
 * the number of its declarations.
 */
function namesTable(keep: (s: SymbolFact) => boolean, sortIds: boolean) {
  return perIndexVersionIncremental({
    source: (f) => f.facts,
    part: (f) => f.facts,
    create: (): NamesState => ({ out: new Map(), all: new Map(), paths: new Map() }),
    apply: (t, changes) => {
      // The touched names' entries, copied once per apply (a caller may hold the arrays handed out).
      const work = new Map<string, { ids: string[]; paths: string[] }>();
      const byPath = [...changes].sort((a, b) => (a.path < b.path ? -1 : 1));
      const first = !t.out.size && changes.every((ch) => !ch.before);
      if (first) {
        // A first build: every file's declarations appended in path then source order, as below,
        // without a map of names per file or a search for where each file's entries go.
        for (const ch of byPath) for (const s of ch.after?.symbols ?? []) {
          if (s.local || s.anonymous || !keep(s)) continue;
          const w = work.get(s.name);
          if (w) { w.ids.push(s.id); w.paths.push(ch.path); } else work.set(s.name, { ids: [s.id], paths: [ch.path] });
        }
      }
      const entriesOf = (name: string) => {
        let w = work.get(name);
        if (!w) {
          const ids = [...(t.all.get(name) ?? t.out.get(name) ?? [])], p = t.paths.get(name);
          work.set(name, (w = { ids, paths: typeof p === 'string' ? ids.map(() => p) : [...(p ?? [])] }));
        }
        return w;
      };
      // In path order, so that an added file's entries mostly append.
      if (!first) for (const ch of byPath) {
        for (const name of ch.before ? namesOf(ch.before, keep).keys() : []) {
          const w = entriesOf(name);
          const from = lowerBound(w.paths, ch.path);
          let to = from;
          while (to < w.paths.length && w.paths[to] === ch.path) to++;
          w.ids.splice(from, to - from);
          w.paths.splice(from, to - from);
        }
        for (const [name, ids] of ch.after ? namesOf(ch.after, keep) : []) {
          const w = entriesOf(name);
          const at = lowerBound(w.paths, ch.path);
          if (at === w.paths.length) { for (const id of ids) { w.ids.push(id); w.paths.push(ch.path); } }
          else { w.ids.splice(at, 0, ...ids); w.paths.splice(at, 0, ...ids.map(() => ch.path)); }
        }
      }
      for (const [name, w] of work) {
        if (!w.ids.length) { t.out.delete(name); t.all.delete(name); t.paths.delete(name); continue; }
        // Most names have one declaration: no set, comparison or copies for them (a warm start of the whole JDK makes both tables).
        if (w.ids.length === 1) { t.out.set(name, [w.ids[0]]); t.all.delete(name); t.paths.set(name, w.paths[0]); continue; }
        // Exact-size copies: arrays grown by push keep spare room (a one-element array, 17 slots).
        const unique = [...new Set(w.ids)];
        if (sortIds) unique.sort();
        const same = unique.length === w.ids.length && unique.every((id, i) => id === w.ids[i]);
        t.out.set(name, unique);
        if (same) t.all.delete(name); else t.all.set(name, w.ids.slice());
        t.paths.set(name, w.paths.every((p) => p === w.paths[0]) ? w.paths[0] : w.paths.slice());
      }
    },
  });
}

const typesTable = namesTable((s) => isTypeKind(s.kind), true);
const declarationsTable = namesTable(() => true, false);

/** Simple type name -> ids of internal types with that name (sorted), per index version. */
export const typesBySimpleName = (index: WorkspaceIndex): Map<string, string[]> => typesTable(index).out;

/** Simple member/type name -> ids of every declaration with that name, per index version. */
export const declarationsByName = (index: WorkspaceIndex): Map<string, string[]> => declarationsTable(index).out;

export function isType(sym: SymbolFact): boolean {
  return isTypeKind(sym.kind);
}

/** Declaration id -> how many distinct declarations use it (imports and supertypes aside), per index version. */
export const usageCounts = (index: WorkspaceIndex): Map<string, number> => usageTable(index).out;

/**
 * A resolution's uses as its distinct (target id, user id) pairs, flat: [to, from, to, from, ...],
 * derived when the file comes and again when it goes: the table's share of a file is the index's
 * own resolution object, so no copy of the pairs is held (on the whole JDK they were most of the
 * table's heap).
 */
function usesOf(r: IndexedFile['resolution']): string[] {
  const edges = r?.edges ?? EdgeList.EMPTY;
  const seen = new Set<number>(); // (target, user) pairs as their slots in the file's id table
  const out: string[] = [];
  for (let i = 0; i < edges.length; i++) {
    const kind = edges.kind(i);
    if (kind === 'imports' || kind === 'extends' || kind === 'implements') continue;
    const pair = edges.toSlot(i) * edges.idCount + edges.fromSlot(i);
    if (seen.has(pair)) continue;
    seen.add(pair);
    out.push(edges.to(i), edges.from(i));
  }
  return out;
}

/**
 * Per target, its distinct users as one array (not a Map of user -> files: on the whole JDK that
 * was a Map entry per pair), sorted once it is read or edited: a first build sorts only the arrays
 * it must (sorting the whole JDK's 1.2 M user ids was a third of the table's build, and a request
 * reads the users of a few targets); `sorted` names the arrays that are. A user declared in two
 * files (a declaration id in two folders) can use a target from both: the files beyond the first
 * are counted in `repeats`, by pair, which only such ids ever enter (a reference's user is a
 * declaration of its own file), so only the targets such users use are sorted to count them. The
 * count is the number of distinct users.
 */
interface UsageState { out: Map<string, number>; users: Map<string, string[]>; repeats: Map<string, number>; sorted: Set<string> }

/** The target's users, sorted (a first build leaves most arrays as it collected them). */
function sortedUsers(t: UsageState, to: string): string[] | undefined {
  const users = t.users.get(to);
  if (users && !t.sorted.has(to)) { users.sort(); t.sorted.add(to); }
  return users;
}

const usageTable = perIndexVersionIncremental({
  source: (f) => f.resolution,
  part: (f) => f.resolution,
  create: (): UsageState => ({ out: new Map(), users: new Map(), repeats: new Map(), sorted: new Set() }),
  apply: (t, changes, index) => {
    const touched = new Set<string>();
    const pairKey = (to: string, u: string) => `${to}\n${u}`;
    if (!t.users.size && changes.every((ch) => !ch.before)) {
      // A first build: every pair at once (inserting one by one is quadratic in a popular
      // target's users); only a target that a user declared in several files uses can hold a
      // pair twice, and only such targets are sorted now, to count the repeats.
      const mayRepeat = new Set<string>();
      for (const ch of changes) {
        const after = usesOf(ch.after);
        for (let i = 0; i < after.length; i += 2) {
          const users = t.users.get(after[i]);
          if (users) users.push(after[i + 1]); else t.users.set(after[i], [after[i + 1]]);
          if (index.declaredInSeveralFiles(after[i + 1])) mayRepeat.add(after[i]);
        }
      }
      for (const [to, users] of t.users) {
        let n = users.length;
        if (mayRepeat.has(to)) {
          users.sort();
          t.sorted.add(to);
          n = 0;
          for (let i = 0; i < users.length; i++) {
            if (n && users[n - 1] === users[i]) { const k = pairKey(to, users[i]); t.repeats.set(k, (t.repeats.get(k) ?? 0) + 1); continue; }
            users[n++] = users[i];
          }
        }
        t.users.set(to, users.slice(0, n)); // exact size: pushes leave spare room
        t.out.set(to, n);
      }
      return;
    }
    for (const ch of changes) {
      const before = usesOf(ch.before), after = usesOf(ch.after);
      for (let i = 0; i < before.length; i += 2) {
        const to = before[i], u = before[i + 1], k = pairKey(to, u);
        const r = t.repeats.get(k);
        if (r) { if (r > 1) t.repeats.set(k, r - 1); else t.repeats.delete(k); continue; }
        const users = sortedUsers(t, to)!;
        users.splice(lowerBound(users, u), 1);
        touched.add(to);
      }
      for (let i = 0; i < after.length; i += 2) {
        const to = after[i], u = after[i + 1];
        let users = sortedUsers(t, to);
        if (!users) { t.users.set(to, (users = [])); t.sorted.add(to); }
        const at = lowerBound(users, u);
        if (users[at] === u) { const k = pairKey(to, u); t.repeats.set(k, (t.repeats.get(k) ?? 0) + 1); continue; }
        users.splice(at, 0, u);
        touched.add(to);
      }
    }
    for (const to of touched) {
      const n = t.users.get(to)?.length ?? 0;
      if (n) t.out.set(to, n);
      else { t.users.delete(to); t.out.delete(to); t.sorted.delete(to); }
    }
  },
});

/** The distinct declarations that use `id` (imports and supertypes aside), sorted, per index version. */
export function usersOf(index: WorkspaceIndex, id: string): string[] {
  return [...(sortedUsers(usageTable(index), id) ?? [])];
}

/** A file's extends/implements edges as [supertype, subtype] pairs: its share of the subtype table. */
function supertypePairsOf(r: IndexedFile['resolution']): [string, string][] {
  const out: [string, string][] = [];
  const edges = r?.edges ?? EdgeList.EMPTY;
  for (let i = 0; i < edges.length; i++) if (edges.kind(i) === 'extends' || edges.kind(i) === 'implements') out.push([edges.to(i), edges.from(i)]);
  return out;
}

/**
 * Direct subtypes by supertype id, from the resolved extends/implements edges, kept in step with
 * the index file by file (perIndexVersionIncremental): an edit re-reads the edited file's edges,
 * not every file's (a full scan per index version was most of the gate's own time on the larger
 * corpora, where every keystroke is a new version). Per supertype, each subtype with the number of
 * files declaring that pair (a type id can live in two folders); lists are sorted on read.
 */
const subtypeTable = perIndexVersionIncremental({
  source: (f) => f.resolution,
  part: (f) => supertypePairsOf(f.resolution),
  create: () => ({ subs: new Map<string, Map<string, number>>(), sorted: new Map<string, string[]>() }),
  apply: (t, changes) => {
    for (const ch of changes) {
      for (const [sup, sub] of ch.before ?? []) {
        const subs = t.subs.get(sup)!;
        const n = subs.get(sub)! - 1;
        if (n) subs.set(sub, n); else subs.delete(sub);
        if (!subs.size) t.subs.delete(sup);
        t.sorted.delete(sup);
      }
      for (const [sup, sub] of ch.after ?? []) {
        let subs = t.subs.get(sup);
        if (!subs) t.subs.set(sup, (subs = new Map()));
        subs.set(sub, (subs.get(sub) ?? 0) + 1);
        t.sorted.delete(sup);
      }
    }
  },
});

/** The direct internal subtypes of a type id, sorted. */
export function directSubtypesOf(index: WorkspaceIndex, id: string): readonly string[] {
  const t = subtypeTable(index);
  let list = t.sorted.get(id);
  if (!list) t.sorted.set(id, (list = [...(t.subs.get(id)?.keys() ?? [])].sort()));
  return list;
}
