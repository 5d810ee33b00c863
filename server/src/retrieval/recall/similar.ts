// Stage 2d (The Needle and the Noise §4 (2), P3): similar code, the last and lowest-weight source (AllianceCoder:
// similar code is often noise). BM25 over Java method chunks with the cursor's method as the
// query. The chunk corpus is built lazily and follows the index file by file. The `similarity` mode
// (the paper's baseline) uses the same search and nothing else.

import type { WorkspaceIndex } from '../../index/workspaceIndex';
import type { PipelineRequest } from '../request';
import type { Query } from '../query';
import { identifiersIn, splitIdentifier } from '../../text/identifiers';
import { javaChunkAt, javaChunkBodies } from '../chunks/java';
import type { Chunk } from '../chunks/types';
import { Bm25 } from '../bm25';
import { SlotTable } from '../../text/slotTable';
import { hashText } from '../../index/files';
import { addCandidate, type Candidate } from '../types';
import { perIndexVersionIncremental } from '../symbols';
import { isKeyword, stripComments } from '../query';
import { CorruptCache } from '../../index/cacheCodec';
import { knownHashes, type SavedKind } from '../preparedCache';

/** P3: similar code weighs least of all sources. */
export const SIMILAR_WEIGHT = 0.3;
/**
 * What similar code calls (CoRet's call-graph neighbours of the retrieved atoms; AllianceCoder:
 * the APIs the code will call) weighs more than the similar code itself.
 */
export const SIMILAR_CALLEE_WEIGHT = 0.6;
const CALLEE_KINDS = new Set(['call', 'new', 'field', 'ctorCall', 'methodRef']);
const MAX_RESULTS = 15;

/**
 * Where a chunk is, without its text, header or description (java.base: 60k chunks, 50 MB of
 * strings). Only the baselines show chunks; they make them again from the file (javaChunkAt).
 */
type ChunkSpan = Pick<Chunk, 'path' | 'startLine' | 'endLine' | 'kind' | 'symbol'>;

/**
 * One file's chunks. Their places and terms are the corpus's to keep (its columns, and term ids):
 * addFile takes both out of the share when it adds them, and the corpus gives them back by the
 * file's chunk ids (chunksOf, and the BM25 corpus's termsOf).
 */
interface FileChunks {
  chunks?: ChunkSpan[];
  terms?: (string[] | [string, number][])[];
  /** The content hash of the text the chunks were made from, when it is the indexed file's (what SAVED_CHUNKS saves). */
  hash?: string;
}


/**
 * Where each chunk is, by id, in columns: its file (undefined once removed), lines, kind, symbol
 * and position in its file. No object per chunk: the whole JDK's corpus holds 235k chunks, and
 * with an object each a warm start ended at about 30 MB more RSS (startup.bench, five pairs).
 */
interface ChunkColumns {
  path: (string | undefined)[];
  startLine: number[];
  endLine: number[];
  kind: ChunkSpan['kind'][];
  symbol: (string | undefined)[];
  ordinal: number[];
}

/**
 * The chunk corpus, kept in step with the index file by file: an edit takes the file's old
 * chunks out of the BM25 statistics and adds its new ones, instead of re-reading and re-chunking
 * the workspace (java.base: seconds per edit). Ids are never reused; `at.path[id]` is undefined
 * for removed ones. Ties are broken by path, line and position in the file, never by id, so the
 * result equals a fresh build's.
 */
export interface Corpus {
  bm: Bm25;
  at: ChunkColumns;
  ids: Map<string, number[]>;
  files: Map<string, FileChunks>;
}

/** Chunk `id` is `span`, the `ordinal`-th chunk of its file. */
function place(c: Corpus, id: number, span: Omit<ChunkSpan, 'path'>, path: string, ordinal: number): void {
  c.at.path[id] = path;
  c.at.startLine[id] = span.startLine;
  c.at.endLine[id] = span.endLine;
  c.at.kind[id] = span.kind;
  c.at.symbol[id] = span.symbol;
  c.at.ordinal[id] = ordinal;
}

/** Where chunk `id` is, as one object (a hit's, a file's chunks when saved or added again). */
function spanOf(c: Corpus, id: number): ChunkSpan {
  const span: ChunkSpan = { path: c.at.path[id]!, startLine: c.at.startLine[id], endLine: c.at.endLine[id], kind: c.at.kind[id] };
  const symbol = c.at.symbol[id];
  if (symbol !== undefined) span.symbol = symbol;
  return span;
}

/** A file's chunks, in file order. */
function chunksOf(c: Corpus, path: string): ChunkSpan[] {
  return (c.ids.get(path) ?? []).map((id) => spanOf(c, id));
}

/** Dead ids beyond the live ones (and this floor) make the corpus rebuild itself compactly. */
const COMPACT_FLOOR = 1000;

/** Adds a file's chunks with their terms (`terms[i]`: the i-th chunk's, a list or counted pairs). */
function addFile(corpus: Corpus, path: string, part: FileChunks, chunks: ChunkSpan[], terms: (string[] | [string, number][])[]): void {
  const ids = chunks.map((chunk, i) => {
    const id = corpus.bm.add(terms[i]);
    place(corpus, id, chunk, path, i);
    return id;
  });
  corpus.ids.set(path, ids);
  corpus.files.set(path, part);
}

function emptyCorpus(): Corpus {
  return { bm: new Bm25(), at: { path: [], startLine: [], endLine: [], kind: [], symbol: [], ordinal: [] }, ids: new Map(), files: new Map() };
}

/** The similar-code corpus of an index at its current version (`textOf`: the files' current text). */
export const chunkCorpus: (index: WorkspaceIndex, textOf: PipelineRequest['textOf']) => Corpus = (() => {
  const table = perIndexVersionIncremental<{ corpus: Corpus }, FileChunks, PipelineRequest['textOf']>({
    source: (f) => f.facts,
    part: (f, textOf) => {
      const text = textOf(f.path);
      // Places and text only: a header or description made here would be thrown away.
      const chunks = text === undefined ? [] : javaChunkBodies(text, f.facts);
      return {
        chunks: chunks.map(({ startLine, endLine, kind, symbol }) => ({ path: f.path, startLine, endLine, kind, symbol })),
        terms: chunks.map((c) => codeTerms(c.text)),
        // The text read may be ahead of the index (an edit on its way): then its chunks are not the hash's.
        hash: text !== undefined && hashText(text) === f.hash ? f.hash : undefined,
      };
    },
    // Built from nothing: the postings are made once at the end (finish trims), not grown per document.
    create: () => { const corpus = emptyCorpus(); corpus.bm.deferPostings(); return { corpus }; },
    apply: (t, changes) => {
      const c = t.corpus;
      for (const ch of [...changes].sort((a, b) => (a.path < b.path ? -1 : 1))) {
        for (const id of c.ids.get(ch.path) ?? []) { c.bm.remove(id); c.at.path[id] = undefined; c.at.symbol[id] = undefined; }
        c.ids.delete(ch.path);
        c.files.delete(ch.path);
        if (ch.after) {
          addFile(c, ch.path, ch.after, ch.after.chunks!, ch.after.terms!);
          ch.after.chunks = undefined;
          ch.after.terms = undefined;
        }
      }
      if (c.bm.dead > Math.max(COMPACT_FLOOR, c.bm.size)) {
        t.corpus = emptyCorpus();
        t.corpus.bm.deferPostings();
        for (const path of [...c.files.keys()].sort()) addFile(t.corpus, path, c.files.get(path)!, chunksOf(c, path), c.ids.get(path)!.map((id) => c.bm.termsOf(id)));
        t.corpus.bm.trim();
      }
    },
    // A first build grew every posting list by pushes: give back their spare room.
    finish: (t, first) => { if (first) t.corpus.bm.trim(); },
    // The corpus a warm start loaded in its finished form (SAVED_CHUNKS), with each file's chunks.
    restore: () => restoring && { table: { corpus: restoring }, parts: new Map([...restoring.files].map(([path, part]) => [path, { hash: part.hash, part }])) },
    // A share's terms are taken once; the corpus itself is what a rebuild would need.
    rebuildOnManyChanges: false,
    // The terms of a few hundred files at a time, never the workspace's at once.
    batch: 256,
  });
  return (index: WorkspaceIndex, textOf: PipelineRequest['textOf']) => table(index, textOf).corpus;
})();

/** The corpus a warm start loaded, consulted while prepareChunkCorpus builds (see restore above). */
let restoring: Corpus | undefined;

/**
 * Builds the corpus (retrieval's prepare stage). `saved`: the corpus in its finished form as an
 * earlier start left it (SAVED_CHUNKS): taken as it is for every file whose indexed hash is the one
 * its chunks were made from, every other file updated as after an edit, so it is the corpus a
 * fresh build makes (to the last bit of every score; ties are broken by place, never by id).
 */
export function prepareChunkCorpus(index: WorkspaceIndex, textOf: PipelineRequest['textOf'], saved?: Corpus): void {
  restoring = saved;
  try { chunkCorpus(index, textOf); } finally { restoring = undefined; }
}

/** The corpus of the index as it is now, to save (what a later start may load). */
export function currentChunkCorpus(index: WorkspaceIndex, textOf: PipelineRequest['textOf']): Corpus {
  return chunkCorpus(index, textOf);
}

/**
 * The corpus in its finished form (preparedCache.ts): the BM25 pools and term table as they are,
 * then per file (path order) its hash when its chunks are known to be the indexed text's, its
 * documents' ids and its chunks' places. Loading adds no document and reads no text.
 */
export const SAVED_CHUNKS: SavedKind<Corpus> = {
  name: 'saved similar-code corpus', suffix: '.chunks',
  write: (w, c) => {
    const bm = c.bm.saved();
    if (!bm) throw new Error('the corpus has fractional frequencies');
    bm.terms.write(w);
    for (const a of [bm.docStart, bm.docCount, bm.docLen, bm.termPool, bm.tfPool]) w.int32s(a);
    w.list([...c.files.keys()].sort(), (path) => {
      const part = c.files.get(path)!;
      w.str(path);
      w.optStr(part.hash);
      w.int32s(Int32Array.from(c.ids.get(path)!));
      for (const ch of chunksOf(c, path)) { w.int(ch.startLine); w.int(ch.endLine); w.str(ch.kind); w.optStr(ch.symbol); }
    });
  },
  read: (r) => {
    const terms = SlotTable.read(r);
    const [docStart, docCount, docLen, termPool, tfPool] = Array.from({ length: 5 }, () => r.int32s());
    const c = emptyCorpus();
    c.bm = Bm25.fromSaved({ terms, docStart, docCount, docLen, termPool, tfPool });
    // Columns the size of the document ids, filled in place (no holes for the engine to track).
    const n = docCount.length;
    c.at = { path: new Array(n).fill(undefined), startLine: new Array(n).fill(0), endLine: new Array(n).fill(0), kind: new Array(n).fill(''), symbol: new Array(n).fill(undefined), ordinal: new Array(n).fill(0) };
    let claimed = 0;
    const files = r.count();
    for (let i = 0; i < files; i++) {
      const path = r.str();
      const hash = r.optStr();
      const ids = Array.from(r.int32s());
      for (let ordinal = 0; ordinal < ids.length; ordinal++) {
        const id = ids[ordinal];
        if (!(id >= 0 && id < n) || docCount[id] < 0 || c.at.path[id] !== undefined) throw new CorruptCache('a chunk id out of range or taken twice');
        const startLine = r.int(), endLine = r.int(), kind = r.str(), symbol = r.optStr();
        place(c, id, { startLine, endLine, kind, symbol }, path, ordinal);
      }
      claimed += ids.length;
      c.ids.set(path, ids);
      c.files.set(path, hash === undefined ? {} : { hash });
    }
    if (claimed !== c.bm.size) throw new CorruptCache('documents without a file');
    return c;
  },
  hashes: (c) => knownHashes(c.files),
};

export function codeTerms(text: string): string[] {
  const out: string[] = [];
  for (const id of identifiersIn(stripComments(text))) {
    if (isKeyword(id)) continue;
    out.push(id);
    for (const p of splitIdentifier(id)) if (p.length > 1) out.push('~' + p);
  }
  return out;
}

export interface SimilarHit { chunk: Chunk; score: number }
interface SpanHit { chunk: ChunkSpan; score: number }

/** The corpus as one canonical text (live chunks in path order, with their terms as counted): incremental must equal fresh. */
export function corpusDump(index: WorkspaceIndex, textOf: PipelineRequest['textOf'], queries: string[][]): string {
  const c = chunkCorpus(index, textOf);
  const live = c.at.path.flatMap((path, id) => (path !== undefined ? [{ chunk: spanOf(c, id), id }] : []))
    .sort((a, b) => (a.chunk.path < b.chunk.path ? -1 : a.chunk.path > b.chunk.path ? 1 : c.at.ordinal[a.id] - c.at.ordinal[b.id]));
  const where = (id: number) => `${c.at.path[id]!}:${c.at.startLine[id]}#${c.at.ordinal[id]}`;
  const tieBreak = (a: number, b: number) => (where(a) < where(b) ? -1 : where(a) > where(b) ? 1 : 0);
  return [
    `chunks ${c.bm.size}`,
    ...live.map(({ chunk, id }) => `${where(id)} ${chunk.symbol ?? ''} ${c.bm.termsOf(id).map(([t, f]) => `${t}*${f}`).join(' ')}`),
    ...queries.map((q) => `query ${q.join(' ')}: ${c.bm.topK(q, 5, tieBreak).map((h) => `${where(h.doc)}=${h.score}`).join(' ')}`),
  ].join('\n');
}

/** The chunks most similar to the cursor's member (excluding the member itself), with their text and header. */
export function similarChunks(req: PipelineRequest, q: Query, folders?: string[], limit = MAX_RESULTS): SimilarHit[] {
  const lines = new Map<string, string[]>();
  return similarSpans(req, q, folders, limit).map((h) => {
    const path = h.chunk.path;
    let l = lines.get(path);
    if (!l) lines.set(path, (l = (req.textOf(path) ?? '').split('\n')));
    const facts = req.index.file(path)?.facts;
    const chunk = (facts && javaChunkAt(path, l, facts, h.chunk)) || { ...h.chunk, text: l.slice(h.chunk.startLine, h.chunk.endLine + 1).join('\n') };
    return { chunk, score: h.score };
  });
}

/** The spans of the chunks most similar to the cursor's member (excluding the member itself). */
function similarSpans(req: PipelineRequest, q: Query, folders?: string[], limit = MAX_RESULTS): SpanHit[] {
  const corpus = chunkCorpus(req.index, req.textOf);
  const terms = codeTerms(q.memberText);
  if (!terms.length) return [];
  const self = q.member?.sym.id;
  const { path, startLine, symbol, ordinal } = corpus.at;
  // Ties: path, then line, then position in the file (what a fresh corpus in path order would keep).
  const tieBreak = (a: number, b: number) => {
    const x = path[a]!, y = path[b]!;
    return x < y ? -1 : x > y ? 1 : startLine[a] - startLine[b] || ordinal[a] - ordinal[b];
  };
  const accept = (i: number) => {
    const p = path[i]!;
    if (symbol[i] === self && p === req.path) return false;
    return !folders || folders.some((f) => p.startsWith(f));
  };
  return corpus.bm.topK(terms, limit, tieBreak, accept).map((h) => ({ chunk: spanOf(corpus, h.doc), score: h.score }));
}

export function similarRecall(req: PipelineRequest, q: Query, folders?: string[]): Map<string, Candidate> {
  const out = new Map<string, Candidate>();
  const hits = similarSpans(req, q, folders);
  const top = hits[0]?.score ?? 1;
  const self = q.member?.sym.id;
  const seen = new Set<string>();
  for (const h of hits) {
    if (!h.chunk.symbol) continue;
    addCandidate(out, h.chunk.symbol, SIMILAR_WEIGHT * (h.score / top), 'similar', 'similar code', false, 'similarCode');
    if (seen.has(h.chunk.symbol)) continue;
    seen.add(h.chunk.symbol);
    const callees = new Set<string>();
    for (const e of req.index.edgesFrom(h.chunk.symbol)) if (CALLEE_KINDS.has(e.kind) && e.to !== self) callees.add(e.to);
    for (const id of [...callees].sort()) addCandidate(out, id, SIMILAR_CALLEE_WEIGHT * (h.score / top), 'similar', 'used by similar code', false, 'similarCallee');
  }
  return out;
}
