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
const MAX_RESULTS = 15;

interface Corpus { version: number; chunks: Chunk[]; bm: Bm25 }
const cache = new WeakMap<WorkspaceIndex, Corpus>();

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
  const chunks: Chunk[] = [];
  for (const f of [...req.index.allFiles()].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    const text = req.textOf(f.path);
    if (text !== undefined) chunks.push(...chunkJavaFile(f.path, text, f.facts));
  }
  const bm = new Bm25();
  for (const ch of chunks) bm.add(codeTerms(ch.text));
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
  const hits: SimilarHit[] = [];
  corpus.chunks.forEach((chunk, i) => {
    if (chunk.symbol === self && chunk.path === req.path) return;
    if (folders && !folders.some((f) => chunk.path.startsWith(f))) return;
    const score = corpus.bm.score(i, terms);
    if (score > 0) hits.push({ chunk, score });
  });
  hits.sort((a, b) => b.score - a.score || (a.chunk.path < b.chunk.path ? -1 : a.chunk.path > b.chunk.path ? 1 : a.chunk.startLine - b.chunk.startLine));
  return hits.slice(0, limit);
}

export function similarRecall(req: PipelineRequest, q: Query, folders?: string[]): Map<string, Candidate> {
  const out = new Map<string, Candidate>();
  const hits = similarChunks(req, q, folders);
  const top = hits[0]?.score ?? 1;
  for (const h of hits) if (h.chunk.symbol) addCandidate(out, h.chunk.symbol, SIMILAR_WEIGHT * (h.score / top), 'similar', 'similar code');
  return out;
}
