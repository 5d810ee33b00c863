// How a Java item's lines are cut: the declarations chosen for it (each as the shown lines
// declarationLines gives), put in source order with every source line once, and every stretch of
// source left out marked where it is: `// … 3 members`, `// … 2 constants` (an enum never loses
// constants silently), `// … 6 lines`, the rest of a body folded onto its opening line as `{ … }`,
// unless the stretch's own lines cost no more tokens than its marker: then they are shown instead. Which declarations are chosen is decided
// elsewhere; this module only cuts.

import type { FileFacts, SymbolFact } from '../java/facts';
import { FOLD, foldBodies, gapLine, bySourceOrder, type Folds, type ShownLine } from '../render/shownLines';
import { countTokens } from './cap';
import { BoundedMemo } from '../text/boundedMemo';

/** A shown line plus, for a Javadoc summary, the Javadoc lines it stands for (not a gap). */
export type OutlineLine = ShownLine & { summarises?: { start: number; end: number } };

export function verbatimLine(lines: string[], l: number): OutlineLine {
  return { text: lines[l] ?? '', at: { line: l } };
}

const indentOf = (s: string) => /^\s*/.exec(s)![0];
const isBlank = (s: string | undefined) => !s || !s.trim();

/**
 * The lines of `parts` (several declarations' shown lines, possibly overlapping) in source order,
 * each source line once, with every hidden stretch from `extent.start` to `extent.end` marked.
 * Hidden declarations are counted by the outermost one starting in the stretch; a stretch with
 * none is counted in lines. Blank lines and the Javadoc a summary stands for are not gaps.
 */
export function outline(facts: FileFacts, lines: string[], parts: OutlineLine[], extent: { start: number; end: number }, memo?: OutlineMemo): ShownLine[] {
  const reuse = memo?.of(facts, lines, extent.start);
  const out: ShownLine[] = [];
  const verbatim = new Set<number>();
  /** Source lines shown, hidden behind a marker or summarised, as [start, end] ranges. */
  const accounted: [number, number][] = [];
  const seen = new Set<string>();
  /** Markers of Javadocs left out whole: placed once every other part is accounted (below). */
  const javadocGaps: ShownLine[] = [];
  for (const p of parts) {
    if (p.at.written === 'gap' && p.at.hidden?.javadoc) { javadocGaps.push(p); continue; }
    if (!p.at.written) {
      if (verbatim.has(p.at.line)) continue;
      verbatim.add(p.at.line);
      accounted.push([p.at.line, p.at.line]);
      out.push(p);
      continue;
    }
    const key = writtenKey(p, reuse);
    if (seen.has(key)) continue;
    seen.add(key);
    // A body folds onto its opening line: what stands for it then is the fold, not a marker line.
    const plain = p.at.written === 'gap' && p.at.hidden ? partInstead(lines, p, reuse) : undefined;
    if (plain) {
      for (const l of plain) if (!verbatim.has(l.at.line)) { verbatim.add(l.at.line); out.push(l); }
      accounted.push([p.at.hidden!.start, p.at.hidden!.end]);
      continue;
    }
    out.push(p);
    const r = p.at.hidden ?? p.summarises;
    if (r) accounted.push([r.start, r.end]);
  }
  // A summary whose Javadoc another part shows whole says nothing more.
  const kept = out.filter((s) => s.at.written !== 'doc' || !verbatim.has(s.at.line - 1) || !(lines[s.at.line - 1] ?? '').trim().endsWith('*/'));
  // A Javadoc left out right after hidden declarations joins their stretch: one marker
  // (`// … 3 members` hides the next member's Javadoc too) instead of two lines, three or four tokens fewer.
  // Otherwise (after a shown line, or after lines that are no declaration, such as a closing
  // brace) it keeps its own `/** … */`.
  const decls = declarationsByLine(facts);
  const isAccounted = (l: number) => accounted.some(([a, b]) => a <= l && l <= b);
  for (const g of javadocGaps.sort((a, b) => a.at.hidden!.start - b.at.hidden!.start)) {
    const h = g.at.hidden!;
    if (isAccounted(h.start)) continue;
    const from = accounted.reduce((f, [, b]) => (b < h.start ? Math.max(f, b + 1) : f), extent.start);
    const first = decls[firstFrom(decls, from)];
    if (from <= extent.end && first && first.span.sl < h.start) continue;
    const key = `${g.at.line}:${h.start}`;
    if (seen.has(key)) continue;
    seen.add(key);
    kept.push(g);
    accounted.push([h.start, h.end]);
  }
  // Every stretch of the extent nothing accounts for is marked (blank lines at its ends aside).
  const mark = (from: number, to: number): void => {
    const key = from * STRETCH_KEY + to;
    const known = reuse?.stretches.get(key);
    if (known) { kept.push(...known); return; }
    const at = kept.length;
    markStretch(from, to);
    reuse?.stretches.set(key, kept.slice(at));
  };
  const markStretch = (from: number, to: number): void => {
    while (from <= to && isBlank(lines[from])) from++;
    while (to >= from && isBlank(lines[to])) to--;
    if (from > to) return;
    // An enum's constants come first: a stretch hiding constants and members is marked as two,
    // so the marker says how many constants it hides.
    const split = constantsEnd(facts, decls, from, to);
    if (split !== undefined && split < to) { markStretch(from, split); markStretch(split + 1, to); return; }
    const gap = gapFor(facts, lines, decls, from, to, extent);
    kept.push(...(shownInstead(lines, from, to, gap.text) ?? [gap]));
  };
  accounted.sort((a, b) => a[0] - b[0]);
  let next = extent.start;
  for (const [a, b] of accounted) {
    if (next > extent.end) break;
    if (b < next) continue;
    if (a > next) mark(next, Math.min(a - 1, extent.end));
    next = Math.max(next, b + 1);
  }
  if (next <= extent.end) mark(next, extent.end);
  return foldBodies(kept.sort(bySourceOrder), reuse?.folds);
}

/**
 * What outline() may reuse when it lays out one group again with one more declaration (items.ts
 * packing renders a group at every candidate): the lines marking each hidden stretch, each part's
 * shown-instead lines and each body's fold onto its opening line. Each is a pure function of the
 * file's facts and lines, the extent's start and the stretch, part or pair of lines, so reusing it
 * changes no output; most stretches of a group are the same from one candidate to the next, and
 * marking one walks every declaration it hides. A fold is then the same object each time, so the
 * group's token count of its run is reused too (items.ts RenderMemo).
 */
export class OutlineMemo {
  private key?: { facts: FileFacts; lines: string[]; start: number };
  private memo?: { stretches: Map<number, ShownLine[]>; instead: WeakMap<OutlineLine, OutlineLine[] | null>; folds: Folds; keys: WeakMap<OutlineLine, string> };

  /** The memo for this file version and extent start (a new one when either differs from the last). */
  of(facts: FileFacts, lines: string[], start: number): NonNullable<OutlineMemo['memo']> {
    const k = this.key;
    if (!this.memo || !k || k.facts !== facts || k.lines !== lines || k.start !== start) {
      this.key = { facts, lines, start };
      this.memo = { stretches: new Map(), instead: new WeakMap(), folds: new WeakMap(), keys: new WeakMap() };
    }
    return this.memo;
  }
}

/** A stretch's key in the memo: its first line times this, plus its last (lines are fewer than 2^22). */
const STRETCH_KEY = 2 ** 22;

/** What makes two written parts the same line (a declaration's header pushed by two parts is shown once). */
function writtenKey(p: OutlineLine, reuse: ReturnType<OutlineMemo['of']> | undefined): string {
  let key = reuse?.keys.get(p);
  if (key === undefined) {
    key = `${p.at.written}:${p.at.line}:${p.at.hidden?.start ?? ''}:${p.text}`;
    reuse?.keys.set(p, key);
  }
  return key;
}

/** A part's gap when its hidden lines cost no more than the marker (or fold) standing for them. */
function partInstead(lines: string[], p: OutlineLine, reuse: ReturnType<OutlineMemo['of']> | undefined): OutlineLine[] | undefined {
  const known = reuse?.instead.get(p);
  if (known !== undefined) return known ?? undefined;
  const h = p.at.hidden!;
  const plain = shownInstead(lines, h.start, h.end, h.body ? FOLD : p.text);
  reuse?.instead.set(p, plain ?? null);
  return plain;
}

/** A stretch this long or longer is never cheaper than its marker (a marker is one line). */
const MAX_INSTEAD_LINES = 3;

/**
 * The stretch's own lines when they cost no more tokens than the marker that would stand for them
 * (`DRAFT,` behind `// … 1 constant`, `}` after a body line): such a marker carries
 * nothing, so the source is shown instead. Undefined otherwise.
 */
function shownInstead(lines: string[], start: number, end: number, marker: string): OutlineLine[] | undefined {
  if (end - start + 1 > MAX_INSTEAD_LINES || end < start) return undefined;
  const own = lines.slice(start, end + 1);
  if (countTokens(own.join('\n')) > countTokens(marker)) return undefined;
  return own.map((_, i) => verbatimLine(lines, start + i));
}

/** Per facts object (facts are replaced, never edited), for as many files as retrieval keeps lines of (items.ts linesOf). */
const declarationsMemo = BoundedMemo.weak<FileFacts, SymbolFact[]>(512);

/** A file's non-local declarations sorted by first line. */
function declarationsByLine(facts: FileFacts): SymbolFact[] {
  return declarationsMemo.get(facts, () => facts.symbols.filter((s) => !s.local && !s.anonymous).sort((a, b) => a.span.sl - b.span.sl));
}

/** The index of the first declaration starting at or after `line`. */
function firstFrom(decls: SymbolFact[], line: number): number {
  let lo = 0, hi = decls.length;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (decls[mid].span.sl < line) lo = mid + 1; else hi = mid; }
  return lo;
}

/** The last line of the enum constants starting in a stretch that also hides other declarations after them. */
function constantsEnd(facts: FileFacts, decls: SymbolFact[], start: number, end: number): number | undefined {
  let last: number | undefined;
  for (let i = firstFrom(decls, start); i < decls.length && decls[i].span.sl <= end; i++) {
    const s = decls[i];
    const parent = s.parent >= 0 ? facts.symbols[s.parent] : undefined;
    if (parent && parent.span.sl >= start && parent.span.sl <= end) continue;
    if (s.kind === 'enumConstant') last = Math.max(last ?? -1, s.span.el);
    else if (last !== undefined) return last;
  }
  return undefined;
}

function gapFor(facts: FileFacts, lines: string[], decls: SymbolFact[], start: number, end: number, extent: { start: number }): ShownLine {
  const members: number[] = [];
  let constants = true;
  const first = firstFrom(decls, start);
  for (let i = first; i < decls.length && decls[i].span.sl <= end; i++) {
    const s = decls[i];
    const parent = s.parent >= 0 ? facts.symbols[s.parent] : undefined;
    // Outermost in the stretch: its parent starts before it (or it is top-level).
    if (parent && parent.span.sl >= start && parent.span.sl <= end) continue;
    members.push(s.span.sl);
    if (s.kind !== 'enumConstant') constants = false;
  }
  // Attributed to the innermost declaration around the stretch (the type whose members are
  // hidden): an ancestor (or self) of the last declaration starting before the stretch.
  let owner = extent.start;
  for (let s: SymbolFact | undefined = first > 0 ? decls[first - 1] : undefined; s; s = s.parent >= 0 ? facts.symbols[s.parent] : undefined) {
    if (s.span.el >= end) { owner = Math.max(owner, s.span.sl); break; }
  }
  let firstText = start;
  while (firstText <= end && isBlank(lines[firstText])) firstText++;
  const indent = indentOf(firstText <= end ? lines[firstText] : '');
  return gapLine(indent, owner, { start, end, members, ...(members.length && constants ? { constants: true } : {}) });
}
