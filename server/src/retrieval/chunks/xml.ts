// XML chunked by element, with a small forgiving scanner (no XML dependency):
// - Maven pom.xml: coordinates, `parent`, `properties`, `dependencies` (packed a few dependencies
//   per chunk), `dependencyManagement`, each `build/plugins/plugin`, each `profile`...
// - other XML (Spring beans, logback, web.xml, persistence.xml): by second-level element, large
//   elements split by their children.
// Chunks are whole lines; an element sharing a line with its neighbour is merged with it. Input the
// scanner cannot make sense of falls back to line windows; nothing here throws.

import type { Chunk } from './types';
import { LineIndex, SPLIT_CHARS, TARGET_CHARS, baseName, lineWindows, listOf, makeChunk, prose, sentences, splitBySize, words } from './lines';

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  /** Offset of '<' of the start tag, and just past the end of the element. */
  start: number;
  end: number;
  /** Offset just past the '>' of the start tag. */
  openEnd: number;
  children: XmlElement[];
  /** Direct character data, collapsed (for leaf values such as `<artifactId>`). */
  text: string;
  parent?: XmlElement;
}

const NAME = /[A-Za-z_:][-A-Za-z0-9_.:]*/y;
const ATTR_NAME = /[^\s=/>"'<]+/y;
const UNQUOTED = /[^\s>]*/y;

/**
 * Scans elements into a tree, recovering from mismatched or unclosed tags (an end tag closes the
 * nearest open element of that name; elements still open at the end close at the end of text).
 */
export function scanXml(text: string): XmlElement[] {
  const roots: XmlElement[] = [];
  const stack: XmlElement[] = [];
  const n = text.length;
  let i = 0;
  const addText = (s: string) => {
    const top = stack[stack.length - 1];
    if (top && top.text.length < 400) top.text = `${top.text} ${s}`.replace(/\s+/g, ' ').trim();
  };
  while (i < n) {
    const lt = text.indexOf('<', i);
    if (lt < 0) {
      addText(text.slice(i));
      break;
    }
    if (lt > i) addText(text.slice(i, lt));
    if (text.startsWith('<!--', lt)) {
      const e = text.indexOf('-->', lt + 4);
      i = e < 0 ? n : e + 3;
      continue;
    }
    if (text.startsWith('<![CDATA[', lt)) {
      const e = text.indexOf(']]>', lt + 9);
      addText(text.slice(lt + 9, e < 0 ? n : e));
      i = e < 0 ? n : e + 3;
      continue;
    }
    if (text.startsWith('<?', lt)) {
      const e = text.indexOf('?>', lt + 2);
      i = e < 0 ? n : e + 2;
      continue;
    }
    if (text.startsWith('<!', lt)) {
      // DOCTYPE and friends, with an optional [internal subset].
      let j = lt + 2;
      let depth = 0;
      while (j < n) {
        const c = text[j];
        if (c === '[') depth++;
        else if (c === ']') depth--;
        else if (c === '>' && depth <= 0) break;
        j++;
      }
      i = j + 1;
      continue;
    }
    if (text[lt + 1] === '/') {
      NAME.lastIndex = lt + 2;
      const m = NAME.exec(text);
      const gt = text.indexOf('>', lt + 2);
      const end = gt < 0 ? n : gt + 1;
      if (m) {
        let k = stack.length - 1;
        while (k >= 0 && stack[k].name !== m[0]) k--;
        if (k >= 0) {
          // Close the matching element; anything opened inside it and left open ends here too.
          while (stack.length > k + 1) stack.pop()!.end = lt;
          stack.pop()!.end = end;
        }
      }
      i = end;
      continue;
    }
    NAME.lastIndex = lt + 1;
    const m = NAME.exec(text);
    if (!m) {
      addText('<');
      i = lt + 1;
      continue;
    }
    // Attributes up to '>' or '/>'.
    const attrs: Record<string, string> = {};
    let j = lt + 1 + m[0].length;
    let selfClosing = false;
    let closed = false;
    while (j < n) {
      const c = text[j];
      if (c === '>') {
        closed = true;
        j++;
        break;
      }
      if (c === '/' && text[j + 1] === '>') {
        closed = true;
        selfClosing = true;
        j += 2;
        break;
      }
      if (c === '<') break; // malformed: a new tag starts before this one ended
      if (/\s/.test(c)) {
        j++;
        continue;
      }
      ATTR_NAME.lastIndex = j;
      const an = ATTR_NAME.exec(text);
      if (!an) {
        j++;
        continue;
      }
      j += an[0].length;
      while (j < n && /\s/.test(text[j])) j++;
      if (text[j] !== '=') {
        attrs[an[0]] = '';
        continue;
      }
      j++;
      while (j < n && /\s/.test(text[j])) j++;
      const q = text[j];
      if (q === '"' || q === "'") {
        const e = text.indexOf(q, j + 1);
        if (e < 0) {
          j = n;
          break;
        }
        attrs[an[0]] = text.slice(j + 1, e);
        j = e + 1;
      } else {
        UNQUOTED.lastIndex = j;
        const v = UNQUOTED.exec(text)?.[0] ?? '';
        attrs[an[0]] = v;
        j += v.length;
      }
    }
    const el: XmlElement = { name: m[0], attrs, start: lt, end: j, openEnd: j, children: [], text: '' };
    const parent = stack[stack.length - 1];
    if (parent) {
      el.parent = parent;
      parent.children.push(el);
    } else roots.push(el);
    if (closed && !selfClosing) stack.push(el);
    i = Math.max(j, lt + 1);
  }
  while (stack.length) stack.pop()!.end = n;
  return roots;
}

// ---------------------------------------------------------------------------------------------

interface Ctx {
  path: string;
  idx: LineIndex;
  pom: boolean;
  file: string;
  /** `groupId:artifactId:version` of a pom. */
  coords: string;
  out: Chunk[];
}

function isXmlComment(line: string): boolean {
  return /^\s*<!--/.test(line) || /^\s*-->/.test(line);
}

function child(el: XmlElement, name: string): XmlElement | undefined {
  return el.children.find((c) => c.name === name);
}

function childText(el: XmlElement, name: string): string {
  return child(el, name)?.text ?? '';
}

/** `plugin[maven-compiler-plugin]`, `bean[orderService]`, `profile[dev]`, or just the name. */
function label(el: XmlElement): string {
  const key = childText(el, 'artifactId') || el.attrs.id || el.attrs.name || childText(el, 'id') || (el.name === 'property' ? '' : childText(el, 'name'));
  return key ? `${el.name}[${key}]` : el.name;
}

function pathOf(el: XmlElement): string {
  const parts: string[] = [];
  for (let e: XmlElement | undefined = el; e; e = e.parent) parts.unshift(e === el ? label(e) : e.name);
  return parts.join('/');
}

function lines(ctx: Ctx, el: XmlElement): { start: number; end: number } {
  const start = ctx.idx.lineOf(el.start);
  return { start, end: Math.max(start, ctx.idx.lastLineBefore(el.end, el.start)) };
}

/** Elements that pom chunking packs several to a chunk, and elements it always keeps alone. */
const POM_PACKED_PARENTS = new Set(['dependencies', 'properties', 'modules', 'exclusions', 'repositories', 'pluginRepositories', 'developers', 'licenses']);
const POM_STANDALONE = new Set(['plugin', 'profile', 'dependencyManagement', 'parent', 'execution']);
/** Pom elements always chunked by their children, whatever their size. */
const POM_DESCEND = new Set(['build', 'plugins', 'pluginManagement', 'profiles', 'reporting']);

/** Whether an element (of `size` characters) is chunked by its children rather than whole. */
function splits(ctx: Ctx, el: XmlElement, size: number): boolean {
  const kids = el.children;
  if (kids.length === 0 || (kids.length === 1 && kids[0].children.length === 0)) return false;
  return size > SPLIT_CHARS || (ctx.pom && POM_DESCEND.has(el.name));
}

function packable(ctx: Ctx, el: XmlElement): boolean {
  if (ctx.pom) {
    if (POM_STANDALONE.has(el.name)) return false;
    if (el.parent && POM_PACKED_PARENTS.has(el.parent.name)) return true;
  }
  return el.children.length === 0;
}

export function chunkXml(path: string, text: string): Chunk[] {
  const idx = new LineIndex(text);
  try {
    const roots = scanXml(text);
    const root = roots.find((r) => r.children.length > 0) ?? roots[0];
    if (!root) return lineWindows(path, idx, 'xml-element');
    const file = baseName(path);
    const pom = file === 'pom.xml' || (root.name === 'project' && root.children.some((c) => c.name === 'modelVersion' || c.name === 'artifactId'));
    const ctx: Ctx = { path, idx, pom, file, coords: '', out: [] };
    if (pom) {
      const parent = child(root, 'parent');
      const g = childText(root, 'groupId') || (parent ? childText(parent, 'groupId') : '');
      const v = childText(root, 'version') || (parent ? childText(parent, 'version') : '');
      ctx.coords = [g, childText(root, 'artifactId'), v].filter(Boolean).join(':');
    }
    const r = lines(ctx, root);
    // The prolog (<?xml?>, comments, DOCTYPE) belongs with the first chunk.
    const first = idx.trim(0, r.end);
    chunkElement(ctx, root, first ? first.start : r.start, r.end, []);
    if (!ctx.out.length) return lineWindows(path, idx, 'xml-element');
    return ctx.out;
  } catch {
    return lineWindows(path, idx, 'xml-element');
  }
}

/**
 * Emits `el` (lines start..end) as one chunk when it is small or has no children; otherwise chunks
 * its children, packing consecutive small ones. `header` holds the start-tag lines of ancestors.
 */
function chunkElement(ctx: Ctx, el: XmlElement, start: number, end: number, header: string[]): void {
  const { idx } = ctx;
  const size = idx.size(start, end);
  const kids = el.children;
  if (!splits(ctx, el, size)) {
    if (size > SPLIT_CHARS * 2) {
      for (const p of splitBySize(idx, start, end)) emit(ctx, [el], p.start, p.end, header);
    } else emit(ctx, [el], start, end, header);
    return;
  }
  const openLine = idx.lineOf(el.start);
  const childHeader = [...header, idx.line(openLine)];
  // Line spans of the children, each extended up over the comments right above it, merged when two
  // children share a line.
  const units: { start: number; end: number; els: XmlElement[] }[] = [];
  let floor = idx.lineOf(el.openEnd - 1) + 1;
  for (const k of kids) {
    const span = lines(ctx, k);
    const s = idx.extendOverComments(span.start, floor, isXmlComment);
    const prev = units[units.length - 1];
    if (prev && s <= prev.end) {
      prev.end = Math.max(prev.end, span.end);
      prev.els.push(k);
    } else units.push({ start: Math.max(s, prev ? prev.end + 1 : s), end: span.end, els: [k] });
    floor = Math.max(floor, span.end + 1);
  }
  if (!units.length) {
    emit(ctx, [el], start, end, header);
    return;
  }
  // Lines before the first child (the start tag) go with the first unit, lines after the last
  // child (the end tag) with the last one, when those units are emitted as they are.
  const firstUnit = units[0];
  const lastUnit = units[units.length - 1];
  const lead = start < firstUnit.start ? start : null;
  const tail = end > lastUnit.end ? end : null;

  let batch: { start: number; end: number; els: XmlElement[] } | null = null;
  const flush = () => {
    if (!batch) return;
    const s = batch.start;
    emit(ctx, batch.els, s, batch.end, s <= openLine ? header : childHeader);
    batch = null;
  };
  for (const u of units) {
    let s = u.start;
    let e = u.end;
    if (u === firstUnit && lead !== null) s = lead;
    if (u === lastUnit && tail !== null) e = tail;
    const small = u.els.every((k) => packable(ctx, k)) && idx.size(u.start, u.end) <= TARGET_CHARS;
    if (small) {
      if (batch && idx.size(batch.start, e) <= TARGET_CHARS && sameKind(batch.els, u.els)) {
        batch.end = e;
        batch.els.push(...u.els);
      } else {
        flush();
        batch = { start: s, end: e, els: [...u.els] };
      }
      continue;
    }
    flush();
    if (u.els.length === 1) {
      const k = u.els[0];
      // The element's own lines, with the parent's start tag (first unit) or end tag (last unit).
      if (s < u.start || e > u.end) {
        const span = { start: s, end: e };
        if (!splits(ctx, k, idx.size(span.start, span.end))) {
          emit(ctx, [k], span.start, span.end, span.start <= openLine ? header : childHeader);
          continue;
        }
        // Too large: chunk the child itself, leaving the parent's tag lines to the header.
      }
      chunkElement(ctx, k, u.start, u.end, childHeader);
    } else {
      emit(ctx, u.els, s, e, s <= openLine ? header : childHeader);
    }
  }
  flush();
}

/** Packed neighbours must be alike: same element name, or leaf elements of any name. */
function sameKind(a: XmlElement[], b: XmlElement[]): boolean {
  const all = [...a, ...b];
  return all.every((x) => x.name === all[0].name) || all.every((x) => x.children.length === 0);
}

function emit(ctx: Ctx, els: XmlElement[], start: number, end: number, header: string[]): void {
  const { idx } = ctx;
  const r = idx.trim(start, end);
  if (!r) return;
  const parent = els[0].parent;
  const symbol = els.length === 1 || !parent ? pathOf(els[0]) : pathOf(parent);
  const description = sentences([
    ctx.pom ? `Maven ${ctx.file}${ctx.coords ? ` of ${ctx.coords}` : ''}: ${describePath(symbol)}` : `XML ${ctx.file}: ${describePath(symbol)}`,
    listOf(els.map((e) => describe(e)).filter(Boolean), 10),
  ]);
  ctx.out.push(makeChunk(ctx.path, idx, r.start, r.end, 'xml-element', { symbol, header: header.length ? header.join('\n') : undefined, description }));
}

function describePath(symbol: string): string {
  return symbol
    .split('/')
    .map((p) => words(p.replace(/\[.*\]$/, '')) + (p.match(/\[(.*)\]$/) ? ` ${p.match(/\[(.*)\]$/)![1]}` : ''))
    .join(' ');
}

/** A short phrase for one element: Maven coordinates, notable attributes, or leaf values. */
function describe(el: XmlElement): string {
  const g = childText(el, 'groupId');
  const a = childText(el, 'artifactId');
  if (a) {
    const v = childText(el, 'version');
    const scope = childText(el, 'scope');
    const config = child(el, 'configuration');
    const goals = el.children
      .filter((c) => c.name === 'executions')
      .flatMap((x) => x.children.flatMap((ex) => (child(ex, 'goals')?.children ?? []).map((goal) => goal.text)))
      .filter(Boolean);
    return [
      `${el.name} ${[g, a, v].filter(Boolean).join(':')}${scope ? ` (${scope})` : ''}`,
      config?.children.length ? ` configured with ${listOf(config.children.map((c) => c.name), 8)}` : '',
      goals.length ? ` goals ${listOf(goals, 6)}` : '',
    ].join('');
  }
  const attrs = ['id', 'name', 'class', 'ref', 'resource', 'value', 'level', 'base-package']
    .filter((k) => el.attrs[k])
    .map((k) => `${k} ${el.attrs[k]}`);
  if (attrs.length) return `${el.name} ${attrs.join(' ')}`;
  if (el.children.length === 0) return el.text ? `${el.name} ${prose(el.text, 60)}` : el.name;
  const leaves = el.children
    .filter((c) => c.children.length === 0 && c.text)
    .slice(0, 6)
    .map((c) => `${c.name} ${prose(c.text, 40)}`);
  return leaves.length ? `${el.name} (${leaves.join(', ')})` : `${el.name} with ${listOf(el.children.map((c) => c.name), 6)}`;
}
