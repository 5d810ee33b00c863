// What one repository contributes to the organisation index, derived from the Indexer's own facts
// and resolution (nothing is extracted twice) and vetted: every text that leaves the machine has
// been through the same secret redaction as retrieved context. Paths are relative to the
// repository root with '/' separators, so nothing of the publishing machine's layout leaks.

import { createHash } from 'node:crypto';
import { relative, sep } from 'node:path';
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
import { redactTexts, vetText, type VetFlag, type VetResult } from '../vetting';
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

/**
 * Search words counted in numbers: each identifier and each word gets a number once (per thread), so
 * a text's distinct words are found by marking numbers, not by hashing every occurrence into sets.
 * Identifiers are found by scanning character codes and looked up in an open-addressing table
 * (hash of the codes, then a compare in place), so a known identifier costs no substring, match
 * object or string hash (the regex scan and Map lookup were the workers' largest cost in deriving a file's rows).
 */
class SearchVocabulary {
  /** Identifier n's text, and the table: slot -> identifier number + 1 (0: empty), size a power of two, at most half full. */
  private idText: string[] = [];
  private slots = new Int32Array(1 << 16);
  /** Word numbers of identifier n: itself lower-cased, then its parts. */
  private wordsOfId: Int32Array[] = [];
  private wordOf = new Map<string, number>();
  private wordText: string[] = [];
  private idMark = new Int32Array(0);
  private wordMark = new Int32Array(0);
  private stamp = 0;
  private out: string[] = [];

  /** Forgets everything once it holds many identifiers (called at the start of a file). */
  trim(): void {
    if (this.idText.length < MAX_KEPT_IDENTIFIERS) return;
    this.idText = []; this.slots = new Int32Array(1 << 16); this.wordsOfId = []; this.wordOf.clear(); this.wordText = [];
    this.idMark = new Int32Array(0); this.wordMark = new Int32Array(0); this.stamp = 0;
  }

  private word(w: string): number {
    let n = this.wordOf.get(w);
    if (n === undefined) { n = this.wordText.length; this.wordOf.set(w, n); this.wordText.push(w); }
    return n;
  }

  /** The number of the identifier text[from, to), whose codes hash to `hash`; numbered now if new. */
  private idAt(text: string, from: number, to: number, hash: number): number {
    const mask = this.slots.length - 1;
    const len = to - from;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const k = this.slots[slot];
      if (k === 0) break;
      const known = this.idText[k - 1];
      if (known.length === len && text.startsWith(known, from)) return k - 1;
    }
    const identifier = text.slice(from, to);
    const n = this.idText.length;
    this.idText.push(identifier);
    this.wordsOfId.push(Int32Array.from([identifier.toLowerCase(), ...splitIdentifier(identifier)], (w) => this.word(w)));
    if (2 * this.idText.length > this.slots.length) this.rehash();
    else this.place(hash, n);
    return n;
  }

  private place(hash: number, n: number): void {
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
    this.slots[slot] = n + 1;
  }

  private rehash(): void {
    this.slots = new Int32Array(this.slots.length * 2);
    for (let n = 0; n < this.idText.length; n++) {
      const t = this.idText[n];
      this.place(hashCodes(t, 0, t.length), n);
    }
  }

  /** Appends the numbers of `text`'s identifiers (runs of [A-Za-z_$][A-Za-z0-9_$]*), in order. */
  identifiers(text: string, into: number[]): void {
    const n = text.length;
    for (let i = 0; i < n;) {
      const c = text.charCodeAt(i);
      if (IDENTIFIER_PART[c] !== 2) { i++; continue; } // undefined past ASCII
      let hash = FNV_OFFSET;
      let j = i;
      for (; j < n; j++) {
        const d = text.charCodeAt(j);
        if (d >= 128 || IDENTIFIER_PART[d] === 0) break;
        hash = Math.imul(hash ^ d, FNV_PRIME);
      }
      into.push(this.idAt(text, i, j, hash >>> 0));
      i = j;
    }
  }

  /** Starts a text's words: every identifier and word unseen again. */
  begin(): this {
    this.stamp++;
    this.out = [];
    if (this.idMark.length < this.wordsOfId.length) { const a = new Int32Array(this.wordsOfId.length * 2); a.set(this.idMark); this.idMark = a; }
    if (this.wordMark.length < this.wordText.length) { const a = new Int32Array(this.wordText.length * 2); a.set(this.wordMark); this.wordMark = a; }
    return this;
  }

  /** Adds identifiers `ids` (numbered before begin()): each identifier's words not yet added, in order. */
  add(ids: readonly number[]): this {
    const stamp = this.stamp;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i];
      if (this.idMark[id] === stamp) continue;
      this.idMark[id] = stamp;
      const words = this.wordsOfId[id];
      for (let k = 0; k < words.length; k++) {
        const w = words[k];
        if (this.wordMark[w] !== stamp) { this.wordMark[w] = stamp; this.out.push(this.wordText[w]); }
      }
    }
    return this;
  }

  done(): string {
    return this.out.join(' ');
  }
}

/** Per ASCII code: 2 starts an identifier ([A-Za-z_$]), 1 continues one ([0-9]), 0 neither. */
const IDENTIFIER_PART = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  IDENTIFIER_PART[c] = /[A-Za-z_$]/.test(ch) ? 2 : /[0-9]/.test(ch) ? 1 : 0;
}
const FNV_OFFSET = 0x811c9dc5 | 0, FNV_PRIME = 0x01000193;

function hashCodes(text: string, from: number, to: number): number {
  let hash = FNV_OFFSET;
  for (let j = from; j < to; j++) hash = Math.imul(hash ^ text.charCodeAt(j), FNV_PRIME);
  return hash >>> 0;
}

const MAX_KEPT_IDENTIFIERS = 200_000;
const vocabulary = new SearchVocabulary();

/**
 * Words a full-text search matches: identifier parts and whole identifiers, lower case, each once,
 * in order of the identifiers' first occurrence.
 */
export function searchWords(...texts: string[]): string {
  const ids: number[] = [];
  for (const t of texts) vocabulary.identifiers(t, ids);
  return vocabulary.begin().add(ids).done();
}

/** Javadoc as prose: tags reduced to their text, markup removed, whitespace collapsed. */
function javadocText(javadoc: string | undefined): string {
  if (!javadoc) return '';
  return javadoc.replace(/\{@(?:link|linkplain|code|literal|value)\s+([^}]*)\}/g, '$1').replace(/<[^>]+>/g, '').replace(/\s+/g, ' ').trim();
}

/** A chunk of a text file, vetted on its own; its header and description are in `prose`, redacted. */
function chunkRow(c: Chunk, prose: Map<string, string>): ChunkRow {
  const v = vetText(c.text);
  const header = c.header === undefined ? null : prose.get(c.header)!;
  return {
    startLine: c.startLine, endLine: c.endLine, kind: c.kind, symbol: c.symbol ?? null, header,
    text: v.text, flags: v.flags, search: searchWords(c.symbol ?? '', v.text, c.description ? prose.get(c.description)! : ''),
  };
}

/**
 * A chunk cut from a file that was vetted whole (`vet`): its text and header are already redacted
 * (vetting keeps every line where it was), and its flags are those of the lines it spans.
 */
function vettedChunkRow(c: Chunk, vet: VetResult, prose: Map<string, string>): ChunkRow {
  const within = (line: number) => line >= c.startLine && line <= c.endLine;
  const flags: VetFlag[] = [];
  if (vet.instructionLines.some(within)) flags.push('instruction-like');
  if (vet.secrets.some((x) => within(x.line)) || c.text.includes(REDACTED)) flags.push('secret-redacted');
  return {
    startLine: c.startLine, endLine: c.endLine, kind: c.kind, symbol: c.symbol ?? null, header: c.header ?? null,
    text: c.text, flags, search: searchWords(c.symbol ?? '', c.text, c.description ? prose.get(c.description)! : ''),
  };
}

/**
 * A file's prose (Javadoc summaries and descriptions, chunk headers and descriptions), each distinct
 * text redacted once (redaction is a pure function of the text: a Javadoc's summary is also the
 * description of every chunk of its symbol, and overloads repeat one Javadoc), all in one batch
 * (vetting/index.ts redactTexts), without the instruction scan whose flags prose never carries.
 */
function redactedProse(texts: Iterable<string>): Map<string, string> {
  const distinct = [...new Set(texts)];
  const redacted = redactTexts(distinct);
  return new Map(distinct.map((t, i) => [t, redacted[i]]));
}

/** What every redacted secret's replacement starts with. */
const REDACTED = redactionMarker('').slice(0, -1);

/**
 * The digests' format, the first thing every digest says: a digest of another format (an older
 * Needle's, e.g. the bare hex of a hash over the rows' JSON) never equals one of this format, so a
 * file published by an older Needle is written again once rather than silently left alone.
 */
export const DIGEST_FORMAT = 'd2';

/**
 * Hashes rows field by field in a fixed order, without building their JSON: each string is
 * length-prefixed (so no two sequences of fields hash the same input), null and arrays have tags of their own.
 */
class RowHasher {
  private readonly h = createHash('sha1');
  str(s: string): this { this.h.update(`${s.length}:`).update(s); return this; }
  opt(s: string | null): this { if (s === null) this.h.update('-'); else this.str(s); return this; }
  num(n: number): this { this.h.update(`${n};`); return this; }
  bool(b: boolean): this { this.h.update(b ? 't' : 'f'); return this; }
  strs(xs: readonly string[]): this { this.num(xs.length); for (const x of xs) this.str(x); return this; }
  decls(ds: readonly DeclRow[]): this {
    this.num(ds.length);
    for (const d of ds) this.str(d.symbol).str(d.kind).str(d.name).str(d.package).num(d.line).str(d.signature).str(d.summary).str(d.description).str(d.search);
    return this;
  }
  chunks(cs: readonly ChunkRow[]): this {
    this.num(cs.length);
    for (const c of cs) this.num(c.startLine).num(c.endLine).str(c.kind).opt(c.symbol).opt(c.header).str(c.text).strs(c.flags).str(c.search);
    return this;
  }
  usages(us: readonly UsageRow[]): this {
    this.num(us.length);
    for (const u of us) this.num(u.line).num(u.col).str(u.fromSymbol).str(u.target).str(u.name).str(u.kind).str(u.site).bool(u.foreign);
    return this;
  }
  done(): string { return `${DIGEST_FORMAT}:${this.h.digest('hex')}`; }
}

/** A text file's rows' digest (it has no text column, declarations, usages or imports). */
function textFileDigest(path: string, hash: string, chunks: readonly ChunkRow[]): string {
  return new RowHasher().str('text-file').str(path).str(hash).chunks(chunks).done();
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
export function* repositoryRows(indexer: Indexer, root: string, published: Map<string, string> = new Map(),
  keys: ReadonlyMap<string, string> = javaSourceKeys(indexer, root)): Generator<FileRows> {
  const java = indexer.index.allFiles().filter((f) => f.root === root).map((f) => ({ f, path: relPath(root, f.path) }));
  const { files: textFiles } = discoverFiles(root, { accept: (name) => textFileType(name) !== undefined });
  const other = textFiles.map((abs) => ({ abs, path: relPath(root, abs) }));
  const all = [...java.map((j) => ({ path: j.path, java: j.f, abs: '' })), ...other.map((o) => ({ path: o.path, java: undefined, abs: o.abs }))];
  all.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const item of all) {
    const rows = item.java ? javaFileRows(indexer, item.java, item.path, published, keys.get(item.java.path)) : textFileRows(item.abs, item.path, published);
    if (rows) yield rows;
  }
}

/**
 * What a Java file contributes that its text and facts alone decide (no resolution, no other file):
 * the vetted text, declarations, imports and chunks, with a digest of them. Pure, so the indexer's
 * worker threads derive it while they parse (index/worker.ts, `derive: 'org-publish'`), or, for
 * files a warm index cache gave, in derive-only jobs; the main thread only what no worker derived.
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
  vocabulary.trim();
  // Vetted once, whole: signatures, usage sites, chunks and the stored text are cut from the
  // redacted text (same lines), rather than each piece vetted again.
  const vet = vetText(raw);
  const text = vet.text;
  const lines = text.split('\n');
  const published = facts.symbols.filter((s) => !s.local && !s.anonymous);
  const docs = published.map((s) => (s.javadoc ? { summary: docSummary(s.javadoc), description: javadocText(s.javadoc) } : undefined));
  const cut = chunkJavaFile(absPath, text, facts);
  const prose = redactedProse([...docs.flatMap((d) => (d ? [d.summary, d.description] : [])), ...cut.flatMap((c) => (c.description ? [c.description] : []))]);
  const decls: DeclRow[] = published.map((s, i) => {
    const sig = signatureLines(s, lines);
    const signature = lines.slice(sig.start, sig.end + 1).map(stripLine).join(' ').replace(/\s+/g, ' ').replace(/\s*\{\s*$/, '').trim();
    const doc = docs[i];
    const summary = doc ? prose.get(doc.summary)! : '';
    const description = doc ? prose.get(doc.description)! : '';
    return { symbol: s.id, kind: s.kind, name: s.name, package: facts.package, line: s.nameSpan.sl, signature, summary, description, search: searchWords(s.name, summary) };
  });
  const imports = facts.imports.map((i) => (i.wildcard ? `${i.name}.*` : i.name)).sort();
  const chunks = cut.map((c) => vettedChunkRow(c, vet, prose));
  const digest = new RowHasher().str('java-text').str(hash).str(text).decls(decls).strs(imports).chunks(chunks).done();
  return { hash, text, decls, imports, chunks, digest };
}

/** Structurally a JavaTextRows (what a worker sent back). */
export function isJavaTextRows(x: unknown): x is JavaTextRows {
  return typeof x === 'object' && x !== null && typeof (x as JavaTextRows).hash === 'string' && typeof (x as JavaTextRows).digest === 'string'
    && Array.isArray((x as JavaTextRows).decls) && Array.isArray((x as JavaTextRows).chunks) && Array.isArray((x as JavaTextRows).imports);
}

/** A Java file's source key (FileRows.sourceKey): its text's hash, its resolution and its foreign imports. */
function javaSourceKey(index: WorkspaceIndex, f: IndexedFile): string {
  return sourceKeyOf(f.hash, JSON.stringify(f.resolution?.edges.toArray() ?? []), foreignImports(index, f.facts).join(','));
}

/** The source key of every Java file the indexer holds under `root`, by its (absolute) path. */
export function javaSourceKeys(indexer: Indexer, root: string): Map<string, string> {
  return new Map(indexer.index.allFiles().filter((f) => f.root === root).map((f) => [f.path, javaSourceKey(indexer.index, f)]));
}

/** Java files (absolute paths, by `keys`: javaSourceKeys) whose rows repositoryRows derives: their source key is not `published`'s. */
export function javaFilesToDerive(root: string, published: ReadonlyMap<string, string>, keys: ReadonlyMap<string, string>): string[] {
  return [...keys].filter(([path, key]) => published.get(relPath(root, path)) !== key).map(([path]) => path);
}

function javaFileRows(indexer: Indexer, f: IndexedFile, path: string, published: Map<string, string>, key?: string): FileRows | undefined {
  const sourceKey = key ?? javaSourceKey(indexer.index, f);
  if (published.get(path) === sourceKey) return unchangedFile(path, f.hash, sourceKey);
  // Derived by a worker: the one that parsed the file (a cold index), or a derive-only job (a warm
  // cache: Indexer.deriveInWorkers); else here.
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
  const digest = new RowHasher().str('java-file').str(own.digest).usages(usages).done();
  return { path, hash: f.hash, text: own.text, decls: own.decls, usages, imports: own.imports, chunks: own.chunks, sourceKey, derived: true, digest, textDigest: own.digest };
}

function textFileRows(abs: string, rel: string, published: Map<string, string>): FileRows | undefined {
  const r = readSourceFile(abs);
  if (!r.ok) return undefined;
  const sourceKey = sourceKeyOf(r.hash);
  if (published.get(rel) === sourceKey) return unchangedFile(rel, r.hash, sourceKey);
  vocabulary.trim();
  const cut = chunkTextFile(abs, r.text);
  const prose = redactedProse(cut.flatMap((c) => [...(c.header === undefined ? [] : [c.header]), ...(c.description ? [c.description] : [])]));
  const chunks = cut.map((c) => chunkRow(c, prose));
  if (!chunks.length) return undefined;
  return { path: rel, hash: r.hash, text: null, decls: [], usages: [], imports: [], chunks, sourceKey, derived: true, digest: textFileDigest(rel, r.hash, chunks), textDigest: null };
}
