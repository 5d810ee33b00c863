// Line bookkeeping shared by the text-file chunkers (OpenAPI, properties, YAML, Markdown, XML).
//
// Every chunk is a run of whole lines: `lines` is always `text.split('\n')` (a CRLF file keeps its
// '\r' at the end of each line), so `chunk.text === lines.slice(startLine, endLine + 1).join('\n')`.

import { TextLines } from '../../text/lines';
import type { Chunk } from './types';

/** Chunks aim near this many characters (qodo: "as small as possible, a limit around 500"). */
export const TARGET_CHARS = 500;
/** A unit larger than this is split into its children when it has any. */
export const SPLIT_CHARS = 750;
/** Fallback windows for input that cannot be parsed. */
export const WINDOW_LINES = 20;

export interface Range {
  start: number;
  end: number;
}

/** TextLines plus the lines themselves, as the chunkers slice them. */
export class LineIndex extends TextLines {
  readonly lines: string[];

  constructor(text: string) {
    super(text);
    this.lines = text.split('\n');
  }

  /** Line of the last non-whitespace character before `end` (exclusive), not before `min`. */
  lastLineBefore(end: number, min = 0): number {
    let i = Math.min(end, this.text.length) - 1;
    while (i > min && /\s/.test(this.text[i])) i--;
    return this.lineOf(Math.max(i, min));
  }

  line(i: number): string {
    return this.lines[i] ?? '';
  }

  isBlank(i: number): boolean {
    return this.line(i).trim() === '';
  }

  /** Characters of lines start..end inclusive, joined by '\n'. */
  size(start: number, end: number): number {
    if (end < start) return 0;
    const last = Math.min(end, this.lines.length - 1);
    return this.starts[last] + this.lines[last].length - this.starts[start];
  }

  slice(start: number, end: number): string {
    return this.lines.slice(start, end + 1).join('\n');
  }

  /** The range without its leading and trailing blank lines, or null when it is all blank. */
  trim(start: number, end: number): Range | null {
    let s = Math.max(0, start);
    let e = Math.min(end, this.lines.length - 1);
    while (s <= e && this.isBlank(s)) s++;
    while (e >= s && this.isBlank(e)) e--;
    return s <= e ? { start: s, end: e } : null;
  }

  /**
   * Moves `start` up over the comment lines directly above it (no blank line between), so a comment
   * stays with the entry it documents. Never goes above `floor`.
   */
  extendOverComments(start: number, floor: number, isComment: (line: string) => boolean): number {
    let s = start;
    while (s - 1 >= floor && s - 1 >= 0 && isComment(this.line(s - 1))) s--;
    return s;
  }
}

export interface ChunkExtras {
  symbol?: string;
  header?: string;
  description?: string;
}

export function makeChunk(path: string, idx: LineIndex, start: number, end: number, kind: string, extras: ChunkExtras = {}): Chunk {
  const chunk: Chunk = { path, startLine: start, endLine: end, kind, text: idx.slice(start, end) };
  if (extras.symbol) chunk.symbol = extras.symbol;
  if (extras.header) chunk.header = extras.header;
  if (extras.description) chunk.description = extras.description;
  return chunk;
}

/**
 * Cuts start..end into pieces of whole lines near `target` characters, preferring to cut after a
 * blank line, and never letting a piece exceed `maxLines` lines.
 */
export function splitBySize(idx: LineIndex, start: number, end: number, target = TARGET_CHARS, maxLines = Infinity): Range[] {
  const out: Range[] = [];
  let s = start;
  while (s <= end) {
    let e = s;
    let lastBlank = -1;
    while (e < end) {
      if (idx.isBlank(e) && e > s) lastBlank = e;
      if (idx.size(s, e) >= target || e - s + 1 >= maxLines) break;
      e++;
    }
    // Prefer a cut at a blank line in the second half of the piece.
    if (e < end && lastBlank > s + (e - s) / 2) e = lastBlank;
    const t = idx.trim(s, e);
    if (t) out.push(t);
    s = e + 1;
  }
  return out;
}

/** Fallback for input that cannot be parsed: windows of about WINDOW_LINES lines. */
export function lineWindows(path: string, idx: LineIndex, kind: string, description?: string): Chunk[] {
  if (idx.text.trim() === '') return [];
  const out: Chunk[] = [];
  const name = baseName(path);
  for (const r of splitBySize(idx, 0, idx.count - 1, Infinity, WINDOW_LINES)) {
    out.push(makeChunk(path, idx, r.start, r.end, kind, {
      symbol: `${name}:${r.start + 1}-${r.end + 1}`,
      description: description ?? `Lines ${r.start + 1} to ${r.end + 1} of ${name}`,
    }));
  }
  return out;
}

/**
 * Turns sorted sibling start lines into contiguous regions: each region runs until the line before
 * the next sibling starts (the last one until `lastEnd`), without blank lines at its edges.
 * Siblings that share a line with the previous one are merged into it (a line is never cut).
 */
export function regions<T>(idx: LineIndex, items: { start: number; end: number; item: T }[], lastEnd?: number): { start: number; end: number; items: T[] }[] {
  const merged: { start: number; end: number; items: T[] }[] = [];
  for (const it of items) {
    const prev = merged[merged.length - 1];
    if (prev && it.start <= prev.end) {
      prev.end = Math.max(prev.end, it.end);
      prev.items.push(it.item);
    } else {
      merged.push({ start: it.start, end: it.end, items: [it.item] });
    }
  }
  const out: { start: number; end: number; items: T[] }[] = [];
  for (let i = 0; i < merged.length; i++) {
    const m = merged[i];
    const next = merged[i + 1];
    const limit = next ? next.start - 1 : Math.max(m.end, lastEnd ?? m.end);
    const t = idx.trim(m.start, limit);
    if (t) out.push({ start: t.start, end: t.end, items: m.items });
  }
  return out;
}

/** Greedily groups consecutive sized items so that each group stays within `target` characters. */
export function pack<T extends Range>(idx: LineIndex, items: T[], target = TARGET_CHARS): T[][] {
  const out: T[][] = [];
  let cur: T[] = [];
  for (const it of items) {
    if (cur.length && idx.size(cur[0].start, it.end) > target) {
      out.push(cur);
      cur = [];
    }
    cur.push(it);
  }
  if (cur.length) out.push(cur);
  return out;
}

export function baseName(path: string): string {
  const i = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return i >= 0 ? path.slice(i + 1) : path;
}

/** `getOrderById` -> `get order by id`; `spring.datasource.url` -> `spring datasource url`. */
export function words(name: string): string {
  const out: string[] = [];
  for (const piece of name.split(/[^A-Za-z0-9]+/)) {
    if (!piece) continue;
    const m = piece.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g);
    if (m) for (const p of m) out.push(p.toLowerCase());
  }
  return out.join(' ');
}

/** Collapses whitespace and cuts long prose at a word boundary. */
export function prose(text: unknown, max = 240): string {
  if (typeof text !== 'string' && typeof text !== 'number' && typeof text !== 'boolean') return '';
  const s = String(text).replace(/\s+/g, ' ').trim();
  if (s.length <= max) return s;
  const cut = s.slice(0, max);
  const sp = cut.lastIndexOf(' ');
  return `${sp > max / 2 ? cut.slice(0, sp) : cut}…`;
}

/** Joins sentences, adding a period to those that lack final punctuation. */
export function sentences(parts: (string | undefined | false)[]): string {
  return parts
    .filter((p): p is string => !!p && p.trim() !== '')
    .map((p) => {
      const t = p.trim();
      return /[.!?…:]$/.test(t) ? t : `${t}.`;
    })
    .join(' ');
}

/** At most `max` items, with a count of the rest. */
export function listOf(items: string[], max = 12): string {
  const uniq = [...new Set(items.filter((s) => s))];
  if (uniq.length <= max) return uniq.join(', ');
  return `${uniq.slice(0, max).join(', ')} and ${uniq.length - max} more`;
}
