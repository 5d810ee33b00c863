// A method being typed has unclosed blocks (`if (x) {` with the cursor below it). Parsed as is,
// every member below it becomes part of its body: the class loses them, the index sees a shape
// change, and every file that consults the class is re-resolved on each keystroke, then again when
// the brace is typed. Editors indent what they insert, so the indentation says where the blocks
// were meant to end: a line at (or left of) the indentation of an unclosed `{` line starts
// something outside it. This closes such blocks just before that line.
//
// The repair is a function of the text alone (cold indexing, an open document and a re-extraction
// of reference sites all apply it), so the index still equals a fresh build of the same texts.
// It only inserts `}` at the end of a line (a blank line just above the next member when there is
// one, outside any half-written statement), so every line and column of the real text stays put.
// Files whose braces balance are never touched.

import { lexJava, spansLines } from './lexer';

/** Indentation width of a tab (only comparisons within one file matter). */
const TAB = 4;

/** Lines at a block's own indentation that still belong inside it (switch labels in JDK style). */
const INSIDE_AT_SAME_INDENT = /^(case\b|default\s*[:-])/;

/**
 * The text with the missing `}` of unclosed blocks inserted, or undefined when nothing is to be
 * repaired (braces balance, or the indentation does not say where a block ends).
 */
export function repairUnclosedBodies(text: string): string | undefined {
  const lines = scanLines(text);
  let missing = 0;
  for (const l of lines) missing += l.opens - l.closes;
  if (missing <= 0) return undefined;
  /**
   * Each open `{`, innermost last: the indentation of its statement, and the `(` still open around
   * it (`run(new Visitor() {`, `forEach(x -> {`), closed with it.
   */
  const stack: { indent: number; parens: number }[] = [];
  /** `(` open in the current block. */
  let parens = 0;
  /** Line -> what to append to it. */
  const inserts = new Map<number, string>();
  let lastCodeLine = -1;
  /** The last blank line since then: the braces go there, clear of a half-written statement. */
  let lastBlankLine = -1;
  /** Indentation of the line the current statement or declaration began on (a `{` belongs to it, not to a continuation line). */
  let statementIndent = 0;
  let statementEnded = true;
  for (let i = 0; i < lines.length && missing > 0; i++) {
    const l = lines[i];
    if (l.first !== undefined && stack.length > 1) {
      // A `}` closes the block opened at its own indentation; any deeper one above it was left open.
      // Any other line at or left of a block's indentation starts outside that block.
      const closer = l.first === '}';
      let k = 0;
      while (k < stack.length - 1 && k < missing) {
        const indent = stack[stack.length - 1 - k].indent;
        if (closer ? indent > l.indent : indent >= l.indent && !INSIDE_AT_SAME_INDENT.test(l.firstWord)) k++;
        else break;
      }
      const at = lastBlankLine >= 0 ? lastBlankLine : lastCodeLine;
      if (k > 0 && at >= 0) {
        // A half-written call (`foo(bar,`) closes first, so the error stays inside its statement.
        let closers = parens ? ')'.repeat(parens) + ';' : '';
        for (let n = 0; n < k; n++) {
          const open = stack.pop()!;
          closers += '}' + (open.parens ? ')'.repeat(open.parens) + ';' : '');
        }
        inserts.set(at, (inserts.get(at) ?? '') + closers);
        parens = 0;
        missing -= k;
      }
    }
    if (l.first !== undefined && statementEnded) statementIndent = l.indent;
    for (const c of l.brackets) {
      if (c === '{') { stack.push({ indent: statementIndent, parens }); parens = 0; }
      else if (c === '}') parens = stack.pop()?.parens ?? 0;
      else if (c === '(') parens++;
      else if (parens > 0) parens--;
    }
    if (l.last !== undefined) statementEnded = l.last === ';' || l.last === '{' || l.last === '}';
    if (l.endsInCode) { lastCodeLine = i; lastBlankLine = -1; }
    else if (l.blank) lastBlankLine = i;
  }
  if (!inserts.size) return undefined;
  const raw = text.split('\n');
  for (const [line, closers] of inserts) {
    const cr = raw[line].endsWith('\r') ? '\r' : '';
    raw[line] = raw[line].slice(0, raw[line].length - cr.length) + closers + cr;
  }
  return raw.join('\n');
}

interface ScannedLine {
  indent: number;
  /** The first code character, when the line starts in code (not inside a comment or string). */
  first?: string;
  /** The line's code from its first code character (for keyword tests). */
  firstWord: string;
  /** The last code character (a string or char literal counts as `"`). */
  last?: string;
  /** Braces and parentheses in code, in order. */
  brackets: string[];
  opens: number;
  closes: number;
  /** Whether the end of the line is in code (so a `}` appended there is read as code). */
  endsInCode: boolean;
  /** Whitespace only, in code (not inside a comment or text block). */
  blank: boolean;
}

/** Splits Java text into lines, noting braces outside comments, strings, chars and text blocks (java/lexer.ts). */
function scanLines(text: string): ScannedLine[] {
  const segs = lexJava(text);
  const out: ScannedLine[] = [];
  let s = 0;
  let i = 0;
  while (i <= text.length) {
    let end = text.indexOf('\n', i);
    if (end < 0) end = text.length;
    const line: ScannedLine = { indent: 0, firstWord: '', brackets: [], opens: 0, closes: 0, endsInCode: false, blank: false };
    let j = i;
    let width = 0;
    while (j < end && (text[j] === ' ' || text[j] === '\t')) { width += text[j] === '\t' ? TAB : 1; j++; }
    line.indent = width;
    while (s < segs.length && segs[s].end <= i) s++;
    const last = segs[segs.length - 1];
    const runsOn = s < segs.length ? segs[s].start < i && spansLines(segs[s]) : !!last && !last.closed && spansLines(last) && last.start < i;
    const startsInCode = !runsOn;
    let sawFirst = false;
    let lineComment = false;
    const see = (c: string, at: number) => {
      if (!sawFirst && startsInCode) { line.first = c; line.firstWord = text.slice(at, Math.min(end, at + 12)); }
      sawFirst = true;
      line.last = c === '\'' ? '"' : c;
    };
    for (let k = s; k < segs.length && segs[k].start < end; k++) {
      const seg = segs[k];
      if (seg.kind === 'code') {
        for (let x = Math.max(seg.start, j); x < Math.min(seg.end, end); x++) {
          const c = text[x];
          if (c === ' ' || c === '\t' || c === '\r') continue;
          see(c, x);
          if (c === '{') { line.brackets.push(c); line.opens++; }
          else if (c === '}') { line.brackets.push(c); line.closes++; }
          else if (c === '(' || c === ')') line.brackets.push(c);
        }
      } else if (seg.start >= i) {
        if (seg.kind === 'line-comment') lineComment = true;
        else if (seg.kind !== 'block-comment') see(text[seg.start], seg.start);
      }
    }
    // The state at the end of the line: inside a comment or text block that runs on, or in code.
    let endsInCode = true;
    for (let k = s; k < segs.length && segs[k].start <= end; k++) {
      if (segs[k].start < end && segs[k].end > end && spansLines(segs[k])) endsInCode = false;
      if (end === text.length && segs[k].end === end && !segs[k].closed && spansLines(segs[k])) endsInCode = false;
    }
    // A `//` comment runs to the end of the line: a brace appended there would be commented out.
    line.endsInCode = endsInCode && !lineComment && sawFirst;
    line.blank = startsInCode && endsInCode && text.slice(i, end).trim() === '';
    out.push(line);
    i = end + 1;
  }
  return out;
}
