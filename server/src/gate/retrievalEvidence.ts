// Evidence for the calibrated confidence (calibration.ts) beside the dependency surface: what
// retrieval itself weighed and left out, and what the written part of a body still leaves open.
//
// Left out: packing (pipeline.ts packRanked) gives every weighed candidate a calibrated
// P(needed) from the member model (memberModel.ts). The candidates the final context does not
// show carry RCL §4's compounding risk in retrieval's own terms: under independence,
// P(no left-out candidate is needed) = Π (1 − p_i), so Σ log(1 − p_i), the expected count Σ p_i
// and the largest p_i are the features. Written references are certain needs and are compounded
// by the gate's written factor instead; the cursor's own method is never a need of itself.

import type { GateFeatures, Position, SurfaceEntry } from '../../../shared/protocol';
import type { NeedleItem } from '../retrieval/types';
import type { Target, WeighedCandidate } from '../retrieval/request';
import { isTypeKind } from '../java/symbols';
import { bodyBraceIn, codeOnly } from '../java/lexer';
import { linesOf } from '../text/lines';
import { ownerTypeOf, ShownItems } from './coverage';
import { round } from '../retrieval/items';

/** p is clamped below 1 before its log: a near-certain left-out need should not weigh as −∞. */
const MAX_P = 1 - 1e-4;


export type RetrievalEvidenceFeatures = Required<Pick<GateFeatures, 'leftOutLogP' | 'leftOutMass' | 'leftOutMaxP' | 'shownMass' | 'openBlocks' | 'writtenTypesBare'>>;

/**
 * Retrieval's weighed candidates against the items the context holds now, and what the written
 * part of the body leaves open: blocks still open at the cursor (code yet to come inside them),
 * and internal types it uses of which the context shows no member beyond the written ones (the
 * code to come is likely to call more of them).
 */
export function retrievalEvidence(
  candidates: readonly WeighedCandidate[], surface: readonly SurfaceEntry[], items: readonly NeedleItem[],
  target: Target | undefined, text: string | undefined, position: Position,
): RetrievalEvidenceFeatures {
  return withOpenBlocks(leftOutEvidence(candidates, surface, items, target), openBlocksAt(text, target, position));
}

/** The whole record from its two parts, fields in the order the result has always listed them. */
export function withOpenBlocks(left: Omit<RetrievalEvidenceFeatures, 'openBlocks'>, openBlocks: number): RetrievalEvidenceFeatures {
  const { writtenTypesBare, ...leftOut } = left;
  return { ...leftOut, openBlocks, writtenTypesBare };
}

/**
 * The part of retrievalEvidence that depends on the items (what the context leaves out, and the
 * written types it shows nothing more of): asked again after every follow-up round, while the
 * blocks open at the cursor depend on the text alone (openBlocksAt, once per request).
 */
export function leftOutEvidence(
  candidates: readonly WeighedCandidate[], surface: readonly SurfaceEntry[], items: readonly NeedleItem[], target: Target | undefined,
): Omit<RetrievalEvidenceFeatures, 'openBlocks'> {
  const written = new Set(surface.filter((e) => e.written).map((e) => e.symbol));
  const self = target?.ref.sym.id;
  const shown = new ShownItems(items);
  let logP = 0, mass = 0, maxP = 0, shownMass = 0;
  for (const c of candidates) {
    if (c.symbol === self || written.has(c.symbol) || !(c.p > 0)) continue;
    if (shown.covers(c)) { shownMass += c.p; continue; }
    const p = Math.min(MAX_P, c.p);
    logP += Math.log1p(-p);
    mass += p;
    maxP = Math.max(maxP, p);
  }
  return {
    leftOutLogP: round(logP), leftOutMass: round(mass), leftOutMaxP: round(maxP), shownMass: round(shownMass),
    writtenTypesBare: bareWrittenTypes(surface, items),
  };
}

/** Blocks still open at the cursor inside the target's body (0 outside it). */
export function openBlocksAt(text: string | undefined, target: Target | undefined, position: Position): number {
  if (text === undefined || !target) return 0;
  const span = target.ref.sym.span;
  if (position.line < span.sl || position.line > span.el) return 0;
  const lines = linesOf(text).slice(span.sl, position.line + 1);
  lines[lines.length - 1] = lines[lines.length - 1].slice(0, position.character);
  const { code } = codeOnly(lines.join('\n'));
  const open = bodyBraceIn(code);
  if (open < 0) return 0;
  let depth = 0;
  for (let i = open + 1; i < code.length; i++) {
    if (code[i] === '{') depth++;
    else if (code[i] === '}') depth = Math.max(0, depth - 1);
  }
  return depth;
}

function bareWrittenTypes(surface: readonly SurfaceEntry[], items: readonly NeedleItem[]): number {
  const written = surface.filter((e) => e.written && e.internal);
  const writtenIds = new Set(written.map((e) => e.symbol));
  const types = new Set(written.map((e) => (isTypeKind(e.kind) ? e.symbol : ownerTypeOf(e.symbol))).filter((t): t is string => !!t));
  const withShownMember = new Set<string>();
  for (const it of items) for (const id of it.symbols ?? []) {
    const owner = ownerTypeOf(id);
    if (owner && !writtenIds.has(id)) withShownMember.add(owner);
  }
  let bare = 0;
  for (const t of types) if (!withShownMember.has(t)) bare++;
  return bare;
}
