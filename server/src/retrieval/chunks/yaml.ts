// YAML configuration (application.yml, docker-compose, CI files...) chunked by top-level key; a key
// whose region is large is split by its second-level keys (and so on, a few levels deep), each
// piece carrying its ancestors' key lines as header. Consecutive tiny entries (one-line scalars)
// are merged. Broken YAML falls back to line windows.

import type { Chunk } from './types';
import { LineIndex, SPLIT_CHARS, TARGET_CHARS, baseName, lineWindows, listOf, makeChunk, prose, regions, sentences, splitBySize, words } from './lines';
import { type Entry, type YamlDoc, childKeys, entriesOf, isCollection, isScalar, isYamlComment, parseYaml } from './yamlast';

const MAX_DEPTH = 3;
const TINY_CHARS = 120;

export function chunkYaml(path: string, text: string): Chunk[] {
  const idx = new LineIndex(text);
  const docs = parseYaml(text);
  if (!docs) return lineWindows(path, idx, 'yaml');
  return chunkYamlDocs(path, idx, docs);
}

/** Chunks parsed documents (also used for the non-endpoint parts of nothing else). */
export function chunkYamlDocs(path: string, idx: LineIndex, docs: YamlDoc[]): Chunk[] {
  const out: Chunk[] = [];
  const file = baseName(path);
  docs.forEach((doc, d) => {
    const contents = doc.contents;
    if (!contents || !contents.range) return;
    const docHeader = docs.length > 1 ? documentHeader(doc, d) : undefined;
    if (isCollection(contents) && entriesOf(contents, idx).length) {
      const lastEnd = idx.lastLineBefore(contents.range[1], contents.range[0]);
      chunkEntries(path, idx, file, contents, [], docHeader ? [docHeader] : [], 0, lastEnd, out);
      return;
    }
    const r = idx.trim(idx.lineOf(contents.range[0]), idx.lastLineBefore(contents.range[1], contents.range[0]));
    if (!r) return;
    for (const piece of splitBySize(idx, r.start, r.end)) {
      out.push(makeChunk(path, idx, piece.start, piece.end, 'yaml', { symbol: file, header: docHeader, description: `YAML document in ${file}` }));
    }
  });
  return out;
}

function documentHeader(doc: YamlDoc, d: number): string {
  let profile: unknown;
  try {
    profile = doc.getIn(['spring', 'config', 'activate', 'on-profile']) ?? doc.getIn(['spring', 'profiles']);
  } catch {
    profile = undefined;
  }
  const p = isScalar(profile) ? profile.value : profile;
  return `--- # document ${d + 1}${typeof p === 'string' ? ` (profile ${p})` : ''}`;
}

function symbolOf(path: string[]): string {
  let s = '';
  for (const p of path) s += p.startsWith('[') || !s ? p : `.${p}`;
  return s;
}

/** Chunks the entries of one collection; `keyPath`/`header` describe its ancestors. */
function chunkEntries(path: string, idx: LineIndex, file: string, node: unknown, keyPath: string[], header: string[], depth: number, lastEnd: number, out: Chunk[]): void {
  const entries = entriesOf(node, idx);
  const floor = entries.length ? entries[0].startLine : 0;
  const regs = regions(
    idx,
    entries.map((e, i) => ({
      start: idx.extendOverComments(e.startLine, i === 0 ? Math.max(0, floor - 50) : entries[i - 1].endLine + 1, isYamlComment),
      end: e.endLine,
      item: e,
    })),
    lastEnd,
  );
  let tiny: { start: number; end: number; items: Entry[] } | null = null;
  const flushTiny = () => {
    if (!tiny) return;
    emit(path, idx, file, tiny.start, tiny.end, tiny.items, keyPath, header, out);
    tiny = null;
  };
  for (const r of regs) {
    const size = idx.size(r.start, r.end);
    const e = r.items[0];
    const kids = isCollection(e.value) ? entriesOf(e.value, idx).length : 0;
    if (r.items.length === 1 && size > SPLIT_CHARS && depth < MAX_DEPTH && kids > 0) {
      flushTiny();
      const sub: Chunk[] = [];
      // A key with a single child (`jobs: build: ...`) does not use up a level.
      chunkEntries(path, idx, file, e.value, [...keyPath, e.label], [...header, idx.line(e.startLine)], kids > 1 ? depth + 1 : depth, r.end, sub);
      if (sub.length && r.start < sub[0].startLine) {
        // The first piece also takes the key line (and the comments above it), so its header is
        // only what lies above this entry.
        const first = sub[0];
        sub[0] = makeChunk(path, idx, r.start, first.endLine, first.kind, {
          symbol: first.symbol,
          header: header.length ? header.join('\n') : undefined,
          description: first.description,
        });
      }
      out.push(...sub);
      continue;
    }
    if (r.items.length === 1 && size > SPLIT_CHARS * 2) {
      flushTiny();
      // A large scalar or a collection we will not descend into: cut it by size.
      for (const piece of splitBySize(idx, r.start, r.end)) emit(path, idx, file, piece.start, piece.end, r.items, keyPath, header, out);
      continue;
    }
    // One-line keys, and sequence items, are packed with their like neighbours up to the target.
    if ((size < TINY_CHARS && !isCollection(e.value)) || (e.indexed && size <= TARGET_CHARS)) {
      if (tiny && tiny.items[0].indexed === e.indexed && idx.size(tiny.start, r.end) <= TARGET_CHARS) {
        tiny.end = r.end;
        tiny.items.push(...r.items);
      } else {
        flushTiny();
        tiny = { start: r.start, end: r.end, items: [...r.items] };
      }
      continue;
    }
    flushTiny();
    emit(path, idx, file, r.start, r.end, r.items, keyPath, header, out);
  }
  flushTiny();
}

function emit(path: string, idx: LineIndex, file: string, start: number, end: number, items: Entry[], keyPath: string[], header: string[], out: Chunk[]): void {
  const symbols = items.map((e) => symbolOf([...keyPath, e.label]));
  const symbol =
    items.length > 1 && items.every((e) => e.indexed)
      ? symbolOf([...keyPath, `[${items[0].label.slice(1, -1)}-${items[items.length - 1].label.slice(1, -1)}]`])
      : symbols.length <= 3
        ? symbols.join(', ')
        : `${symbols.slice(0, 3).join(', ')}, …`;
  const parts: string[] = [];
  for (const e of items.slice(0, 12)) {
    const name = words(symbolOf([...keyPath, e.label]));
    const kids = childKeys(e.value);
    if (kids.length) parts.push(`${name}: ${listOf(kids.map(String), 10)}`);
    else if (isScalar(e.value) && e.value.value !== null && e.value.value !== undefined) parts.push(`${name} = ${prose(e.value.value, 60)}`);
    else parts.push(name);
  }
  const description = sentences([`YAML configuration ${symbol} in ${file}`, parts.join('; ')]);
  out.push(makeChunk(path, idx, start, end, 'yaml', { symbol, header: header.length ? header.join('\n') : undefined, description }));
}
