// Turning ranked declarations into items: each declaration is an entry (signature + Javadoc
// first sentence), and entries are packed per owning type into one compact item, so many
// candidates fit the budget and a model reads them grouped the way the code is. Token counts
// are exact (the packer re-counts a group whenever an entry joins it, reusing what did not change).

import type { ItemSource } from '../../../shared/protocol';
import type { SymbolRef } from '../index/workspaceIndex';
import type { FileFacts, SymbolFact } from '../java/facts';
import { isTypeKind } from '../java/symbols';
import type { PipelineRequest } from './request';
import { declarationLines, headerLines, type Shown } from './prune';
import { outline, OutlineMemo, type OutlineLine } from './outline';
import { compactIndent, joinShown, type ShownLine } from '../render/shownLines';
import { signatureLines } from './symbols';
import { countTokens } from './cap';
import { BoundedMemo } from '../text/boundedMemo';
import type { NeedleItem } from './types';
import { hostPaths } from '../platform/paths';

export interface Entry {
  id: string;
  group: string;
  ref: SymbolRef;
  score: number;
  sources: ItemSource[];
  shown: Shown;
  /** Whether the Javadoc's first sentence is shown (declarationLines' `doc`). */
  doc: boolean;
}

/** The lines of recently read files, with the text they were split from. */
const linesCache = new BoundedMemo<string, { text: string; lines: string[] }>(500);

export function linesOf(req: PipelineRequest, path: string): string[] {
  const text = req.textOf(path) ?? '';
  const c = linesCache.peek(path);
  if (c && c.text === text) return c.lines;
  const lines = text.split('\n');
  linesCache.set(path, { text, lines });
  return lines;
}

export function uriOf(path: string): string {
  return hostPaths.toUri(path);
}

/** Entries are grouped per file-level type: a top-level type with its nested types. */
export function groupOf(ref: SymbolRef): string {
  let i = ref.index;
  while (ref.file.facts.symbols[i].parent >= 0) i = ref.file.facts.symbols[i].parent;
  return ref.file.facts.symbols[i].id;
}

export function entryFor(req: PipelineRequest, ref: SymbolRef, score: number, sources: ItemSource[], doc = true): Entry {
  return { id: ref.sym.id, group: groupOf(ref), ref, score, sources, doc, shown: declarationLines(ref, linesOf(req, ref.file.path), { doc }) };
}

/** A group as a packer rendered it: opaque outside this module. */
export type RenderedGroup = Readonly<Group>;

interface Group { id: string; type?: SymbolRef; entries: Entry[]; tokens: number; shown: ShownLine[]; start: number; end: number; shownTypes: string[]; memo: RenderMemo }

/**
 * What renderGroup reuses from one render of a group to the next: packing renders a group again
 * at every candidate it weighs for it, with one entry more, and most of the group is as it was.
 * Every version of a group shares its memo; every value in it is a pure function of its key and
 * the file's lines, so a render with it is the render without it.
 */
class RenderMemo {
  readonly outline = new OutlineMemo();
  private lines?: string[];
  /** Header lines per type (the same objects each render, so their run's count is reused too). */
  private headers = new Map<string, OutlineLine[]>();
  /** Each shown line with its indentation compacted (the same object each render). */
  private compacted = new WeakMap<ShownLine, ShownLine>();
  private unit?: { lines: string[]; spaces: number };
  /** A run's token count by its first line, with the texts it was counted for. */
  private runs = new WeakMap<ShownLine, { texts: string[]; tokens: number }>();

  headerLines(sym: SymbolFact, lines: string[]): OutlineLine[] {
    if (lines !== this.lines) { this.lines = lines; this.headers.clear(); }
    let h = this.headers.get(sym.id);
    if (!h) this.headers.set(sym.id, (h = headerLines(sym, lines)));
    return h;
  }

  /** The line as the group shows it: its indentation one space per level of the file's indentation. */
  compact(s: ShownLine, facts: FileFacts, lines: string[]): ShownLine {
    let c = this.compacted.get(s);
    if (!c) {
      if (this.unit?.lines !== lines) this.unit = { lines, spaces: indentUnit(facts, lines) };
      this.compacted.set(s, (c = compactIndent(s, this.unit.spaces)));
    }
    return c;
  }

  /** countTokens of the run's texts joined by newlines. */
  runTokens(first: ShownLine, texts: string[]): number {
    const known = this.runs.get(first);
    if (known && known.texts.length === texts.length && known.texts.every((t, i) => t === texts[i])) return known.tokens;
    const tokens = countTokens(texts.join('\n'));
    this.runs.set(first, { texts, tokens });
    return tokens;
  }
}

/**
 * Spaces per indentation level in a file: the indentation of the first member of its first
 * top-level type, when spaces (4 when there is none, or it is a tab).
 */
export function indentUnit(facts: FileFacts, lines: string[]): number {
  const member = facts.symbols.find((s) => s.parent >= 0 && facts.symbols[s.parent].parent < 0);
  const lead = member ? /^ */.exec(lines[member.span.sl] ?? '')![0].length : 0;
  return lead > 0 ? lead : 4;
}

function renderGroup(req: PipelineRequest, g: Group): void {
  const entries = [...g.entries].sort((a, b) => a.shown.start - b.shown.start || (a.id < b.id ? -1 : 1));
  const parts: OutlineLine[] = [];
  /** Which part of the token count each line belongs to: an entry's lines are counted together. */
  const block: number[] = [];
  const push = (ls: OutlineLine[], b: number) => { for (const x of ls) { parts.push(x); block.push(b); } };
  let start = Infinity, end = -1;
  const facts = (g.type ?? entries[0].ref).file.facts;
  const lines = linesOf(req, (g.type ?? entries[0].ref).file.path);
  const self = entries.find((e) => e.id === g.id);
  if (g.type) {
    // No written header naming the type (`// p.Box (class)`, 12 tokens a group): the type's own
    // declaration line follows at once, and the file's path (each item's uri, the renderer's
    // section title) gives its package.
    if (self) push(self.shown.lines, entries.indexOf(self));
    else push(g.memo.headerLines(g.type.sym, lines), -2);
    start = g.type.sym.span.sl;
    end = signatureLines(g.type.sym, lines).end;
  }
  // Nested types' headers precede their first shown member (once), so every member reads in place.
  const emitted = new Set<string>([g.id]);
  entries.forEach((e, i) => {
    if (e === self) return;
    const chain: SymbolFact[] = [];
    for (let p = e.ref.sym.parent; p >= 0; p = facts.symbols[p].parent) {
      const s = facts.symbols[p];
      if (isTypeKind(s.kind) && !emitted.has(s.id)) chain.unshift(s);
    }
    for (const s of chain) {
      emitted.add(s.id);
      const sig = signatureLines(s, lines);
      push(g.memo.headerLines(s, lines), -3 - i);
      start = Math.min(start, sig.start);
      end = Math.max(end, sig.end);
    }
    if (isTypeKind(e.ref.sym.kind)) emitted.add(e.id);
    push(e.shown.lines, i);
    start = Math.min(start, e.shown.start);
    end = Math.max(end, e.shown.end);
  });
  g.shownTypes = [...emitted].sort();
  start = start === Infinity ? 0 : start;
  // Gaps are marked from the group's type header to its last member (the closing brace is not shown).
  const extentEnd = g.type ? Math.max(end, g.type.sym.span.el - 1) : end;
  const verbatim = outline(facts, lines, parts, { start, end: extentEnd }, g.memo.outline);
  g.shown = verbatim.map((s) => g.memo.compact(s, facts, lines));
  // Packing re-renders a group on every addition; counting the whole text each time would be
  // quadratic. Each entry's lines are counted together (cached), every other line alone, and each
  // joining newline as one token: an upper bound, since BPE merges across a boundary only lower
  // the count. items() counts exactly.
  const blockOf = new Map<OutlineLine | ShownLine, number>();
  /** A folded line is a new line object: it counts with the entry whose verbatim line it extends. */
  const blockOfLine = new Map<number, number>();
  parts.forEach((p, i) => { blockOf.set(p, block[i]); if (!p.at.written) blockOfLine.set(p.at.line, block[i]); });
  let tokens = 0, run: string[] = [], runFirst: ShownLine | undefined, runBlock: number | undefined, pieces = 0;
  const flush = () => { if (run.length) { tokens += g.memo.runTokens(runFirst!, run); pieces++; } run = []; };
  for (let i = 0; i < verbatim.length; i++) {
    const s = verbatim[i];
    const b = blockOf.get(s) ?? (!s.at.written && s.at.hidden ? blockOfLine.get(s.at.line) : undefined);
    if (b === undefined || b !== runBlock) { flush(); runBlock = b; }
    if (!run.length) runFirst = s;
    run.push(g.shown[i].text);
    if (b === undefined) { flush(); runBlock = undefined; }
  }
  flush();
  g.tokens = tokens + Math.max(0, pieces - 1);
  g.start = start;
  // A stretch shown instead of its marker (outline.ts) may reach past the last declaration.
  let last = end;
  for (const s of g.shown) if (!s.at.written && s.at.line > last) last = s.at.line;
  g.end = Math.max(last, g.start);
}

/** Packs entries into per-type items under a token budget (exact counts). */
export class Packer {
  private groups = new Map<string, Group>();
  private order: string[] = [];
  /** Per group, its render memo, kept when a new group is refused, for the type's next candidate. */
  private memos = new Map<string, RenderMemo>();
  total: number;

  constructor(private req: PipelineRequest, private budget: number, baseTokens: number) {
    this.total = baseTokens;
  }

  /**
   * A packer holding the same groups, each as rendered: a group is never changed once rendered
   * (an addition renders a new one), so the two share them and go on apart.
   */
  clone(): Packer {
    const c = new Packer(this.req, this.budget, this.total);
    c.groups = new Map(this.groups);
    c.order = [...this.order];
    c.memos = new Map(this.memos);
    return c;
  }

  /** The groups as rendered, by group id (see clone). */
  renderedGroups(): ReadonlyMap<string, RenderedGroup> {
    return new Map(this.groups);
  }

  /**
   * Takes a group another packer rendered, when its entries are exactly `entries` (id and Javadoc,
   * in order), so it is the group those entries would render to; returns whether it did. The
   * packer must not hold the group yet.
   */
  adopt(g: RenderedGroup, entries: readonly { id: string; doc: boolean }[]): boolean {
    if (this.groups.has(g.id) || g.entries.length !== entries.length || g.entries.some((e, i) => e.id !== entries[i].id || e.doc !== entries[i].doc)) return false;
    this.groups.set(g.id, g);
    this.order.push(g.id);
    this.memos.set(g.id, g.memo);
    this.total += g.tokens;
    return true;
  }

  get count(): number {
    let n = 0;
    for (const g of this.groups.values()) n += g.entries.length;
    return n;
  }

  get groupCount(): number {
    return this.groups.size;
  }

  private newGroup(id: string, entries: Entry[]): Group {
    let memo = this.memos.get(id);
    if (!memo) this.memos.set(id, (memo = new RenderMemo()));
    return { id, type: this.req.index.symbol(id), entries, tokens: 0, shown: [], start: 0, end: 0, shownTypes: [], memo };
  }

  hasGroup(group: string): boolean {
    return this.groups.has(group);
  }

  has(id: string): boolean {
    for (const g of this.groups.values()) if (g.entries.some((e) => e.id === id)) return true;
    return false;
  }

  /**
   * Adds an entry if the packed set still fits and `accept` (given the tokens the entry adds: its
   * lines, a new group's header, less the gap marker it splits) agrees; returns whether it did.
   */
  tryAdd(e: Entry, accept: (delta: number) => boolean = () => true): boolean {
    if (this.has(e.id)) return true;
    const existing = this.groups.get(e.group);
    const g: Group = existing ? { ...existing, entries: [...existing.entries, e] } : this.newGroup(e.group, [e]);
    renderGroup(this.req, g);
    const delta = g.tokens - (existing?.tokens ?? 0);
    if (this.total + delta > this.budget || !accept(delta)) return false;
    this.total += delta;
    this.groups.set(e.group, g);
    if (!existing) this.order.push(e.group);
    return true;
  }

  /**
   * Adds entries with no budget check, rendering each touched group once (tryAdd renders per
   * entry, which is quadratic when a shown group is re-packed with all its members).
   */
  addAll(es: Entry[]): void {
    const touched = new Map<string, Group>();
    for (const e of es) {
      if (this.has(e.id) || touched.get(e.group)?.entries.some((x) => x.id === e.id)) continue;
      let g = touched.get(e.group);
      if (!g) {
        const existing = this.groups.get(e.group);
        g = existing ? { ...existing, entries: [...existing.entries] } : this.newGroup(e.group, []);
        touched.set(e.group, g);
      }
      g.entries.push(e);
    }
    for (const [id, g] of touched) {
      const before = this.groups.get(id)?.tokens ?? 0;
      renderGroup(this.req, g);
      this.total += g.tokens - before;
      if (!this.groups.has(id)) this.order.push(id);
      this.groups.set(id, g);
    }
  }

  items(): NeedleItem[] {
    const out: NeedleItem[] = [];
    for (const id of this.order) {
      const g = this.groups.get(id)!;
      const path = g.type?.file.path ?? g.entries[0].ref.file.path;
      const lines = linesOf(this.req, path);
      const sources: ItemSource[] = [];
      for (const e of g.entries) for (const s of e.sources) if (!sources.includes(s)) sources.push(s);
      const symbols = [...new Set([...(g.type ? [g.id] : []), ...g.shownTypes, ...g.entries.map((e) => e.id)])];
      const { text, sourceLines } = joinShown(g.shown);
      out.push({
        uri: uriOf(path),
        range: { start: { line: g.start, character: 0 }, end: { line: g.end, character: (lines[g.end] ?? '').length } },
        symbol: g.type ? g.id : g.entries[0].id,
        kind: g.type ? g.type.sym.kind : g.entries[0].ref.sym.kind,
        text,
        tokens: countTokens(text),
        score: round(Math.max(...g.entries.map((e) => e.score))),
        sources: sources.sort(),
        untrusted: true,
        sourceLines,
        symbols,
        entries: g.entries.map((e) => ({ id: e.id, doc: e.doc })),
      });
    }
    return out;
  }
}

export function round(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}
