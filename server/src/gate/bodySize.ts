// Evidence for the calibrated confidence (calibration.ts) about how large the hidden body will be.
// `fit:gate --ceiling` showed that the gold count of a new body would lift held-out AUROC from 0.63
// to 0.81, while little else tracks it. What does, read at the cursor without the body:
//  - the bodies most like it: the median reference count of the owner's other methods (a class's
//    style: one-line accessors or long procedures), of the same-name methods of the workspace
//    (overloads, overrides and namesakes doing the same job), and the mean of the two methods
//    written just before and after it (code is written in runs: a helper sits beside helpers);
//  - its declaration: a throws clause, private, static, void, its parameters;
//  - how many members call it, and how many fields its class keeps.
// One linear model (server/data/body-size-model.json, `npm run fit:body-size`, fitted on the
// non-test tasks of the development corpora against log(1 + the declarations the real body
// references)) turns those into one expected size, the gate's evidence `predictedBodyRefs`.
// Tried and left out: the namesakes of the same arity only, the methods of the package's other
// types, the owner's methods with the same verb, Javadoc words, tags and links, an @Override.

import type { GateFeatures } from '../../../shared/protocol';
import type { SymbolFact } from '../java/facts';
import type { WorkspaceIndex } from '../index/workspaceIndex';
import type { Target } from '../retrieval/request';
import { declarationsByName } from '../retrieval/symbols';
import { erasedTypeName } from '../java/extract';
import fitted from '../../data/body-size-model.json';

/** What the size model reads, recorded in every verdict's features (GateFeatures) so fits can reuse them. */
export type BodySizeInputs = Required<Pick<GateFeatures,
  'ownerBodyRefs' | 'namesakeBodyRefs' | 'neighbourBodyRefs' | 'callers' | 'params' | 'returnsVoid' | 'declaresThrows' | 'isPrivate' | 'isStatic' | 'ownerFields'>>;
export type BodySizeFeatures = BodySizeInputs & Required<Pick<GateFeatures, 'predictedBodyRefs'>>;

/** Same-name methods looked at, in id order: enough for a median, bounded for common names (`get`). */
const MAX_NAMESAKES = 24;

/** Distinct declarations a member's body (or initialiser) references; supertypes and imports are not body references. */
function bodyRefs(index: WorkspaceIndex, id: string): Set<string> {
  const to = new Set<string>();
  for (const e of index.edgesFrom(id)) if (e.kind !== 'extends' && e.kind !== 'implements' && e.kind !== 'imports') to.add(e.to);
  return to;
}

function median(xs: number[]): number | undefined {
  if (!xs.length) return undefined;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

const mean = (xs: number[]): number | undefined => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : undefined);

const isCode = (m: SymbolFact) => m.kind === 'method' || m.kind === 'constructor';

/** A method that returns nothing: void, no declared type, or a constructor. */
export function returnsNothing(sym: SymbolFact): boolean {
  const ret = erasedTypeName(sym.returnType ?? '');
  return sym.kind === 'constructor' || !ret || ret === 'void';
}

/**
 * What the target's surroundings say about its body, read once per request: the references of the
 * owner's other methods and constructors (`siblings`), of the two written just before and after it
 * (`beside`, also among the siblings) and of its same-name methods elsewhere (`namesakes`, at most
 * MAX_NAMESAKES in id order); its class's fields and its callers, counted.
 */
export interface BodyNeighbourhood {
  target?: SymbolFact;
  siblings: ReadonlySet<string>[];
  beside: ReadonlySet<string>[];
  namesakes: ReadonlySet<string>[];
  ownerFields: number;
  callers: number;
}

const NO_NEIGHBOURHOOD: BodyNeighbourhood = { siblings: [], beside: [], namesakes: [], ownerFields: 0, callers: 0 };

export function bodyNeighbourhood(index: WorkspaceIndex, target: Target | undefined): BodyNeighbourhood {
  const sym = target?.ref.sym;
  if (!sym || !isCode(sym)) return NO_NEIGHBOURHOOD;
  const owner = target.owner;
  const members = owner ? owner.file.facts.symbols.filter((m) => m.parent === owner.index) : [];
  const code = members.filter(isCode).sort((a, b) => a.span.sl - b.span.sl || a.span.sc - b.span.sc);
  const refsOf = new Map(code.filter((m) => m.id !== sym.id).map((m) => [m.id, bodyRefs(index, m.id)] as const));
  const at = code.findIndex((m) => m.id === sym.id);
  const beside = at < 0 ? [] : [code[at - 1], code[at + 1]].filter((m): m is SymbolFact => !!m).map((m) => refsOf.get(m.id)!);
  const namesakes = (declarationsByName(index).get(sym.kind === 'constructor' ? '' : sym.name) ?? [])
    .filter((id) => id !== sym.id && index.symbol(id)?.sym.kind === 'method')
    .sort()
    .slice(0, MAX_NAMESAKES)
    .map((id) => bodyRefs(index, id));
  const callers = new Set<string>();
  for (const e of index.edgesTo(sym.id)) if (e.from !== sym.id) callers.add(e.from);
  return { target: sym, siblings: [...refsOf.values()], beside, namesakes, ownerFields: members.filter((m) => m.kind === 'field').length, callers: callers.size };
}

const NO_BODY: BodySizeInputs = {
  ownerBodyRefs: 0, namesakeBodyRefs: 0, neighbourBodyRefs: 0, callers: 0, params: 0, returnsVoid: 0, declaresThrows: 0, isPrivate: 0, isStatic: 0, ownerFields: 0,
};

/**
 * The size model's inputs for the target's body; all 0 outside a method or constructor. A
 * neighbourhood with no member (no sibling, no namesake) falls back to the owner's figure.
 */
export function bodySizeInputs(index: WorkspaceIndex, target: Target | undefined, around: BodyNeighbourhood = bodyNeighbourhood(index, target)): BodySizeInputs {
  const sym = around.target;
  if (!sym) return NO_BODY;
  const ownerBodyRefs = median(around.siblings.map((r) => r.size)) ?? 0;
  return {
    ownerBodyRefs,
    namesakeBodyRefs: median(around.namesakes.map((r) => r.size)) ?? ownerBodyRefs,
    neighbourBodyRefs: mean(around.beside.map((r) => r.size)) ?? ownerBodyRefs,
    callers: around.callers,
    params: sym.params?.length ?? 0,
    returnsVoid: returnsNothing(sym) ? 1 : 0,
    declaresThrows: (sym.throws?.length ?? 0) > 0 ? 1 : 0,
    isPrivate: sym.modifiers.includes('private') ? 1 : 0,
    isStatic: sym.modifiers.includes('static') ? 1 : 0,
    ownerFields: around.ownerFields,
  };
}

/**
 * How far the bodies like it reach beyond this context: of the declarations the methods beside the
 * target reference, the mean count no item shows (`shown`: the symbols the items show), and the
 * median of the same over the owner's other methods. The target itself does not count.
 */
export function unshownBodyRefs(around: BodyNeighbourhood, shown: ReadonlySet<string>): Required<Pick<GateFeatures, 'neighbourRefsUnshown' | 'ownerRefsUnshown'>> {
  const self = around.target?.id;
  const unshown = (refs: ReadonlySet<string>) => { let n = 0; for (const id of refs) if (id !== self && !shown.has(id)) n++; return n; };
  const owner = median(around.siblings.map(unshown)) ?? 0;
  return { neighbourRefsUnshown: mean(around.beside.map(unshown)) ?? owner, ownerRefsUnshown: owner };
}

/** The size model's columns: each a function of the inputs (counts on a log scale). */
export const BODY_SIZE_COLUMNS = {
  'log1p-owner-body-refs': (x: BodySizeInputs) => Math.log1p(x.ownerBodyRefs),
  'log1p-namesake-body-refs': (x: BodySizeInputs) => Math.log1p(x.namesakeBodyRefs),
  'log1p-neighbour-body-refs': (x: BodySizeInputs) => Math.log1p(x.neighbourBodyRefs),
  'log1p-callers': (x: BodySizeInputs) => Math.log1p(x.callers),
  'log1p-params': (x: BodySizeInputs) => Math.log1p(x.params),
  'returns-void': (x: BodySizeInputs) => x.returnsVoid,
  'declares-throws': (x: BodySizeInputs) => x.declaresThrows,
  'private': (x: BodySizeInputs) => x.isPrivate,
  'static': (x: BodySizeInputs) => x.isStatic,
  'log1p-owner-fields': (x: BodySizeInputs) => Math.log1p(x.ownerFields),
} as const;
export type BodySizeColumn = keyof typeof BODY_SIZE_COLUMNS;
export const BODY_SIZE_COLUMN_NAMES = Object.keys(BODY_SIZE_COLUMNS) as BodySizeColumn[];

export interface BodySizeModel {
  /** The columns after the intercept, in BODY_SIZE_COLUMN_NAMES' order. */
  columns: readonly string[];
  /** Intercept first, then one coefficient per column: a prediction of log(1 + references). */
  beta: number[];
}

/** The row the model multiplies: 1 (the intercept), then each column. */
export function bodySizeRow(x: BodySizeInputs): number[] {
  return [1, ...BODY_SIZE_COLUMN_NAMES.map((c) => BODY_SIZE_COLUMNS[c](x))];
}

let inForce: BodySizeModel | undefined;
/** The model in force, checked once against the columns this code computes. */
export function bodySizeModel(): BodySizeModel {
  return (inForce ??= checkedBodySizeModel(fitted as unknown as BodySizeModel));
}

export function checkedBodySizeModel(m: BodySizeModel): BodySizeModel {
  if (m.columns.length !== BODY_SIZE_COLUMN_NAMES.length || m.columns.some((c, i) => c !== BODY_SIZE_COLUMN_NAMES[i]) || m.beta.length !== m.columns.length + 1) {
    throw new Error('server/data/body-size-model.json does not match BODY_SIZE_COLUMNS: regenerate it with `npm run fit:body-size -- --write`');
  }
  return m;
}

/** The expected number of distinct declarations the body references (≥ 0). */
export function predictedBodyRefs(x: BodySizeInputs, model: BodySizeModel = bodySizeModel()): number {
  const row = bodySizeRow(x);
  let z = 0;
  for (let j = 0; j < row.length; j++) z += row[j] * model.beta[j];
  return Math.max(0, Math.expm1(z));
}

/** The inputs and the model's expected size; 0 for both outside a method. */
export function bodySizeEvidence(index: WorkspaceIndex, target: Target | undefined, around: BodyNeighbourhood = bodyNeighbourhood(index, target)): BodySizeFeatures {
  const inputs = bodySizeInputs(index, target, around);
  const predicted = around.target ? predictedBodyRefs(inputs) : 0;
  return { ...inputs, predictedBodyRefs: Math.round(predicted * 1e4) / 1e4 };
}
