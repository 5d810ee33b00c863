// Stage 6 (The Needle and the Noise §4 (6), SWE-Pruner): goal-scoped, line-preserving pruning. Everything is cut at
// whole lines, never inside one; every cut is marked with a line `// … N lines` that records the
// source lines it hides, or, for the rest of a body, folded onto the line that opens it as
// `{ … }` (outline.ts, render/shownLines.ts).
// Signatures are always kept. The cursor's own member keeps the lines around the cursor and
// the lines that mention the goal's identifiers; other declarations are shown as signature plus
// the Javadoc's first sentence (The Needle and the Noise: "signatures are enough to orient; bodies are noise").

import type { SymbolRef } from '../index/workspaceIndex';
import type { SymbolFact } from '../java/facts';
import type { Query } from './query';
import { docStartLine, docSummary, ownerType, signatureLines, membersOf } from './symbols';
import { identifiersIn } from '../text/identifiers';
import { isTypeKind } from '../java/symbols';
import { canFold, gapLine } from '../render/shownLines';
import { verbatimLine, type OutlineLine } from './outline';

/** The cursor's member is shown whole up to this many lines, else pruned around the cursor. */
export const ENCLOSING_MAX_LINES = 60;
/** Lines kept on each side of the cursor when pruning the cursor's member. */
export const CURSOR_WINDOW = 10;
/** Members listed in a type skeleton when the cursor is in a type body but outside any member. */
export const SKELETON_MAX_MEMBERS = 60;

export function indentOf(line: string): string {
  return line.match(/^\s*/)?.[0] ?? '';
}

/** Keeps the chosen line numbers of first..last (inclusive), each gap marked by a line standing for the declaration at `owner`. */
export function keepLines(lines: string[], first: number, last: number, keep: Set<number>, owner = first): OutlineLine[] {
  const out: OutlineLine[] = [];
  let gapStart = -1;
  const closeGap = (end: number) => {
    out.push(gapLine(indentOf(lines[gapStart] ?? '') || indentOf(lines[gapStart - 1] ?? ''), owner, { start: gapStart, end, members: [] }));
    gapStart = -1;
  };
  for (let l = first; l <= last; l++) {
    if (keep.has(l)) {
      if (gapStart >= 0) closeGap(l - 1);
      out.push(verbatimLine(lines, l));
    } else if (gapStart < 0) gapStart = l;
  }
  if (gapStart >= 0) closeGap(last);
  return out;
}

/** A declaration's (or pruned member's) shown lines and the source lines they span. */
export interface Shown { lines: OutlineLine[]; start: number; end: number }

/**
 * What the cursor's member needs from its class besides itself: the innermost type (its header
 * is shown) and the fields its text mentions. They are shown as declarations of the type's group,
 * in place, not copied into the member's item.
 */
export function enclosingContext(ref: SymbolRef, lines: string[]): SymbolRef[] {
  const owner = ownerType(ref);
  if (!owner || owner === ref) return [];
  const words = new Set(identifiersIn(lines.slice(docStartLine(ref.sym, lines), ref.sym.span.el + 1).join('\n')));
  return [owner, ...membersOf(owner).filter((m) => m.sym.kind === 'field' && words.has(m.sym.name))];
}

/** The cursor's own member (or type skeleton), goal-scoped. */
export function pruneEnclosing(q: Query, lines: string[], cursorLine: number): Shown | undefined {
  const ref = q.member ?? q.type;
  if (!ref) return undefined;
  if (!q.member && q.type) return skeleton(q.type, lines, cursorLine);
  const sym = ref.sym;
  const start = docStartLine(sym, lines);
  const end = sym.span.el;
  const keep = new Set<number>();
  if (end - start + 1 <= ENCLOSING_MAX_LINES) for (let l = start; l <= end; l++) keep.add(l);
  else {
    const sig = signatureLines(sym, lines);
    for (let l = start; l <= sig.end; l++) keep.add(l);
    for (let l = Math.max(start, cursorLine - CURSOR_WINDOW); l <= Math.min(end, cursorLine + CURSOR_WINDOW); l++) keep.add(l);
    const task = new Set([...q.queryIdentifiers, ...q.errors, ...q.strings]);
    for (let l = sig.end + 1; l < end; l++) if (identifiersIn(lines[l] ?? '').some((id) => task.has(id))) keep.add(l);
    keep.add(end);
  }
  return { lines: keepLines(lines, start, end, keep, sym.span.sl), start, end };
}

/** A type's header plus its members' signature lines around the cursor. */
function skeleton(type: SymbolRef, lines: string[], cursorLine: number): Shown {
  const keep = new Set<number>();
  const sig = signatureLines(type.sym, lines);
  for (let l = sig.start; l <= sig.end; l++) keep.add(l);
  for (const m of membersOf(type).slice(0, SKELETON_MAX_MEMBERS)) {
    const s = signatureLines(m.sym, lines);
    for (let l = s.start; l <= s.end; l++) keep.add(l);
  }
  for (let l = Math.max(type.sym.span.sl, cursorLine - 5); l <= Math.min(type.sym.span.el, cursorLine + 5); l++) keep.add(l);
  keep.add(type.sym.span.el);
  const owner = type.sym.parent >= 0 ? ownerType({ file: type.file, index: type.sym.parent, sym: type.file.facts.symbols[type.sym.parent] }) : undefined;
  const head = owner ? `// in ${owner.sym.id} (${owner.sym.kind})` : type.file.facts.package ? `// package ${type.file.facts.package}` : undefined;
  const at = type.sym.span.sl;
  return {
    lines: [...(head ? [{ text: head, at: { line: at, written: 'header' as const } }] : []), ...keepLines(lines, type.sym.span.sl, type.sym.span.el, keep, at)],
    start: type.sym.span.sl,
    end: type.sym.span.el,
  };
}

/**
 * A declaration as signature + Javadoc first sentence (+ a gap line for a body). With
 * `doc: false` the signature alone: what the gate's follow-up adds for a missing dependency
 * (coverage needs the signature; the sentence is the part a model can most often do without).
 * A type is its header only: its members are declarations of their own.
 */
export function declarationLines(ref: SymbolRef, lines: string[], options: { doc?: boolean } = {}): Shown {
  const sym = ref.sym;
  const sig = signatureLines(sym, lines);
  const indent = indentOf(lines[sig.start] ?? '');
  const doc = options.doc === false ? undefined : docSummary(sym.javadoc, 160);
  const out: OutlineLine[] = doc ? [] : javadocGap(sym, lines);
  if (doc) {
    const docStart = docStartLine(sym, lines);
    out.push({ text: `${indent}/** ${doc.replace(/\*\//g, '* /')} */`, at: { line: sym.span.sl, written: 'doc' }, ...(docStart < sym.span.sl ? { summarises: { start: docStart, end: sym.span.sl - 1 } } : {}) });
  }
  for (let l = sig.start; l <= sig.end; l++) out.push(verbatimLine(lines, l));
  const isTypeDecl = isTypeKind(sym.kind);
  // The rest of the body, through its closing brace: folded onto the signature as `{ … }` when the signature's last line opens it.
  if (!isTypeDecl && sym.span.el > sig.end) out.push(gapLine(indent + '    ', sym.span.sl, { start: sig.end + 1, end: sym.span.el, members: [], ...(canFold(lines[sig.end] ?? '') ? { body: true } : {}) }));
  return { lines: out, start: sig.start, end: isTypeDecl ? sig.end : sym.span.el };
}

/** A type's header as shown above its members: its signature lines, its Javadoc marked as left out. */
export function headerLines(sym: SymbolFact, lines: string[]): OutlineLine[] {
  const sig = signatureLines(sym, lines);
  const out = javadocGap(sym, lines);
  for (let l = sig.start; l <= sig.end; l++) out.push(verbatimLine(lines, l));
  return out;
}

/** The marker of a Javadoc left out whole (`/** … *\/`), or nothing when the declaration has none. */
function javadocGap(sym: SymbolFact, lines: string[]): OutlineLine[] {
  const start = docStartLine(sym, lines);
  if (start >= sym.span.sl) return [];
  return [gapLine(indentOf(lines[sym.span.sl] ?? ''), sym.span.sl, { start, end: sym.span.sl - 1, members: [], javadoc: true })];
}
