// Java method-level chunks that carry their context (qodo's chunking): the package line, the
// imports the chunk uses, the enclosing class header line(s), and the fields it touches, with
// the chunk itself near 500 characters. Large methods are split at top-level statement
// boundaries, never between an `if` and its `else` (or a `try` and its `catch`/`finally`).
// Pure: path + text + facts in, chunks out; every chunk is a run of whole lines.

import type { FileFacts, SymbolFact } from '../../java/facts';
import { isTypeKind } from '../../java/symbols';
import { splitIdentifier } from '../../text/identifiers';
import { BoundedMemo } from '../../text/boundedMemo';
import type { Chunk } from './types';
import { docSummary } from '../symbols';

/** qodo: "as small as possible and set a limit around 500 characters". */
export const JAVA_TARGET_CHARS = 500;
/** A method longer than this is split into statement runs. */
export const JAVA_SPLIT_CHARS = 900;

const CONTINUATION = /^\s*(else\b|catch\b|finally\b|\.|\+|-|\*|\/(?!\/)|&&|\|\||\?|:|\)|\]|,|while\s*\(.*\)\s*;)/;

export function chunkJavaFile(path: string, text: string, facts: FileFacts): Chunk[] {
  const lines = text.split('\n');
  return javaPieces(lines, facts).map(({ s, start, p }) => pieceChunk(path, lines, facts, s, start, p));
}

/** A chunk's place and text without its header and description (what a search corpus indexes), in chunkJavaFile's order. */
export type ChunkBody = Pick<Chunk, 'startLine' | 'endLine' | 'kind' | 'symbol' | 'text'>;

/** chunkJavaFile's chunks as places and text only: the header and description are not made. */
export function javaChunkBodies(text: string, facts: FileFacts): ChunkBody[] {
  const lines = text.split('\n');
  return javaPieces(lines, facts).map(({ s, p }) => ({ startLine: p.start, endLine: p.end, kind: s.kind, symbol: s.id, text: lines.slice(p.start, p.end + 1).join('\n') }));
}

/** Each chunked declaration's pieces: the lines of each, and where its chunks begin. */
function javaPieces(lines: string[], facts: FileFacts): { s: SymbolFact; start: number; p: { start: number; end: number } }[] {
  const out: { s: SymbolFact; start: number; p: { start: number; end: number } }[] = [];
  for (const s of facts.symbols) {
    if (!isChunked(s)) continue;
    const start = docStart(s, lines);
    const end = s.span.el;
    const whole = lines.slice(start, end + 1).join('\n');
    const pieces = whole.length > JAVA_SPLIT_CHARS ? splitStatements(lines, s, start) : [{ start, end }];
    for (const p of pieces) out.push({ s, start, p });
  }
  return out;
}

/**
 * The chunk chunkJavaFile makes for `span` (the lines of one piece of the declaration `symbol`),
 * made again from the file: callers that keep many chunks keep only their spans. Undefined when
 * the file has no such declaration around those lines (its text changed since).
 */
export function javaChunkAt(path: string, lines: string[], facts: FileFacts, span: { symbol?: string; startLine: number; endLine: number }): Chunk | undefined {
  for (const s of facts.symbols) {
    if (!isChunked(s) || s.id !== span.symbol) continue;
    const start = docStart(s, lines);
    if (span.startLine >= start && span.endLine <= s.span.el) return pieceChunk(path, lines, facts, s, start, { start: span.startLine, end: span.endLine });
  }
  return undefined;
}

function isChunked(s: SymbolFact): boolean {
  return (s.kind === 'method' || s.kind === 'constructor') && !s.local;
}

/** The chunk of lines `p` of method `s` (whose chunks begin at `start`); later pieces repeat its signature line. */
function pieceChunk(path: string, lines: string[], facts: FileFacts, s: SymbolFact, start: number, p: { start: number; end: number }): Chunk {
  const owner = typeOf(facts, s);
  const body = lines.slice(p.start, p.end + 1).join('\n');
  const sigLine = p.start > start ? lines[s.span.sl] : undefined;
  return {
    path, startLine: p.start, endLine: p.end, kind: s.kind, symbol: s.id,
    header: headerFor(facts, lines, owner, body, sigLine),
    text: body,
    description: describeChunk(s, owner),
  };
}

function typeOf(facts: FileFacts, s: SymbolFact): SymbolFact | undefined {
  let p = s.parent;
  while (p >= 0 && !isTypeKind(facts.symbols[p].kind)) p = facts.symbols[p].parent;
  return p >= 0 ? facts.symbols[p] : undefined;
}

function docStart(s: SymbolFact, lines: string[]): number {
  if (!s.javadoc) return s.span.sl;
  for (let l = s.span.sl - 1; l >= Math.max(0, s.span.sl - 80); l--) {
    const t = lines[l]?.trim() ?? '';
    if (t.startsWith('/**')) return l;
    if (!(t.startsWith('*') || t === '')) break;
  }
  return s.span.sl;
}

/**
 * Each declaration's direct members in declaration order, per file (found once, not once per
 * chunk: a large class has thousands), for the files being chunked now (a cold build chunks
 * every file once: keeping every file's table kept one per file of the workspace).
 */
const members = BoundedMemo.weak<FileFacts, Map<SymbolFact, SymbolFact[]>>(256);

function membersOf(facts: FileFacts, owner: SymbolFact): SymbolFact[] {
  const byOwner = members.get(facts, () => {
    const table = new Map<SymbolFact, SymbolFact[]>();
    for (const f of facts.symbols) {
      const p = facts.symbols[f.parent];
      if (!p) continue;
      let list = table.get(p);
      if (!list) table.set(p, (list = []));
      list.push(f);
    }
    return table;
  });
  return byOwner.get(owner) ?? [];
}

/** `new Owner(`, `new Owner<` or `this(`, per owner name: compiled once (a file has a chunk per method, a corpus thousands of files of one name). */
const buildsPatterns = new Map<string, RegExp>();

function buildsPattern(name: string): RegExp {
  let re = buildsPatterns.get(name);
  if (!re) {
    if (buildsPatterns.size >= 10_000) buildsPatterns.clear();
    // The name goes in as written, as it always did (a '$' in it is the regex's own).
    buildsPatterns.set(name, (re = new RegExp(`\\bnew\\s+${name}\\s*[(<]|\\bthis\\s*\\(`)));
  }
  return re;
}

/** Context lines, comment-marked where synthesized: package, used imports, class header, touched fields. */
export function headerFor(facts: FileFacts, lines: string[], owner: SymbolFact | undefined, body: string, sigLine?: string): string {
  const words = new Set(body.match(/[A-Za-z_$][A-Za-z0-9_$]*/g) ?? []);
  const out: string[] = [];
  if (facts.package) out.push(`package ${facts.package};`);
  for (const imp of facts.imports) {
    const simple = imp.name.slice(imp.name.lastIndexOf('.') + 1);
    if (!imp.wildcard && words.has(simple)) out.push(`import ${imp.static ? 'static ' : ''}${imp.name};`);
  }
  if (owner) {
    out.push(`// in ${owner.id} (${owner.kind})`);
    out.push(lines[owner.nameSpan.sl]?.replace(/\s+$/, '') ?? '');
    // Tested at the first constructor; every match holds 'new' or 'this', found far faster than the pattern's alternation.
    let buildsOwner: boolean | undefined;
    for (const f of membersOf(facts, owner)) {
      if (f.kind === 'field' && words.has(f.name)) out.push(lines[f.span.sl]?.replace(/\s+$/, '') ?? '');
      // Constructor signatures when the chunk builds its own type (`new Owner(..)`, `this(..)`).
      if (f.kind === 'constructor' && (buildsOwner ??= (body.includes('new') || body.includes('this')) && buildsPattern(owner.name).test(body)) && !body.includes(lines[f.span.sl] ?? '\0')) out.push((lines[f.nameSpan.sl]?.replace(/\s+$/, '') ?? '') + ' // constructor');
    }
  }
  if (sigLine) out.push(sigLine.replace(/\s+$/, '') + ' // (continued)');
  return out.join('\n');
}

function describeChunk(s: SymbolFact, owner: SymbolFact | undefined): string {
  return `${docSummary(s.javadoc, 400)} ${s.kind} ${splitIdentifier(s.name).join(' ')}${owner ? ' in ' + splitIdentifier(owner.name).join(' ') : ''}`.trim();
}

/** Splits a method into runs of whole lines at top-level statement boundaries. */
export function splitStatements(lines: string[], s: SymbolFact, start: number): { start: number; end: number }[] {
  const end = s.span.el;
  // Depth relative to the method body: the body's own statements are at depth 1.
  let depth = 0;
  let inBlock = false;
  const boundaryAfter: boolean[] = [];
  let bodyOpen = false;
  for (let l = start; l <= end; l++) {
    let t = lines[l] ?? '';
    if (inBlock) {
      const c = t.indexOf('*/');
      if (c < 0) { boundaryAfter[l] = false; continue; }
      t = t.slice(c + 2);
      inBlock = false;
    }
    t = t.replace(/\/\*.*?\*\//g, '');
    const open = t.indexOf('/*');
    if (open >= 0) { t = t.slice(0, open); inBlock = true; }
    t = t.replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/'(?:[^'\\]|\\.)*'/g, "''").replace(/\/\/.*$/, '');
    for (const ch of t) {
      if (ch === '{' || ch === '(') { depth++; if (ch === '{') bodyOpen = true; }
      else if (ch === '}' || ch === ')') depth--;
    }
    const trimmed = t.trim();
    const next = nextCode(lines, l + 1, end);
    boundaryAfter[l] = bodyOpen && depth === 1 && !inBlock && (trimmed.endsWith(';') || trimmed.endsWith('}') || trimmed === '')
      && next !== undefined && !CONTINUATION.test(next);
  }
  const pieces: { start: number; end: number }[] = [];
  let cur = start, chars = 0;
  for (let l = start; l <= end; l++) {
    chars += (lines[l]?.length ?? 0) + 1;
    if (l < end - 1 && boundaryAfter[l] && chars >= JAVA_TARGET_CHARS) {
      pieces.push({ start: cur, end: l });
      cur = l + 1;
      chars = 0;
    }
  }
  if (cur <= end) {
    // A short tail (just the closing brace, say) joins the previous piece.
    if (pieces.length && chars < JAVA_TARGET_CHARS / 4) pieces[pieces.length - 1].end = end;
    else pieces.push({ start: cur, end });
  }
  return pieces;
}

function nextCode(lines: string[], from: number, end: number): string | undefined {
  for (let l = from; l <= end; l++) {
    const t = (lines[l] ?? '').trim();
    if (t && !t.startsWith('//')) return t;
  }
  return undefined;
}
