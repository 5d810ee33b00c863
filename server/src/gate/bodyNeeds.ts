// Evidence for the calibrated confidence (calibration.ts) about how much the hidden body will
// need, read from the method's declaration and the structured routes of the surface rather than
// from the routes' fitted strengths: the strengths are learnt from a corpus's habits (how often
// its siblings' uses recur), while "it returns a workspace type the context shows nothing of" or
// "it implements a contract whose other implementations use symbols not shown" should mean the
// same in every code style. Each is kept in the model only if it raises the leave-one-corpus-out
// AUROC on validation (bench/gate-fit.bench.ts --try).

import type { GateFeatures, SurfaceEntry } from '../../../shared/protocol';
import type { NeedleItem } from '../retrieval/types';
import type { Target } from '../retrieval/request';
import { shownTypesOf, type ShownTypes } from './coverage';
import type { Route } from './surface';
import { erasedTypeName } from '../java/extract';

export type BodyNeedFeatures = Required<Pick<GateFeatures, 'returnsWorkspaceType' | 'returnTypeBare' | 'implementsContract' | 'kinUses' | 'kinUsesUnshown' | 'javadocUnshown' | 'paramTypesBare'>>;

/** Routes through the method's kin: what its overloads, the implementation it overrides, those overriding it, and the same method of sibling subclasses use. */
const KIN_ROUTES: ReadonlySet<string> = new Set<Route>(['kin-overload-use', 'kin-super-use', 'kin-sub-use', 'cousin-use']);
const JAVADOC_ROUTES: ReadonlySet<string> = new Set<Route>(['javadoc-link', 'javadoc-name']);
const PRIMITIVES = new Set(['boolean', 'byte', 'char', 'short', 'int', 'long', 'float', 'double']);


/** The type a declared type text names (java/extract.ts erasedTypeName), or undefined for none. */
const headTypeName = (text: string | undefined): string | undefined => erasedTypeName(text ?? '') || undefined;

/** `shown`: the surface's and items' types (coverage.ts shownTypesOf), when the caller has them. */
export function bodyNeedEvidence(surface: readonly SurfaceEntry[], items: readonly NeedleItem[], target: Target | undefined, shown: ShownTypes = shownTypesOf(surface, items)): BodyNeedFeatures {
  const sym = target?.ref.sym;
  const ownId = target?.owner?.sym.id;
  const estimated = surface.filter((e) => !e.written);
  const has = (e: SurfaceEntry, routes: ReadonlySet<string>) => (e.routes ?? []).some((r) => routes.has(r));
  // Workspace types the surface holds, by simple name (the signature's types are on it: route signature-type).
  const types = shown.byName;
  const withShownMember = shown.withShownMember;
  const bare = (id: string | undefined) => (id !== undefined && id !== ownId && !withShownMember.has(id) ? 1 : 0);
  const ret = sym?.kind === 'constructor' ? 'void' : headTypeName(sym?.returnType);
  const retType = ret && !PRIMITIVES.has(ret) && ret !== 'void' ? types.get(ret) : undefined;
  const paramTypes = new Set((sym?.params ?? []).map((p) => types.get(headTypeName(p.type) ?? '')).filter((t): t is string => !!t));
  const kin = estimated.filter((e) => has(e, KIN_ROUTES));
  return {
    returnsWorkspaceType: retType ? 1 : 0,
    returnTypeBare: bare(retType),
    implementsContract: (sym?.annotations ?? []).some((a) => /(^|[@.])Override$/.test(a)) || estimated.some((e) => (e.routes ?? []).includes('overridden')) ? 1 : 0,
    kinUses: kin.length,
    kinUsesUnshown: kin.filter((e) => !e.covered).length,
    javadocUnshown: estimated.filter((e) => !e.covered && has(e, JAVADOC_ROUTES)).length,
    paramTypesBare: [...paramTypes].reduce((n, t) => n + bare(t), 0),
  };
}
