// Stage 2d (003 §4 (2), P3): similar code, the last and lowest-weight source (AllianceCoder:
// similar code is often noise). BM25 over Java method chunks with the cursor's method as the
// query. The chunk corpus is built lazily and cached per index.version. The `similarity` mode
// (the paper's baseline) uses the same search and nothing else.

import type { WorkspaceIndex } from '../../index/workspaceIndex';
import type { PipelineRequest } from '../request';
import type { Query } from '../query';
import { identifiersIn, splitIdentifier } from '../../text/identifiers';
import { chunkJavaFile } from '../chunks/java';
import type { Chunk } from '../chunks/types';
import { Bm25 } from '../bm25';
import { addCandidate, type Candidate } from '../types';
import { isKeyword, stripComments } from '../query';

/** P3: similar code weighs least of all sources. */
export const SIMILAR_WEIGHT = 0.3;
/**
 * What similar code calls (CoRet's call-graph neighbours of the retrieved atoms; AllianceCoder:
 * the APIs the code will call) weighs more than the similar code itself.
 */
export const SIMILAR_CALLEE_WEIGHT = 0.6;
const CALLEE_KINDS = new Set(['call', 'new', 'field', 'ctorCall', 'methodRef']);
const MAX_RESULTS = 15;

interface Corpus { version: number; chunks: Chunk[]; bm: Bm25 }
const cache = new WeakMap<WorkspaceIndex, Corpus>();
/** Per file: its text and chunks with their terms, so a one-file edit re-chunks one file. */
const fileChunks = new WeakMap<WorkspaceIndex, Map<string, { text: string; chunks: { chunk: Chunk; terms: string[] }[] }>>();

export function codeTerms(text: string): string[] {
  const out: string[] = [];
  for (const id of identifiersIn(stripComments(text))) {
    if (isKeyword(id)) continue;
    out.push(id);
    for (const p of splitIdentifier(id)) if (p.length > 1) out.push('~' + p);
  }
  return out;
}

export function chunkCorpus(req: PipelineRequest): Corpus {
  const c = cache.get(req.index);
  if (c && c.version === req.index.version) return c;
  let perFile = fileChunks.get(req.index);
  if (!perFile) fileChunks.set(req.index, (perFile = new Map()));
  const chunks: Chunk[] = [];
  const bm = new Bm25();
  const live = new Set<string>();
  for (const f of [...req.index.allFiles()].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    const text = req.textOf(f.path);
    if (text === undefined) continue;
    live.add(f.path);
    let e = perFile.get(f.path);
    if (!e || e.text !== text) {
      e = { text, chunks: chunkJavaFile(f.path, text, f.facts).map((chunk) => ({ chunk, terms: codeTerms(chunk.text) })) };
      perFile.set(f.path, e);
    }
    for (const x of e.chunks) { chunks.push(x.chunk); bm.add(x.terms); }
  }
  for (const p of [...perFile.keys()]) if (!live.has(p)) perFile.delete(p);
  const corpus = { version: req.index.version, chunks, bm };
  cache.set(req.index, corpus);
  return corpus;
}

export interface SimilarHit { chunk: Chunk; score: number }

/** The chunks most similar to the cursor's member (excluding the member itself). */
export function similarChunks(req: PipelineRequest, q: Query, folders?: string[], limit = MAX_RESULTS): SimilarHit[] {
  const corpus = chunkCorpus(req);
  const terms = codeTerms(q.memberText);
  if (!terms.length) return [];
  const self = q.member?.sym.id;
  const { chunks } = corpus;
  // Ties: path, then line, then corpus order (the order a stable sort of all hits would keep).
  const tieBreak = (a: number, b: number) => {
    const x = chunks[a], y = chunks[b];
    return x.path < y.path ? -1 : x.path > y.path ? 1 : x.startLine - y.startLine || a - b;
  };
  const accept = (i: number) => {
    const chunk = chunks[i];
    if (chunk.symbol === self && chunk.path === req.path) return false;
    return !folders || folders.some((f) => chunk.path.startsWith(f));
  };
  return corpus.bm.topK(terms, limit, tieBreak, accept).map((h) => ({ chunk: chunks[h.doc], score: h.score }));
}

export function similarRecall(req: PipelineRequest, q: Query, folders?: string[]): Map<string, Candidate> {
  const out = new Map<string, Candidate>();
  const hits = similarChunks(req, q, folders);
  const top = hits[0]?.score ?? 1;
  const self = q.member?.sym.id;
  const seen = new Set<string>();
  for (const h of hits) {
    if (!h.chunk.symbol) continue;
    addCandidate(out, h.chunk.symbol, SIMILAR_WEIGHT * (h.score / top), 'similar', 'similar code');
    if (seen.has(h.chunk.symbol)) continue;
    seen.add(h.chunk.symbol);
    const callees = new Set<string>();
    for (const e of req.index.edgesFrom(h.chunk.symbol)) if (CALLEE_KINDS.has(e.kind) && e.to !== self) callees.add(e.to);
    for (const id of [...callees].sort()) addCandidate(out, id, SIMILAR_CALLEE_WEIGHT * (h.score / top), 'similar', 'used by similar code');
  }
  return out;
}
