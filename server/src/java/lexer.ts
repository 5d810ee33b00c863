// The one lexical pass over Java text that tells code from comments and literals, for what needs
// to know where code is without a parse tree: the gate's scenario judgement (is a body empty,
// do its brackets close; gate/scenario.ts) and the brace repair of a body being typed
// (java/braceRepair.ts). It reads text as it is being typed, so nothing it meets is an error:
// an unclosed comment, string or text block runs to the end of the text (strings and chars to
// the end of their line) and is marked `closed: false`.

export type SegmentKind = 'code' | 'line-comment' | 'block-comment' | 'string' | 'char' | 'text-block';

/** A run of text of one kind, [start, end) in UTF-16 offsets; the segments tile the text in order. */
export interface Segment {
  kind: SegmentKind;
  start: number;
  end: number;
  /** False for a comment, string, char or text block the text ends (or its line ends) before closing. */
  closed: boolean;
}

/** Splits Java text into code, comments and literals (adjacent code is one segment). */
export function lexJava(text: string): Segment[] {
  const out: Segment[] = [];
  let codeStart = 0;
  const push = (kind: SegmentKind, start: number, end: number, closed: boolean) => {
    if (start > codeStart) out.push({ kind: 'code', start: codeStart, end: start, closed: true });
    out.push({ kind, start, end, closed });
    codeStart = end;
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i], n = text[i + 1];
    if (c === '/' && n === '/') {
      let end = text.indexOf('\n', i);
      if (end < 0) end = text.length;
      push('line-comment', i, end, true);
      i = end;
    } else if (c === '/' && n === '*') {
      const close = text.indexOf('*/', i + 2);
      const end = close < 0 ? text.length : close + 2;
      push('block-comment', i, end, close >= 0);
      i = end;
    } else if (c === '"' && text.startsWith('"""', i)) {
      const close = text.indexOf('"""', i + 3);
      const end = close < 0 ? text.length : close + 3;
      push('text-block', i, end, close >= 0);
      i = end;
    } else if (c === '"' || c === '\'') {
      let j = i + 1;
      while (j < text.length && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      const closed = j < text.length && text[j] === c;
      const end = closed ? j + 1 : Math.min(j, text.length);
      push(c === '"' ? 'string' : 'char', i, end, closed);
      i = end;
    } else i++;
  }
  if (text.length > codeStart) out.push({ kind: 'code', start: codeStart, end: text.length, closed: true });
  return out;
}

/**
 * Offset of a declaration's body brace in its code (codeOnly text from the declaration's start):
 * the first `{` outside parentheses. An annotation's array argument (`@SuppressWarnings({"a"})`
 * before the name, `@Size({1, 2})` on a parameter) sits inside its parentheses, so it is not taken
 * for the body. -1 when there is none.
 */
export function bodyBraceIn(code: string): number {
  let parens = 0;
  for (let i = 0; i < code.length; i++) {
    const c = code[i];
    if (c === '(') parens++;
    else if (c === ')') parens = Math.max(0, parens - 1);
    else if (c === '{' && parens === 0) return i;
  }
  return -1;
}

/**
 * The text with comments blanked and string, char and text-block contents emptied: the same
 * length, newlines kept, the delimiters of literals left (`"…"` becomes `"   "`). `closed` is
 * false when a comment or literal does not close.
 */
export function codeOnly(text: string): { code: string; closed: boolean } {
  let code = '';
  let closed = true;
  for (const s of lexJava(text)) {
    if (!s.closed) closed = false;
    const part = text.slice(s.start, s.end);
    if (s.kind === 'code') { code += part; continue; }
    const blank = part.replace(/[^\n]/g, ' ');
    if (s.kind === 'line-comment' || s.kind === 'block-comment') code += blank;
    else if (s.kind === 'text-block') code += part.length >= 3 ? '""' + blank.slice(2, -1) + '"' : '"'.repeat(part.length);
    else code += part[0] + blank.slice(1, s.closed ? -1 : undefined) + (s.closed ? part[0] : '');
  }
  return { code, closed };
}

/** Whether a segment carries the lexer's state from one line into the next (the next line starts outside code). */
export function spansLines(s: Segment): boolean {
  return s.kind === 'block-comment' || s.kind === 'text-block';
}
