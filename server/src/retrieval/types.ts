// Data passed between the pipeline's stages. Every stage is a pure function of its typed input
// (plus the index snapshot inside the request), so tests call each one directly.

import type { ContextItem, ItemSource } from '../../../shared/protocol';
import type { SymbolRef } from '../index/workspaceIndex';

/** A recalled symbol with provenance. `score` accumulates across sources; ids are unique after merge. */
export interface Candidate {
  id: string;
  score: number;
  sources: ItemSource[];
  /** Human-readable reasons (kept for debugging and the gate's surface). */
  reasons: string[];
  /**
   * The part of `score` owed only to being a member of a type in reach (the cursor's class, a
   * signature or field type, a supertype, an outer type): what the candidate has beyond it is
   * evidence about the declaration itself (a body reference, a matching name, similar code).
   */
  membership?: number;
  /** `score` split by the recall source that gave it (structured evidence for the member model, memberModel.ts). */
  routes?: Partial<Record<ItemSource, number>>;
  /** `score` split by the relation that gave it (which part of a recall source): the member model's evidence. */
  evidence?: Partial<Record<Evidence, number>>;
}

/** The relations recall finds a candidate by (graph.ts, lexical.ts, descriptions.ts, similar.ts). */
export const EVIDENCE = [
  'bodyRef', 'secondHop', 'caller', 'sameClass', 'overload', 'overloadUses', 'supertype', 'superMember', 'popularity',
  'outerType', 'outerMember', 'signatureType', 'signatureMember', 'fieldTypeMember', 'globalPopular', 'javadocLink',
  'javadocName', 'queryName', 'declaresTerm', 'mentionsTerm', 'namedTerm', 'description', 'similarCode', 'similarCallee',
  'unusedImport',
] as const;
export type Evidence = (typeof EVIDENCE)[number];

/** An item with the extra fields the pipeline adds (ContextItem fields are never renamed). */
export type NeedleItem = ContextItem & {
  /** Every symbol id whose declaration the item shows (a type group shows several members). */
  symbols?: string[];
  /**
   * The declarations a type-group item was packed from (signature-only ones with doc false), so
   * the gate's follow-up can re-render the group with more members instead of repeating its header.
   * Internal: removed before the result leaves the pipeline.
   */
  entries?: { id: string; doc: boolean }[];
};

export type { ContextItem, ItemSource, SymbolRef };

/** Adds a candidate to a map, accumulating score and provenance. */
export function addCandidate(map: Map<string, Candidate>, id: string, score: number, source: ItemSource, reason?: string, membership = false, evidence?: Evidence): void {
  let c = map.get(id);
  if (!c) map.set(id, (c = { id, score: 0, sources: [], reasons: [] }));
  c.score += score;
  if (membership) c.membership = (c.membership ?? 0) + score;
  (c.routes ??= {})[source] = (c.routes[source] ?? 0) + score;
  if (evidence) (c.evidence ??= {})[evidence] = (c.evidence[evidence] ?? 0) + score;
  if (!c.sources.includes(source)) c.sources.push(source);
  if (reason && !c.reasons.includes(reason) && c.reasons.length < 6) c.reasons.push(reason);
}

/** Deterministic order: score descending, then id. */
export function byScore(a: { score: number; id: string }, b: { score: number; id: string }): number {
  return b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

export function sortedCandidates(map: Map<string, Candidate>): Candidate[] {
  return [...map.values()].sort(byScore);
}
