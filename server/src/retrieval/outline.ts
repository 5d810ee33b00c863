// How a Java item's lines are cut: the declarations chosen for it (each as the shown lines
// declarationLines gives), put in source order with every source line once, and every stretch of
// source left out marked where it is: `// … 3 more members`, `// … 2 more constants` (an enum never
// loses constants silently), `// … 6 lines elided`. Which declarations are chosen is decided
// elsewhere; this module only cuts.

import type { FileFacts, SymbolFact } from '../java/facts';
import { gapLine, bySourceOrder, type ShownLine } from '../render/shownLines';

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
export function outline(facts: FileFacts, lines: string[], parts: OutlineLine[], extent: { start: number; end: number }): ShownLine[] {
  const out: ShownLine[] = [];
  const verbatim = new Set<number>();
  const accounted = new Set<number>();
  const seen = new Set<string>();
  for (const p of parts) {
    if (!p.at.written) {
      if (verbatim.has(p.at.line)) continue;
      verbatim.add(p.at.line);
      accounted.add(p.at.line);
      out.push(p);
      continue;
    }
    const key = `${p.at.written}:${p.at.line}:${p.at.hidden?.start ?? ''}:${p.text}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(p);
    const r = p.at.hidden ?? p.summarises;
    if (r) for (let l = r.start; l <= r.end; l++) accounted.add(l);
  }
  // A summary whose Javadoc another part shows whole says nothing more.
  const kept = out.filter((s) => s.at.written !== 'doc' || !verbatim.has(s.at.line - 1) || !(lines[s.at.line - 1] ?? '').trim().endsWith('*/'));
  const declStarts = declarationStarts(facts);
  let l = extent.start;
  while (l <= extent.end) {
    if (accounted.has(l) || isBlank(lines[l])) { l++; continue; }
    // A stretch of unaccounted lines; blank lines inside it belong to it.
    const start = l;
    let end = l;
    for (let k = l; k <= extent.end && !accounted.has(k); k++) if (!isBlank(lines[k])) end = k;
    kept.push(gapFor(facts, lines, declStarts, start, end, extent));
    l = end + 1;
  }
  return kept.sort(bySourceOrder);
}

const startsMemo = new WeakMap<FileFacts, Map<number, SymbolFact[]>>();

/** First line -> the non-local declarations starting on it (per facts object: facts are replaced, never edited). */
function declarationStarts(facts: FileFacts): Map<number, SymbolFact[]> {
  let m = startsMemo.get(facts);
  if (m) return m;
  m = new Map();
  for (const s of facts.symbols) {
    if (s.local || s.anonymous) continue;
    const list = m.get(s.span.sl);
    if (list) list.push(s); else m.set(s.span.sl, [s]);
  }
  startsMemo.set(facts, m);
  return m;
}

function gapFor(facts: FileFacts, lines: string[], declStarts: Map<number, SymbolFact[]>, start: number, end: number, extent: { start: number }): ShownLine {
  const members: number[] = [];
  let constants = true;
  for (let l = start; l <= end; l++) {
    for (const s of declStarts.get(l) ?? []) {
      const parent = s.parent >= 0 ? facts.symbols[s.parent] : undefined;
      // Outermost in the stretch: its parent starts before it (or it is top-level).
      if (parent && parent.span.sl >= start && parent.span.sl <= end) continue;
      members.push(l);
      if (s.kind !== 'enumConstant') constants = false;
    }
  }
  // Attributed to the innermost declaration around the stretch (the type whose members are hidden):
  // the nearest declaration starting before it that spans it.
  let owner = extent.start;
  search: for (let l = start - 1; l >= extent.start; l--) {
    for (const s of declStarts.get(l) ?? []) if (s.span.el >= end) { owner = l; break search; }
  }
  const indent = indentOf(lines.slice(start, end + 1).find((t) => !isBlank(t)) ?? '');
  return gapLine(indent, owner, { start, end, members, ...(members.length && constants ? { constants: true } : {}) });
}
