// What one repository contributes to the organisation index, derived from the Indexer's own facts
// and resolution (nothing is extracted twice) and vetted: every text that leaves the machine has
// been through the same secret redaction as retrieved context. Paths are relative to the
// repository root with '/' separators, so nothing of the publishing machine's layout leaks.

import { createHash } from 'node:crypto';
import { isAbsolute, relative, sep } from 'node:path';
import type { Indexer } from '../index/indexer';
import { discoverFiles, readSourceFile } from '../index/files';
import { refsOfText } from '../index/parseFile';
import type { IndexedFile, WorkspaceIndex } from '../index/workspaceIndex';
import { erasedSimpleName } from '../java/extract';
import type { Expr, FileFacts, RefFact } from '../java/facts';
import { chunkTextFile, textFileType, type Chunk } from '../retrieval/chunks';
import { chunkJavaFile } from '../retrieval/chunks/java';
import { docSummary, signatureLines, stripLine } from '../retrieval/symbols';
import { splitIdentifier } from '../text/identifiers';
import { vetText, type VetFlag, type VetResult } from '../vetting';
import { redactionMarker } from '../vetting/spans';

export interface DeclRow { symbol: string; kind: string; name: string; package: string; line: number; signature: string; summary: string; description: string; search: string }
/**
 * target: the symbol id a resolved edge points to, or for a reference into another repository the
 * qualified name the file's imports give it (`com.acme.platform.Money#plus`, `com.acme.platform.Money`).
 * foreign: the reference points outside this repository.
 */
export interface UsageRow { line: number; col: number; fromSymbol: string; target: string; name: string; kind: string; site: string; foreign: boolean }
export interface ChunkRow { startLine: number; endLine: number; kind: string; symbol: string | null; header: string | null; text: string; flags: string[]; search: string }

export interface FileRows {
  path: string;
  /** Content hash of the file's text. */
  hash: string;
  /**
   * Hash of everything the rows are derived from: the text, the file's resolution (a file whose
   * content is unchanged can still resolve differently), its foreign imports, and the code that
   * derives them. Equal to the published one: the rows are not derived again (`derived` false, empty).
   */
  sourceKey: string;
  derived: boolean;
  /** Hash of every row below. */
  digest: string;
  /** A Java file's JavaTextRows digest (its rows but the usages); null for other files. */
  textDigest: string | null;
  /** A Java file's text, vetted (what org/library.ts gives another workspace to index); null for other files. */
  text: string | null;
  decls: DeclRow[];
  usages: UsageRow[];
  imports: string[];
  chunks: ChunkRow[];
}

/** Longest usage-site line kept (a minified line is not an example). */
const MAX_SITE_CHARS = 240;

/** A symbol id without its parameter list: `a.B#m(int)` → `a.B#m`; what foreign usages name. */
export function memberKey(symbol: string): string {
  return symbol.replace(/\(.*$/, '');
}

export function relPath(root: string, path: string): string {
  return relative(root, path).split(sep).join('/');
}

export function isInside(root: string, path: string): boolean {
  const r = relative(root, path);
  return r !== '' && !r.startsWith('..') && !isAbsolute(r);
}

/** An identifier's search words (itself and its parts, lower case), kept: a repository repeats its identifiers. */
const wordsOfIdentifier = new Map<string, string[]>();
const MAX_KEPT_IDENTIFIERS = 200_000;

/** Words a full-text search matches: identifier parts and whole identifiers, lower case. */
export function searchWords(...texts: string[]): string {
  // Each distinct identifier once (a chunk repeats its names), in order of first occurrence: the same words in the same order.
  const ids = new Set<string>();
  for (const t of texts) for (const id of t.match(/[A-Za-z_$][A-Za-z0-9_$]*/g) ?? []) ids.add(id);
  const words = new Set<string>();
  for (const id of ids) {
    let w = wordsOfIdentifier.get(id);
    if (!w) {
      if (wordsOfIdentifier.size >= MAX_KEPT_IDENTIFIERS) wordsOfIdentifier.clear();
      wordsOfIdentifier.set(id, (w = [id.toLowerCase(), ...splitIdentifier(id)]));
    }
    for (const x of w) words.add(x);
  }
  return [...words].join(' ');
}

function vetted(text: string): string {
  return vetText(text).text;
}

/** Javadoc as prose: tags reduced to their text, markup removed, whitespace collapsed. */
function javadocText(javadoc: string | undefined): string {
  if (!javadoc) return '';
  return javadoc.replace(/\{@(?:link|linkplain|code|literal|value)\s+([^}]*)\}/g, '$1').replace(/<[^>]+>/g, '').replace(/\s+/g, ' ').trim();
}

/** A chunk of a text file, vetted on its own. */
function chunkRow(c: Chunk): ChunkRow {
  const v = vetText(c.text);
  const header = c.header === undefined ? null : vetted(c.header);
  return {
    startLine: c.startLine, endLine: c.endLine, kind: c.kind, symbol: c.symbol ?? null, header,
    text: v.text, flags: v.flags, search: searchWords(c.symbol ?? '', v.text, c.description ? vetted(c.description) : ''),
  };
}

/**
 * A chunk cut from a file that was vetted whole (`vet`): its text and header are already redacted
 * (vetting keeps every line where it was), and its flags are those of the lines it spans.
 */
function vettedChunkRow(c: Chunk, vet: VetResult): ChunkRow {
  const within = (line: number) => line >= c.startLine && line <= c.endLine;
  const flags: VetFlag[] = [];
  if (vet.instructionLines.some(within)) flags.push('instruction-like');
  if (vet.secrets.some((x) => within(x.line)) || c.text.includes(REDACTED)) flags.push('secret-redacted');
  return {
    startLine: c.startLine, endLine: c.endLine, kind: c.kind, symbol: c.symbol ?? null, header: c.header ?? null,
    text: c.text, flags, search: searchWords(c.symbol ?? '', c.text, c.description ? vetted(c.description) : ''),
  };
}

/** What every redacted secret's replacement starts with. */
const REDACTED = redactionMarker('').slice(0, -1);

function digestOf(rows: Omit<FileRows, 'digest' | 'sourceKey' | 'derived' | 'textDigest'>): string {
  return createHash('sha1').update(JSON.stringify(rows)).digest('hex');
}

declare const __NEEDLE_ORG_ROWS_VERSION__: string | undefined;

/** A hash of the sources that derive rows (extraction, resolution, chunkers, vetting, this module), set by the build. */
function rowsVersion(): string {
  return typeof __NEEDLE_ORG_ROWS_VERSION__ === 'string' ? __NEEDLE_ORG_ROWS_VERSION__ : 'dev';
}

function sourceKeyOf(...parts: string[]): string {
  const h = createHash('sha1').update(rowsVersion());
  for (const p of parts) h.update('\0').update(p);
  return h.digest('hex');
}

/** A file whose rows are already published as they would be derived now. */
function unchangedFile(path: string, hash: string, sourceKey: string): FileRows {
  return { path, hash, sourceKey, derived: false, digest: '', textDigest: null, text: null, decls: [], usages: [], imports: [], chunks: [] };
}

/** Packages of the platform and common libraries: their uses are not examples of an organisation's API. */
const PLATFORM_PACKAGE = /^(java|javax|jdk|sun|com\.sun|org\.w3c|org\.xml)\./;

/** Single-type imports of types this repository does not declare, outside the platform's packages. */
function foreignImports(index: WorkspaceIndex, facts: FileFacts): string[] {
  return facts.imports.filter((i) => !i.static && !i.wildcard && !PLATFORM_PACKAGE.test(i.name) && !index.symbol(i.name)).map((i) => i.name);
}

/**
 * References into types this repository imports but does not declare (another repository's API),
 * named by the import. The index keeps only a count of such references, so the sites are read again
 * from the file's text, and only for files that have such an import.
 */
export function foreignUsages(index: WorkspaceIndex, facts: FileFacts, text: string | undefined, hash: string): Omit<UsageRow, 'site'>[] {
  const foreign = new Map<string, string>();
  for (const name of foreignImports(index, facts)) foreign.set(name.slice(name.lastIndexOf('.') + 1), name);
  if (!foreign.size) return [];
  // The index keeps the reference sites when it was told to (publishing), else they are read again.
  const refs = facts.refsReleased ? refsOfText(text, hash) ?? [] : facts.refs;
  const fieldTypes = new Map<string, string>();
  for (const s of facts.symbols) if (s.kind === 'field' && s.type) fieldTypes.set(s.name, s.type);
  const typeOf = (e: Expr | undefined): string | undefined => {
    if (!e) return undefined;
    if (e.k === 'local') return e.type ?? undefined;
    if (e.k === 'name') return fieldTypes.get(e.name) ?? e.name;
    if (e.k === 'field' && e.recv.k === 'this') return fieldTypes.get(e.name);
    if (e.k === 'new' || e.k === 'cast') return e.type;
    return undefined;
  };
  const out: Omit<UsageRow, 'site'>[] = [];
  const fromId = (r: RefFact) => facts.symbols[r.from]?.id ?? '';
  for (const r of refs) {
    let owner: string | undefined;
    let member: string | undefined;
    if (r.kind === 'call' || r.kind === 'methodRef' || r.kind === 'field') {
      const recv = r.expr && 'recv' in r.expr ? r.expr.recv : undefined;
      owner = typeOf(recv);
      member = r.name;
    } else if (r.kind === 'new' || r.kind === 'type') {
      owner = r.type ?? r.name;
    }
    if (!owner) continue;
    const qualified = foreign.get(erasedSimpleName(owner).replace(/\[\]$/g, ''));
    if (!qualified) continue;
    out.push({ line: r.line, col: r.col, fromSymbol: fromId(r), target: member ? `${qualified}#${member}` : qualified, name: member ?? r.name, kind: r.kind, foreign: true });
  }
  return out;
}

/**
 * The rows of every Java file the indexer holds under `root`, and of every other text file Needle
 * chunks, in path order; files whose source key equals `published`'s (path → source key) are not
 * derived again. A generator: the publisher writes one batch while the next is derived.
 */
export function* repositoryRows(indexer: Indexer, root: string, published: Map<string, string> = new Map()): Generator<FileRows> {
  const java = indexer.index.allFiles().filter((f) => f.root === root).map((f) => ({ f, path: relPath(root, f.path) }));
  const { files: textFiles } = discoverFiles(root, { accept: (name) => textFileType(name) !== undefined });
  const other = textFiles.map((abs) => ({ abs, path: relPath(root, abs) }));
  const all = [...java.map((j) => ({ path: j.path, java: j.f, abs: '' })), ...other.map((o) => ({ path: o.path, java: undefined, abs: o.abs }))];
  all.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const item of all) {
    const rows = item.java ? javaFileRows(indexer, item.java, item.path, published) : textFileRows(item.abs, item.path, published);
    if (rows) yield rows;
  }
}

/**
 * What a Java file contributes that its text and facts alone decide (no resolution, no other file):
 * the vetted text, declarations, imports and chunks, with a digest of them. Pure, so the indexer's
 * worker threads derive it while they parse (index/worker.ts, `derive: 'org-publish'`), and the
 * main thread only for files it did not parse (a warm index cache).
 */
export interface JavaTextRows {
  /** Content hash of the text these rows were derived from. */
  hash: string;
  /** Vetted. */
  text: string;
  decls: DeclRow[];
  imports: string[];
  chunks: ChunkRow[];
  /** Hash of the fields above. */
  digest: string;
}

export function javaTextRows(absPath: string, raw: string, hash: string, facts: FileFacts): JavaTextRows {
  // Vetted once, whole: signatures, usage sites, chunks and the stored text are cut from the
  // redacted text (same lines), rather than each piece vetted again.
  const vet = vetText(raw);
  const text = vet.text;
  const lines = text.split('\n');
  const decls: DeclRow[] = [];
  for (const s of facts.symbols) {
    if (s.local || s.anonymous) continue;
    const sig = signatureLines(s, lines);
    const signature = lines.slice(sig.start, sig.end + 1).map(stripLine).join(' ').replace(/\s+/g, ' ').replace(/\s*\{\s*$/, '').trim();
    const summary = s.javadoc ? vetted(docSummary(s.javadoc)) : '';
    const description = s.javadoc ? vetted(javadocText(s.javadoc)) : '';
    decls.push({ symbol: s.id, kind: s.kind, name: s.name, package: facts.package, line: s.nameSpan.sl, signature, summary, description, search: searchWords(s.name, summary) });
  }
  const imports = facts.imports.map((i) => (i.wildcard ? `${i.name}.*` : i.name)).sort();
  const chunks = chunkJavaFile(absPath, text, facts).map((c) => vettedChunkRow(c, vet));
  const rows = { hash, text, decls, imports, chunks };
  return { ...rows, digest: createHash('sha1').update(JSON.stringify(rows)).digest('hex') };
}

/** Structurally a JavaTextRows (what a worker sent back). */
export function isJavaTextRows(x: unknown): x is JavaTextRows {
  return typeof x === 'object' && x !== null && typeof (x as JavaTextRows).hash === 'string' && typeof (x as JavaTextRows).digest === 'string'
    && Array.isArray((x as JavaTextRows).decls) && Array.isArray((x as JavaTextRows).chunks) && Array.isArray((x as JavaTextRows).imports);
}

function javaFileRows(indexer: Indexer, f: IndexedFile, path: string, published: Map<string, string>): FileRows | undefined {
  const sourceKey = sourceKeyOf(f.hash, JSON.stringify(f.resolution?.edges ?? []), foreignImports(indexer.index, f.facts).join(','));
  if (published.get(path) === sourceKey) return unchangedFile(path, f.hash, sourceKey);
  // Derived by the worker that parsed the file, when one did (a cold index); else here.
  const pre = indexer.takeDerived(f.path);
  let own: JavaTextRows;
  let raw: string | undefined;
  if (isJavaTextRows(pre) && pre.hash === f.hash) own = pre;
  else {
    raw = indexer.textOf(f.path);
    if (raw === undefined) return undefined;
    own = javaTextRows(f.path, raw, f.hash, f.facts);
  }
  const lines = own.text.split('\n');
  const usages: UsageRow[] = [];
  const site = (line: number) => (lines[line] ?? '').trim().slice(0, MAX_SITE_CHARS);
  const r = f.resolution;
  for (const e of r?.edges ?? []) {
    // Imports are their own table; type positions are too many to keep and no usage example.
    if (e.kind === 'imports' || e.kind === 'type') continue;
    const name = e.to.replace(/\(.*$/, '').replace(/^.*[.#]/, '');
    usages.push({ line: e.line, col: e.col, fromSymbol: e.from, target: e.to, name, kind: e.kind, site: site(e.line), foreign: false });
  }
  // The raw text is read only if the index released the file's reference sites (publishing keeps them).
  const rawText = () => (raw ??= indexer.textOf(f.path));
  for (const u of foreignUsages(indexer.index, f.facts, f.facts.refsReleased ? rawText() : undefined, f.hash)) if (u.kind !== 'type') usages.push({ ...u, site: site(u.line) });
  usages.sort((a, b) => a.line - b.line || a.col - b.col || a.kind.localeCompare(b.kind) || a.target.localeCompare(b.target));
  const digest = createHash('sha1').update(own.digest).update('\0').update(JSON.stringify(usages)).digest('hex');
  return { path, hash: f.hash, text: own.text, decls: own.decls, usages, imports: own.imports, chunks: own.chunks, sourceKey, derived: true, digest, textDigest: own.digest };
}

function textFileRows(abs: string, rel: string, published: Map<string, string>): FileRows | undefined {
  const r = readSourceFile(abs);
  if (!r.ok) return undefined;
  const sourceKey = sourceKeyOf(r.hash);
  if (published.get(rel) === sourceKey) return unchangedFile(rel, r.hash, sourceKey);
  const chunks = chunkTextFile(abs, r.text).map(chunkRow);
  if (!chunks.length) return undefined;
  const rows = { path: rel, hash: r.hash, text: null, decls: [], usages: [], imports: [], chunks };
  return { ...rows, sourceKey, derived: true, digest: digestOf(rows), textDigest: null };
}
