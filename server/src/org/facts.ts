// What one repository contributes to the organisation index, derived from the Indexer's own facts
// and resolution (nothing is extracted twice) and vetted: every text that leaves the machine has
// been through the same secret redaction as retrieved context. Paths are relative to the
// repository root with '/' separators, so nothing of the publishing machine's layout leaks.

import { createHash } from 'node:crypto';
import { relative, sep } from 'node:path';
import type { Indexer } from '../index/indexer';
import { discoverFiles, readSourceFile } from '../index/files';
import { chunkTextFile, textFileType, type Chunk } from '../retrieval/chunks';
import { chunkJavaFile } from '../retrieval/chunks/java';
import { firstSentence, signatureLines, stripLine } from '../retrieval/symbols';
import { splitIdentifier } from '../text/identifiers';
import { vetText } from '../vetting';

export interface DeclRow { symbol: string; kind: string; name: string; package: string; line: number; signature: string; summary: string; description: string; search: string }
export interface UsageRow { line: number; col: number; fromSymbol: string; target: string | null; name: string; kind: string; site: string }
export interface ChunkRow { startLine: number; endLine: number; kind: string; symbol: string | null; header: string | null; text: string; flags: string[]; search: string }

export interface FileRows {
  path: string;
  /** Content hash of the file's text. */
  hash: string;
  /** Hash of every row below: a file whose content is unchanged can still resolve differently. */
  digest: string;
  decls: DeclRow[];
  usages: UsageRow[];
  imports: string[];
  chunks: ChunkRow[];
}

/** Longest usage-site line kept (a minified line is not an example). */
const MAX_SITE_CHARS = 240;

function relPath(root: string, path: string): string {
  return relative(root, path).split(sep).join('/');
}

/** Words a full-text search matches: identifier parts and whole identifiers, lower case. */
export function searchWords(...texts: string[]): string {
  const words = new Set<string>();
  for (const t of texts) {
    for (const id of t.match(/[A-Za-z_$][A-Za-z0-9_$]*/g) ?? []) {
      words.add(id.toLowerCase());
      for (const p of splitIdentifier(id)) words.add(p);
    }
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

function chunkRow(c: Chunk): ChunkRow {
  const v = vetText(c.text);
  const header = c.header === undefined ? null : vetted(c.header);
  return {
    startLine: c.startLine, endLine: c.endLine, kind: c.kind, symbol: c.symbol ?? null, header,
    text: v.text, flags: v.flags, search: searchWords(c.symbol ?? '', v.text, c.description ?? ''),
  };
}

function digestOf(rows: Omit<FileRows, 'digest'>): string {
  return createHash('sha1').update(JSON.stringify(rows)).digest('hex');
}

/** The rows of every Java file the indexer holds under `root`, and of every other text file Needle chunks. */
export function repositoryRows(indexer: Indexer, root: string): FileRows[] {
  const out: FileRows[] = [];
  for (const f of indexer.index.allFiles()) {
    if (f.root !== root) continue;
    const text = indexer.textOf(f.path);
    if (text === undefined) continue;
    const lines = text.split('\n');
    const facts = f.facts;
    const decls: DeclRow[] = [];
    for (const s of facts.symbols) {
      if (s.local || s.anonymous) continue;
      const sig = signatureLines(s, lines);
      const signature = vetted(lines.slice(sig.start, sig.end + 1).map(stripLine).join(' ').replace(/\s+/g, ' ').replace(/\s*\{\s*$/, '').trim());
      const summary = vetted(firstSentence(s.javadoc));
      const description = vetted(javadocText(s.javadoc));
      decls.push({ symbol: s.id, kind: s.kind, name: s.name, package: facts.package, line: s.nameSpan.sl, signature, summary, description, search: searchWords(s.name, summary) });
    }
    const usages: UsageRow[] = [];
    const site = (line: number) => vetted((lines[line] ?? '').trim().slice(0, MAX_SITE_CHARS));
    const r = f.resolution;
    for (const e of r?.edges ?? []) {
      if (e.kind === 'imports') continue; // imports are their own table
      const name = e.to.replace(/\(.*$/, '').replace(/^.*[.#]/, '');
      usages.push({ line: e.line, col: e.col, fromSymbol: e.from, target: e.to, name, kind: e.kind, site: site(e.line) });
    }
    for (const u of r?.unresolved ?? []) usages.push({ line: u.line, col: u.col, fromSymbol: u.from, target: null, name: u.name, kind: u.kind, site: site(u.line) });
    usages.sort((a, b) => a.line - b.line || a.col - b.col || a.kind.localeCompare(b.kind) || (a.target ?? '').localeCompare(b.target ?? ''));
    const imports = facts.imports.map((i) => (i.wildcard ? `${i.name}.*` : i.name)).sort();
    const chunks = chunkJavaFile(f.path, text, facts).map(chunkRow);
    const rows = { path: relPath(root, f.path), hash: f.hash, decls, usages, imports, chunks };
    out.push({ ...rows, digest: digestOf(rows) });
  }
  const { files } = discoverFiles(root, { accept: (name) => textFileType(name) !== undefined });
  for (const path of files) {
    const r = readSourceFile(path);
    if (!r.ok) continue;
    const chunks = chunkTextFile(path, r.text).map(chunkRow);
    if (!chunks.length) continue;
    const rows = { path: relPath(root, path), hash: r.hash, decls: [], usages: [], imports: [], chunks };
    out.push({ ...rows, digest: digestOf(rows) });
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
