// Shown lines: an item's text as a list of lines, each knowing its source line (SourceLine in
// shared/protocol.ts). The server builds item text from them; the markdown renderer merges the
// items of one file from them. Pure: no index, no I/O, so the VS Code client bundles it too.

import type { ContextItem, HiddenLines, SourceLine } from '../../../shared/protocol';

export interface ShownLine { text: string; at: SourceLine }

const indentOf = (s: string) => /^\s*/.exec(s)![0];

/**
 * The text of a gap marker: `// … 3 members`, `// … 2 constants`, `// … 6 lines`, `/** … *\/` (a
 * Javadoc). As short as it can be while it still says what and how much it hides: "more" and
 * "elided" add a token each and say nothing the `…` does not.
 */
export function gapText(indent: string, hidden: HiddenLines): string {
  if (hidden.javadoc) return `${indent}/** … */`;
  const n = hidden.members.length;
  if (n) return `${indent}// … ${n} ${hidden.constants ? (n === 1 ? 'constant' : 'constants') : n === 1 ? 'member' : 'members'}`;
  const lines = hidden.end - hidden.start + 1;
  return `${indent}// … ${lines} line${lines === 1 ? '' : 's'}`;
}

/**
 * A line with its leading whitespace cut to one space per indentation level (a tab is one level,
 * `unit` spaces another, a part of one a whole): o200k_base spends a token on a newline plus four
 * or more spaces and none on a newline plus one space (it joins the space to the next word), so a
 * member of a type costs a token less and still reads nested in it. Its source line and what it
 * hides are unchanged; the text after the indentation is the source's.
 */
export function compactIndent(s: ShownLine, unit: number): ShownLine {
  const lead = /^[ \t]*/.exec(s.text)![0];
  if (!lead) return s;
  let levels = 0, spaces = 0;
  for (const ch of lead) {
    if (ch === '\t') { levels += 1 + Math.ceil(spaces / unit); spaces = 0; } else spaces++;
  }
  levels += Math.ceil(spaces / unit);
  const text = ' '.repeat(levels) + s.text.slice(lead.length);
  return text === s.text ? s : { text, at: s.at };
}

/** What a folded body adds to the line that opens it: `void run() {` becomes `void run() { … }`. */
export const FOLD = ' … }';

/** Whether `opener` can carry the fold of a body gap: it ends with the `{` the hidden lines close. */
export function canFold(opener: string): boolean {
  return opener.trimEnd().endsWith('{');
}

/** Folded lines made before, by their body gap, with the line they folded onto (a fold is the same object each time). */
export type Folds = WeakMap<ShownLine, { opener: ShownLine; folded: ShownLine }>;

/**
 * Lines in source order with every body gap (`hidden.body`) folded onto the verbatim line that
 * opens it, right before it: one line `sig { … }` instead of `sig {` and `// … 6 lines`, six tokens
 * fewer, the hidden lines still on record in that line's `hidden`.
 */
export function foldBodies(shown: ShownLine[], folds?: Folds): ShownLine[] {
  const out: ShownLine[] = [];
  for (const s of shown) {
    const prev = out[out.length - 1];
    const h = s.at.hidden;
    if (s.at.written === 'gap' && h?.body && prev && !prev.at.written && !prev.at.hidden && prev.at.line === h.start - 1 && canFold(prev.text)) {
      const known = folds?.get(s);
      if (known?.opener === prev) { out[out.length - 1] = known.folded; continue; }
      const folded = { text: prev.text.trimEnd() + FOLD, at: { line: prev.at.line, hidden: h } };
      folds?.set(s, { opener: prev, folded });
      out[out.length - 1] = folded;
      continue;
    }
    out.push(s);
  }
  return out;
}

/** A folded line as the verbatim line and the gap it carries; any other line as it is. */
export function unfold(s: ShownLine): ShownLine[] {
  if (s.at.written || !s.at.hidden) return [s];
  const h = s.at.hidden;
  const text = s.text.endsWith(FOLD) ? s.text.slice(0, -FOLD.length) : s.text;
  return [{ text, at: { line: s.at.line } }, gapLine(indentOf(text) + '    ', s.at.line, h)];
}

export function gapLine(indent: string, owner: number, hidden: HiddenLines): ShownLine {
  return { text: gapText(indent, hidden), at: { line: owner, written: 'gap', hidden } };
}

/** Where a shown line sorts in source order: its line, then its rank on it (`sortRank`). */
function sortLine(at: SourceLine): number {
  // A Javadoc left out sorts with its declaration; any other gap where its hidden lines start.
  return at.written === 'gap' && !at.hidden?.javadoc ? at.hidden?.start ?? at.line : at.line;
}

/** On one line: written headers 0, a Javadoc left out 0.5, a Javadoc summary 1, a gap whose lines start there 1.5 (a body) or 1.6 (declarations), the line itself 2. */
function sortRank(at: SourceLine): number {
  // A body's gap before a gap of whole declarations starting on the same line: the body comes first.
  // A Javadoc left out sorts after a header naming its declaration, before its lines.
  if (at.written === 'gap') return at.hidden?.javadoc ? 0.5 : at.hidden?.members.length ? 1.6 : 1.5;
  return at.written === 'header' ? 0 : at.written === 'doc' ? 1 : 2;
}

/** Source order (no key objects made: packing sorts a group's lines at every render). */
export function bySourceOrder(a: ShownLine, b: ShownLine): number {
  return sortLine(a.at) - sortLine(b.at) || sortRank(a.at) - sortRank(b.at);
}

export function joinShown(shown: ShownLine[]): { text: string; sourceLines: SourceLine[] } {
  return { text: shown.map((s) => s.text).join('\n'), sourceLines: shown.map((s) => s.at) };
}

/** An item's lines with their origins, or undefined when the item carries no (consistent) map. */
export function shownLinesOf(item: ContextItem): ShownLine[] | undefined {
  const map = item.sourceLines;
  if (!map) return undefined;
  const texts = item.text.split('\n');
  if (texts.length !== map.length) return undefined;
  return texts.map((text, i) => ({ text, at: map[i] }));
}

/**
 * The union of several items' lines of one file, each source line once, in source order. Gap
 * markers are re-cut around lines another item shows (their `hidden.members` say how many
 * declarations each piece still hides); a Javadoc summary is dropped when the Javadoc itself is shown.
 */
export function mergeShownLines(folded: ShownLine[][]): ShownLine[] {
  const parts = folded.map((p) => p.flatMap(unfold));
  const verbatim = new Map<number, ShownLine>();
  for (const part of parts) {
    for (const s of part) {
      if (s.at.written) continue;
      const had = verbatim.get(s.at.line);
      // A redaction in one item wins over the plain line of another.
      if (!had || (had.text !== s.text && s.text.includes('«redacted'))) verbatim.set(s.at.line, s);
    }
  }
  const out: ShownLine[] = [...verbatim.values()];
  const seen = new Set<string>();
  const gaps: { s: ShownLine; indent: string }[] = [];
  for (const part of parts) {
    for (const s of part) {
      if (!s.at.written) continue;
      if (s.at.written === 'gap') { if (s.at.hidden) gaps.push({ s, indent: indentOf(s.text) }); continue; }
      const key = `${s.at.written}:${s.at.line}:${s.text}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (s.at.written === 'doc' && verbatim.get(s.at.line - 1)?.text.trim().endsWith('*/')) continue;
      out.push(s);
    }
  }
  // Pieces of every gap around the verbatim lines; larger pieces first, so a smaller one another
  // item marked inside it (the same hidden lines) is not marked twice.
  const pieces: ShownLine[] = [];
  /** Declarations whose Javadoc a shown summary stands for (it ends on the line before). */
  const summarised = new Set(out.filter((s) => s.at.written === 'doc').map((s) => s.at.line));
  for (const { s, indent } of gaps) {
    const h = s.at.hidden!;
    let start = -1;
    for (let l = h.start; l <= h.end + 1; l++) {
      const hiddenHere = l <= h.end && !verbatim.has(l);
      if (hiddenHere && start < 0) start = l;
      if (!hiddenHere && start >= 0) {
        const members = h.members.filter((m) => m >= start && m < l);
        // A declarations gap cut down to no declaration hides only the body of one another item
        // shows, which that item's own gap marks; a piece no other gap covers (the Javadoc of the
        // next member, outline.ts joins it to the stretch before) is marked by its lines.
        // A piece of a body is the rest of it only when nothing inside was shown.
        const whole = start === h.start && l - 1 === h.end;
        const end = l - 1;
        const unmarked = () => !summarised.has(end + 1) && !gaps.some((o) => o.s !== s && o.s.at.hidden!.start <= start && end <= o.s.at.hidden!.end);
        if (!h.members.length || members.length || unmarked()) pieces.push(gapLine(indent, s.at.line, { start, end: l - 1, members, ...(h.constants ? { constants: true } : {}), ...(h.javadoc ? { javadoc: true } : {}), ...(h.body && whole ? { body: true } : {}) }));
        start = -1;
      }
    }
  }
  pieces.sort((a, b) => a.at.hidden!.start - b.at.hidden!.start || (b.at.hidden!.end - b.at.hidden!.start) - (a.at.hidden!.end - a.at.hidden!.start));
  const marked: HiddenLines[] = [];
  for (const p of pieces) {
    const h = p.at.hidden!;
    const kind = h.members.length > 0;
    if (marked.some((m) => (m.members.length > 0) === kind && m.start <= h.start && h.end <= m.end)) continue;
    marked.push(h);
    out.push(p);
  }
  return foldBodies(out.sort(bySourceOrder));
}
