// Evidence for the calibrated confidence (calibration.ts) from the written half of a partial body:
// what it has set up and not yet used. A local declared and not read again, or a parameter the
// written code has not touched, is work still to come, and when its type is a workspace type of
// which the context shows no member, the code to come will call members the model cannot see.
// Read from the body's code (comments and literals blanked, lexer.ts) and the surface's types;
// 0 for a body with nothing written (a new body's parameters are all "unused" by definition, and
// its evidence is bodyNeeds.ts's). Kept in the model only if it raises the leave-one-corpus-out
// AUROC on validation (bench/gate-fit.bench.ts --try).

import type { GateFeatures, SurfaceEntry } from '../../../shared/protocol';
import type { NeedleItem } from '../retrieval/types';
import type { Target } from '../retrieval/request';
import { isTypeKind } from '../java/symbols';
import { codeOnly } from '../java/lexer';
import { ownerTypeOf } from './coverage';
import { shortName } from './surface';
import { identifierAt } from '../text/identifiers';

export type WrittenHalfFeatures = Required<Pick<GateFeatures, 'unusedLocals' | 'unusedLocalTypesBare' | 'unusedParams' | 'unusedParamTypesBare'>>;

/** Words that can stand where a local's type does in `word name =|;|:|,` without declaring one. */
const NOT_A_TYPE = new Set(['return', 'throw', 'new', 'else', 'case', 'yield', 'assert', 'instanceof', 'goto', 'break', 'continue', 'package', 'import']);
/** A local declaration: `[final] Type[<…>][[]] name` followed by `=`, `;`, `:` (for-each) or `,`. */
const LOCAL_DECL = /(?:^|[;{}(]|\n)\s*(?:final\s+)?([A-Za-z_$][\w$.]*)(?:\s*<[^;(){}=]*>)?(?:\s*\[\s*\])*\s+([a-z_$][\w$]*)\s*(?==(?!=)|;|:|,)/g;

const NONE: WrittenHalfFeatures = { unusedLocals: 0, unusedLocalTypesBare: 0, unusedParams: 0, unusedParamTypesBare: 0 };

/** How often `name` is read as a variable in `code` from `from` on: a whole word, not a member (`x.name`). */
function usesFrom(code: string, name: string, from: number): number {
  let n = 0;
  for (let i = identifierAt(code, name, from, true); i >= 0; i = identifierAt(code, name, i + 1, true)) n++;
  return n;
}

/** The outermost simple type name of a type text (`a.b.Foo` → Foo, `List<Foo>` → List). */
function headName(text: string): string {
  return text.replace(/<.*$/s, '').replace(/\[\]/g, '').replace(/\.\.\.$/, '').trim().split('.').pop() ?? '';
}

/**
 * `body`: the written body's text after its brace (sufficiency.ts bodyOf), undefined when there is
 * none; `writtenLines` the scenario judgement's count of code lines written.
 */
export function writtenHalfEvidence(
  body: string | undefined, writtenLines: number, surface: readonly SurfaceEntry[], items: readonly NeedleItem[], target: Target | undefined,
): WrittenHalfFeatures {
  if (!body || writtenLines === 0 || !target) return NONE;
  const { code } = codeOnly(body);
  const ownId = target.owner?.sym.id;
  const types = new Map<string, string>();
  for (const e of surface) if (e.internal && isTypeKind(e.kind) && !types.has(shortName(e.symbol))) types.set(shortName(e.symbol), e.symbol);
  const withShownMember = new Set<string>();
  for (const it of items) for (const id of it.symbols ?? (it.symbol ? [it.symbol] : [])) { const o = ownerTypeOf(id); if (o) withShownMember.add(o); }
  const bareType = (typeText: string): string | undefined => {
    const id = types.get(headName(typeText));
    return id !== undefined && id !== ownId && !withShownMember.has(id) ? id : undefined;
  };
  let unusedLocals = 0;
  const localTypes = new Set<string>();
  for (const m of code.matchAll(LOCAL_DECL)) {
    if (NOT_A_TYPE.has(m[1])) continue;
    const end = m.index! + m[0].length;
    if (usesFrom(code, m[2], end) > 0) continue;
    unusedLocals++;
    const bare = bareType(m[1]);
    if (bare) localTypes.add(bare);
  }
  let unusedParams = 0;
  const paramTypes = new Set<string>();
  for (const p of target.ref.sym.params ?? []) {
    if (!p.name) continue; // `m(String) {` while typing: no parameter to use yet
    if (usesFrom(code, p.name, 0) > 0) continue;
    unusedParams++;
    const bare = bareType(p.type);
    if (bare) paramTypes.add(bare);
  }
  return { unusedLocals, unusedLocalTypesBare: localTypes.size, unusedParams, unusedParamTypesBare: paramTypes.size };
}
