// Stage 6 (003 §4 (6), SWE-Pruner): goal-scoped, line-preserving pruning. Everything is cut at
// whole lines, never inside one; every cut is marked with a line `// … N lines elided`.
// Signatures are always kept. The cursor's own member keeps the lines around the cursor and
// the lines that mention the goal's identifiers; other declarations are shown as signature plus
// the Javadoc's first sentence (003: "signatures are enough to orient; bodies are noise").

import type { SymbolRef } from '../index/workspaceIndex';
import type { Query } from './query';
import { docStartLine, firstSentence, ownerType, signatureLines, membersOf } from './symbols';
import { identifiersIn } from '../text/identifiers';
import { isTypeKind } from '../java/symbols';

/** The cursor's member is shown whole up to this many lines, else pruned around the cursor. */
export const ENCLOSING_MAX_LINES = 60;
/** Lines kept on each side of the cursor when pruning the cursor's member. */
export const CURSOR_WINDOW = 10;
/** Members listed in a type skeleton when the cursor is in a type body but outside any member. */
export const SKELETON_MAX_MEMBERS = 60;

export function indentOf(line: string): string {
  return line.match(/^\s*/)?.[0] ?? '';
}

export function elision(n: number, indent: string): string {
  return `${indent}// … ${n} line${n === 1 ? '' : 's'} elided`;
}

/** Keeps the chosen line numbers (first..last inclusive range), marking each gap. */
export function keepLines(lines: string[], first: number, last: number, keep: Set<number>): string[] {
  const out: string[] = [];
  let gap = 0, gapIndent = '';
  for (let l = first; l <= last; l++) {
    if (keep.has(l)) {
      if (gap) out.push(elision(gap, gapIndent));
      gap = 0;
      out.push(lines[l] ?? '');
    } else {
      if (!gap) gapIndent = indentOf(lines[l] ?? '') || indentOf(lines[l - 1] ?? '');
      gap++;
    }
  }
  if (gap) out.push(elision(gap, gapIndent));
  return out;
}

export interface Shown { text: string; start: number; end: number }

/** Comment-marked context lines for the cursor's member: owner type header, fields it touches. */
function contextHeader(ref: SymbolRef, lines: string[], bodyWords: Set<string>): string[] {
  const owner = ownerType(ref);
  if (!owner || owner === ref) return [];
  const sig = signatureLines(owner.sym, lines);
  const out = [`// in ${owner.sym.id} (${owner.sym.kind}): ${lines[owner.sym.nameSpan.sl]?.trim() ?? ''}`];
  for (let l = sig.start; l <= sig.end; l++) if (l !== owner.sym.nameSpan.sl && lines[l]?.trim()) out.push(`//   ${lines[l].trim()}`);
  for (const m of membersOf(owner)) {
    if (m.sym.kind === 'field' && bodyWords.has(m.sym.name)) out.push(`// field: ${lines[m.sym.span.sl]?.trim() ?? ''}`);
  }
  return out;
}

/** The cursor's own member (or type skeleton), goal-scoped. */
export function pruneEnclosing(q: Query, lines: string[], cursorLine: number): Shown | undefined {
  const ref = q.member ?? q.type;
  if (!ref) return undefined;
  if (!q.member && q.type) return skeleton(q.type, lines, cursorLine);
  const sym = ref.sym;
  const start = docStartLine(sym, lines);
  const end = sym.span.el;
  const bodyWords = new Set(identifiersIn(lines.slice(start, end + 1).join('\n')));
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
  const text = [...contextHeader(ref, lines, bodyWords), ...keepLines(lines, start, end, keep)].join('\n');
  return { text, start, end };
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
  const head = owner ? [`// in ${owner.sym.id} (${owner.sym.kind})`] : type.file.facts.package ? [`// package ${type.file.facts.package}`] : [];
  return { text: [...head, ...keepLines(lines, type.sym.span.sl, type.sym.span.el, keep)].join('\n'), start: type.sym.span.sl, end: type.sym.span.el };
}

/**
 * A declaration as signature + Javadoc first sentence (+ an elision line for a body). With
 * `doc: false` the signature alone: what the gate's follow-up adds for a missing dependency
 * (coverage needs the signature; the sentence is the part a model can most often do without).
 */
export function declarationLines(ref: SymbolRef, lines: string[], options: { doc?: boolean } = {}): Shown {
  const sym = ref.sym;
  const sig = signatureLines(sym, lines);
  const indent = indentOf(lines[sig.start] ?? '');
  const out: string[] = [];
  const doc = options.doc === false ? undefined : firstSentence(sym.javadoc, 160);
  if (doc) out.push(`${indent}/** ${doc.replace(/\*\//g, '* /')} */`);
  for (let l = sig.start; l <= sig.end; l++) out.push(lines[l] ?? '');
  const bodyLines = sym.span.el - sig.end;
  const isTypeDecl = isTypeKind(sym.kind);
  if (bodyLines > 0 && !isTypeDecl && sym.kind !== 'field' && sym.kind !== 'enumConstant') out.push(elision(bodyLines, indent + '    '));
  else if (bodyLines > 0 && (sym.kind === 'field' || sym.kind === 'enumConstant') && sym.span.el > sig.end) out.push(elision(bodyLines, indent + '    '));
  return { text: out.join('\n'), start: sig.start, end: isTypeDecl ? sig.end : sym.span.el };
}
