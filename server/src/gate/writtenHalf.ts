// Evidence for the calibrated confidence (calibration.ts) from the written half of a partial body:
// what it has set up and not yet used. A local declared and not read again, or a parameter the
// written code has not touched, is work still to come, and when its type is a workspace type of
// which the context shows no member, the code to come will call members the model cannot see.
// Read from the target's facts (SymbolFact.unreadLocals/unreadParams: the extractor's one
// resolution of names, so a name shadowed, used in a lambda, or standing in a comment or string
// counts as it does for every other stage) and the surface's types; 0 for a body with nothing
// written (a new body's parameters are all "unused" by definition, and its evidence is bodyNeeds.ts's). Kept in the model only if it raises the leave-one-corpus-out
// AUROC on validation (bench/gate-fit.bench.ts --try).

import type { GateFeatures, SurfaceEntry } from '../../../shared/protocol';
import type { NeedleItem } from '../retrieval/types';
import type { Target } from '../retrieval/request';
import { isTypeKind } from '../java/symbols';
import { erasedTypeName } from '../java/extract';
import { ownerTypeOf, shownTypesOf, type ShownTypes } from './coverage';

export type WrittenHalfFeatures = Required<Pick<GateFeatures, 'unusedLocals' | 'unusedLocalTypesBare' | 'unusedParams' | 'unusedParamTypesBare' | 'unusedTypes' | 'writtenTypes' | 'writtenOwnRefs'>>;

const NONE: WrittenHalfFeatures = { unusedLocals: 0, unusedLocalTypesBare: 0, unusedParams: 0, unusedParamTypesBare: 0, unusedTypes: 0, writtenTypes: 0, writtenOwnRefs: 0 };

/**
 * `shown`: the surface's and items' types (coverage.ts shownTypesOf), when the caller has them.
 * `partial`: whether the scenario is a partial body (the evidence is 0 otherwise); `writtenLines`
 * the scenario judgement's count of code lines written. The target's facts are those of the
 * file as the editor has it (the index re-extracts an edited file).
 */
export function writtenHalfEvidence(
  partial: boolean, writtenLines: number, surface: readonly SurfaceEntry[], items: readonly NeedleItem[], target: Target | undefined,
  shown?: ShownTypes,
): WrittenHalfFeatures {
  if (!partial || writtenLines === 0 || !target) return NONE;
  const sym = target.ref.sym;
  const ownId = target.owner?.sym.id;
  const { byName: types, withShownMember } = shown ?? shownTypesOf(surface, items);
  const workspaceType = (typeText: string): string | undefined => {
    const id = types.get(erasedTypeName(typeText));
    return id !== undefined && id !== ownId ? id : undefined;
  };
  const unusedTypes = new Set<string>();
  const localTypes = new Set<string>();
  for (const l of sym.unreadLocals ?? []) {
    const id = workspaceType(l.type);
    if (id) { unusedTypes.add(id); if (!withShownMember.has(id)) localTypes.add(id); }
  }
  const paramTypes = new Set<string>();
  for (const i of sym.unreadParams ?? []) {
    const id = workspaceType(sym.params?.[i]?.type ?? '');
    if (id) { unusedTypes.add(id); if (!withShownMember.has(id)) paramTypes.add(id); }
  }
  const writtenTypes = new Set<string>();
  let writtenOwnRefs = 0;
  for (const e of surface) {
    if (!e.written || !e.internal) continue;
    const t = isTypeKind(e.kind) ? e.symbol : ownerTypeOf(e.symbol);
    if (t === ownId) writtenOwnRefs++;
    else if (t) writtenTypes.add(t);
  }
  return {
    unusedLocals: sym.unreadLocals?.length ?? 0, unusedLocalTypesBare: localTypes.size, unusedParams: sym.unreadParams?.length ?? 0, unusedParamTypesBare: paramTypes.size,
    unusedTypes: unusedTypes.size, writtenTypes: writtenTypes.size, writtenOwnRefs,
  };
}
