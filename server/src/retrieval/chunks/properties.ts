// Java `.properties` files chunked by key group: consecutive entries sharing a dotted prefix
// (`spring.datasource.url`, `spring.datasource.username` -> `spring.datasource`) form a chunk, with
// the comments above them. A group that is still large is split by the next key segment; tiny
// neighbouring groups are merged. Continuation lines (`\` at the end) stay with their entry.

import type { Chunk } from './types';
import { LineIndex, SPLIT_CHARS, TARGET_CHARS, baseName, listOf, makeChunk, pack, prose, sentences, words } from './lines';

const TINY_CHARS = 100;
const MAX_DEPTH = 6;

export interface PropertyEntry {
  key: string;
  value: string;
  /** First line of the entry's own text (after the comments that precede it). */
  keyLine: number;
  /** Region: from the first non-blank line after the previous entry to the entry's last line. */
  start: number;
  end: number;
  segments: string[];
  comments: string[];
}

function isComment(line: string): boolean {
  return /^\s*[#!]/.test(line);
}

function continues(line: string): boolean {
  const m = line.replace(/\r$/, '').match(/\\+$/);
  return !!m && m[0].length % 2 === 1;
}

function unescape(s: string): string {
  return s.replace(/\\u([0-9a-fA-F]{4})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))).replace(/\\(.)/g, '$1');
}

/** Parses a properties file into logical entries with their line spans. Never throws. */
export function parseProperties(idx: LineIndex): PropertyEntry[] {
  const out: PropertyEntry[] = [];
  let regionStart = 0;
  let comments: string[] = [];
  for (let i = 0; i < idx.count; i++) {
    const line = idx.line(i);
    const t = line.replace(/\r$/, '').trimStart();
    if (t === '') {
      if (regionStart === i) regionStart = i + 1;
      continue;
    }
    if (isComment(t)) {
      comments.push(t.replace(/^[#!]+\s*/, ''));
      continue;
    }
    const first = i;
    let logical = t;
    while (continues(idx.line(i)) && i + 1 < idx.count) {
      logical = logical.replace(/\r$/, '').replace(/\\$/, '') + idx.line(i + 1).replace(/\r$/, '').trimStart();
      i++;
    }
    const m = logical.match(/^((?:\\.|[^\\=:\s])*)\s*[=:]?\s*([\s\S]*)$/);
    const key = unescape(m?.[1] ?? logical);
    const value = (m?.[2] ?? '').replace(/\r$/, '');
    out.push({ key, value, keyLine: first, start: regionStart, end: i, segments: key.split('.').filter(Boolean), comments });
    comments = [];
    regionStart = i + 1;
  }
  return out;
}

function commonPrefix(keys: string[][]): string[] {
  if (!keys.length) return [];
  const out: string[] = [];
  for (let d = 0; ; d++) {
    const s = keys[0][d];
    if (s === undefined || keys.some((k) => k[d] !== s)) return out;
    out.push(s);
  }
}

/** The group name of some entries: their common dotted prefix, never a whole single key. */
export function groupPrefix(entries: PropertyEntry[]): string {
  let prefix = commonPrefix(entries.map((e) => e.segments));
  if (entries.length === 1 || entries.every((e) => e.segments.length === prefix.length)) {
    if (prefix.length > 1) prefix = prefix.slice(0, -1);
  }
  return prefix.join('.');
}

/** The primary group of a key: its first two segments (`spring.datasource`), never the whole key. */
function groupKey(e: PropertyEntry): string {
  const n = Math.min(2, e.segments.length - 1);
  return n > 0 ? e.segments.slice(0, n).join('.') : `\u0000${e.key}`;
}

/** Consecutive entries grouped by their primary group; groups still large are split further. */
function group(idx: LineIndex, entries: PropertyEntry[]): PropertyEntry[][] {
  const runs: PropertyEntry[][] = [];
  for (const e of entries) {
    const last = runs[runs.length - 1];
    if (last && groupKey(last[last.length - 1]) === groupKey(e)) last.push(e);
    else runs.push([e]);
  }
  return runs.flatMap((run) => splitLarge(idx, run, 2));
}

/** Splits a large group by the key segment at `depth`, packing by size when keys run out. */
function splitLarge(idx: LineIndex, run: PropertyEntry[], depth: number): PropertyEntry[][] {
  const size = idx.size(run[0].start, run[run.length - 1].end);
  if (size <= SPLIT_CHARS || run.length === 1) return [run];
  if (depth >= MAX_DEPTH || !run.some((e) => e.segments.length > depth + 1)) return pack(idx, run, TARGET_CHARS);
  const seg = (e: PropertyEntry) => (e.segments.length > depth + 1 ? e.segments[depth] : `\u0000${e.key}`);
  const subs: PropertyEntry[][] = [];
  for (const e of run) {
    const last = subs[subs.length - 1];
    if (last && seg(last[last.length - 1]) === seg(e)) last.push(e);
    else subs.push([e]);
  }
  // Keep neighbouring small pieces together up to the target size.
  const packed: PropertyEntry[][] = [];
  for (const sub of subs.flatMap((x) => splitLarge(idx, x, depth + 1))) {
    const last = packed[packed.length - 1];
    if (last && idx.size(last[0].start, sub[sub.length - 1].end) <= TARGET_CHARS) last.push(...sub);
    else packed.push([...sub]);
  }
  return packed;
}

/** Merges neighbouring one-entry groups while the result stays within the target size. */
function mergeTiny(idx: LineIndex, groups: PropertyEntry[][]): PropertyEntry[][][] {
  const out: PropertyEntry[][][] = [];
  const tiny = (g: PropertyEntry[]) => g.length === 1 && idx.size(g[0].start, g[0].end) < TINY_CHARS;
  for (const g of groups) {
    const last = out[out.length - 1];
    if (last && tiny(g) && tiny(last[last.length - 1]) && idx.size(last[0][0].start, g[0].end) <= TARGET_CHARS) last.push(g);
    else out.push([g]);
  }
  return out;
}

export function chunkProperties(path: string, text: string): Chunk[] {
  const idx = new LineIndex(text);
  const entries = parseProperties(idx);
  const file = baseName(path);
  const out: Chunk[] = [];
  if (!entries.length) return out;
  for (const groups of mergeTiny(idx, group(idx, entries))) {
    const all = groups.flat();
    const r = idx.trim(all[0].start, all[all.length - 1].end);
    if (!r) continue;
    const prefix = groupPrefix(all);
    const symbol = prefix || listOf(groups.map((g) => groupPrefix(g)), 3);
    const dropped = prefix ? prefix.length + 1 : 0;
    const keys = all.map((e) => (prefix && e.key.startsWith(`${prefix}.`) ? e.key.slice(dropped) : e.key));
    const comments = all.flatMap((e) => e.comments).filter((c) => /[A-Za-z]/.test(c));
    const values = all
      .filter((e) => e.value && e.value.length <= 40 && !/password|secret|token|key/i.test(e.key))
      .slice(0, 4)
      .map((e) => `${e.key.slice(dropped) || e.key} = ${e.value}`);
    const description = sentences([
      `Configuration properties ${symbol}${prefix && words(prefix) !== prefix ? ` (${words(prefix)})` : ''} in ${file}`,
      `Keys: ${listOf(keys, 15)}`,
      comments.length ? prose(comments.join('. '), 200) : '',
      values.length ? `Values: ${values.join('; ')}` : '',
    ]);
    out.push(makeChunk(path, idx, r.start, r.end, 'properties', { symbol, description }));
  }
  return out;
}
