// Stage 4 (The Needle and the Noise §4 (4), GrepRAG): identifier-weighted BM25/IDF re-rank. Each candidate is a
// document whose identifier and signature terms count several times over its Javadoc prose,
// so a candidate whose *symbols* match the query outranks one whose *comments* match it.

import { splitIdentifier, identifiersIn } from '../text/identifiers';
import { Bm25 } from './bm25';
import type { Merged } from './merge';
import type { Query } from './query';
import { docSummary, typeNames, usageCounts } from './symbols';
import type { WorkspaceIndex } from '../index/workspaceIndex';
import type { SymbolFact } from '../java/facts';
import { byScore } from './types';
import { BoundedMemo } from '../text/boundedMemo';

/** Term multiplicities per field: identifiers ≫ signature > prose (whole numbers: a term is listed that many times). */
export const FIELD_WEIGHTS = { identifier: 3, exactIdentifier: 3, signature: 2, owner: 1, prose: 1 } as const;
/** The normalized BM25 score adds at most this much to the recall score. */
export const RERANK_WEIGHT = 1.5;
/** A prior for how much the workspace uses a declaration: × log2(1 + distinct referencing members). */
export const USAGE_PRIOR = 0.08;

/**
 * Terms per declaration: facts objects are replaced, never changed, when a file changes. A term
 * of field weight w is listed w times (BM25 counts it so), which a flat list holds in a quarter
 * of the memory of (term, weight) pairs. The declarations recent requests re-ranked are
 * remembered (a request re-ranks hundreds; every one ever re-ranked was 23 MB after 1,000
 * requests on the whole JDK, and growing).
 */
const termsOf = BoundedMemo.weak<SymbolFact, string[]>(20_000);

export function documentTerms(m: Merged): string[] {
  return termsOf.get(m.ref.sym, () => declarationTerms(m));
}

function declarationTerms(m: Merged): string[] {
  const s = m.ref.sym;
  const terms: string[] = [];
  const push = (term: string, weight: number) => { for (let i = 0; i < weight; i++) terms.push(term); };
  push('=' + s.name, FIELD_WEIGHTS.exactIdentifier);
  for (const p of splitIdentifier(s.name)) push(p, FIELD_WEIGHTS.identifier);
  const sig = [...(s.params ?? []).flatMap((p) => [p.name, ...typeNames(p.type)]), ...typeNames(s.returnType ?? s.type)];
  for (const id of sig) for (const p of splitIdentifier(id)) push(p, FIELD_WEIGHTS.signature);
  const owner = s.parent >= 0 ? m.ref.file.facts.symbols[s.parent]?.name : undefined;
  if (owner) for (const p of splitIdentifier(owner)) push(p, FIELD_WEIGHTS.owner);
  for (const id of identifiersIn(docSummary(s.javadoc, 400))) for (const p of splitIdentifier(id)) if (p.length > 2) push(p, FIELD_WEIGHTS.prose);
  return terms;
}

export function queryTerms(q: Query): string[] {
  return [...q.words, ...[...q.goalIdentifiers].map((id) => '=' + id)];
}

export function rerank(candidates: Merged[], q: Query, index?: WorkspaceIndex): Merged[] {
  const usage = index ? usageCounts(index) : undefined;
  const raw = Bm25.scoreEach(candidates.map(documentTerms), queryTerms(q));
  const top = Math.max(0, ...raw) || 1;
  return candidates.map((c, i) => ({ ...c, score: c.score + RERANK_WEIGHT * (raw[i] / top) + (usage ? USAGE_PRIOR * Math.log2(1 + (usage.get(c.id) ?? 0)) : 0) })).sort(byScore);
}
