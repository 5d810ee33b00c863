// Markdown chunked by heading: each section (a heading and the lines up to the next heading) is a
// chunk whose header is the chain of enclosing headings. A large section is cut between paragraphs
// (never inside a fenced code block); later pieces keep the same header and symbol.

import type { Chunk } from './types';
import { LineIndex, SPLIT_CHARS, TARGET_CHARS, baseName, makeChunk, prose, sentences, type Range } from './lines';

interface Heading {
  line: number;
  /** Last line of the heading (the underline of a setext heading). */
  endLine: number;
  level: number;
  title: string;
  source: string;
}

function fenceOf(line: string): { ch: string; len: number } | null {
  const m = line.match(/^ {0,3}(`{3,}|~{3,})/);
  return m ? { ch: m[1][0], len: m[1].length } : null;
}

/** Headings outside fenced code and front matter. Never throws. */
export function findHeadings(idx: LineIndex): { headings: Heading[]; code: boolean[] } {
  const headings: Heading[] = [];
  const code: boolean[] = new Array(idx.count).fill(false);
  let fence: { ch: string; len: number } | null = null;
  let i = 0;
  // YAML front matter.
  if (/^---\s*$/.test(idx.line(0))) {
    for (let j = 1; j < idx.count; j++) {
      if (/^(---|\.\.\.)\s*$/.test(idx.line(j))) {
        for (let k = 0; k <= j; k++) code[k] = true;
        i = j + 1;
        break;
      }
    }
  }
  for (; i < idx.count; i++) {
    const line = idx.line(i).replace(/\r$/, '');
    if (fence) {
      code[i] = true;
      const f = fenceOf(line);
      if (f && f.ch === fence.ch && f.len >= fence.len && line.trim().replace(/^[`~]+/, '') === '') fence = null;
      continue;
    }
    const f = fenceOf(line);
    if (f) {
      fence = f;
      code[i] = true;
      continue;
    }
    const atx = line.match(/^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/);
    if (atx) {
      headings.push({ line: i, endLine: i, level: atx[1].length, title: (atx[2] ?? '').trim(), source: line });
      continue;
    }
    const next = idx.line(i + 1).replace(/\r$/, '');
    if (i + 1 < idx.count && line.trim() !== '' && /^ {0,3}(=+|-+)[ \t]*$/.test(next) && !/^ {0,3}([-*+>]|\d+[.)])\s/.test(line) && !/^\s{4}/.test(line)) {
      // Setext heading: a paragraph line underlined with === or ---.
      const prevBlank = i === 0 || idx.isBlank(i - 1) || headings[headings.length - 1]?.endLine === i - 1;
      if (prevBlank) {
        headings.push({ line: i, endLine: i + 1, level: next.trim()[0] === '=' ? 1 : 2, title: line.trim(), source: line });
        i++;
      }
    }
  }
  return { headings, code };
}

function plainTitle(title: string): string {
  return title
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*_]/g, '')
    .trim();
}

/** Cuts a section into pieces near the target size, only at blank lines outside code fences. */
function splitSection(idx: LineIndex, code: boolean[], start: number, end: number): Range[] {
  if (idx.size(start, end) <= SPLIT_CHARS) return [{ start, end }];
  const out: Range[] = [];
  let s = start;
  let lastCut = -1;
  for (let i = start; i <= end; i++) {
    if (i > s && idx.isBlank(i) && !code[i]) lastCut = i;
    if (idx.size(s, i) >= TARGET_CHARS && lastCut > s) {
      const t = idx.trim(s, lastCut);
      if (t) out.push(t);
      s = lastCut + 1;
      lastCut = -1;
    }
  }
  const t = idx.trim(s, end);
  if (t) {
    // Fold a small tail into the previous piece.
    const prev = out[out.length - 1];
    if (prev && idx.size(t.start, t.end) < TARGET_CHARS / 4) prev.end = t.end;
    else out.push(t);
  }
  return out;
}

function firstProse(idx: LineIndex, code: boolean[], start: number, end: number, headingLines: Set<number>): string {
  const parts: string[] = [];
  for (let i = start; i <= end && parts.join(' ').length < 240; i++) {
    if (code[i] || headingLines.has(i)) continue;
    const l = idx.line(i).trim();
    if (!l || /^(\||<|!\[|---|===)/.test(l)) continue;
    parts.push(l.replace(/^([-*+>]|\d+[.)])\s+/, ''));
  }
  return prose(plainTitle(parts.join(' ')), 240);
}

export function chunkMarkdown(path: string, text: string): Chunk[] {
  const idx = new LineIndex(text);
  const file = baseName(path);
  const { headings, code } = findHeadings(idx);
  const out: Chunk[] = [];
  const headingLines = new Set<number>();
  for (const h of headings) for (let l = h.line; l <= h.endLine; l++) headingLines.add(l);

  // Sections: a preamble before the first heading, then one per heading.
  const stack: Heading[] = [];
  const sections: { start: number; end: number; trail: Heading[] }[] = [];
  const firstLine = headings.length ? headings[0].line : idx.count;
  if (firstLine > 0) sections.push({ start: 0, end: firstLine - 1, trail: [] });
  headings.forEach((h, n) => {
    while (stack.length && stack[stack.length - 1].level >= h.level) stack.pop();
    stack.push(h);
    const end = n + 1 < headings.length ? headings[n + 1].line - 1 : idx.count - 1;
    sections.push({ start: h.line, end, trail: [...stack] });
  });

  for (let n = 0; n < sections.length; n++) {
    const sec = sections[n];
    const r = idx.trim(sec.start, sec.end);
    if (!r) continue;
    const own = sec.trail[sec.trail.length - 1];
    // A heading with no body of its own whose next section is nested under it: its line is already
    // in that section's header.
    const next = sections[n + 1];
    if (own && r.end <= own.endLine && next && next.trail.includes(own)) continue;
    const titles = sec.trail.map((h) => plainTitle(h.title) || '(untitled)');
    const symbol = titles.length ? titles.join(' > ') : file;
    const ancestors = sec.trail.slice(0, -1).map((h) => h.source);
    const pieces = splitSection(idx, code, r.start, r.end);
    pieces.forEach((p, k) => {
      const headerLines = k === 0 ? ancestors : sec.trail.map((h) => h.source);
      const summary = firstProse(idx, code, p.start, p.end, headingLines);
      const description = sentences([
        titles.length ? `Section "${titles[titles.length - 1]}"${titles.length > 1 ? ` under ${titles.slice(0, -1).join(' > ')}` : ''} of ${file}` : `Introduction of ${file}`,
        k > 0 ? `Part ${k + 1}` : '',
        summary,
      ]);
      out.push(makeChunk(path, idx, p.start, p.end, 'section', { symbol, header: headerLines.length ? headerLines.join('\n') : undefined, description }));
    });
  }
  return out;
}
