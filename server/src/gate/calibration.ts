// The calibrated confidence: the probability that the context holds every symbol the code will
// need, from one structured feature record per request (GateFeatures), by a small logistic model.
// RCL §4's compounding of coverage and novelty is one input; the rest is structural evidence: what
// is written and resolved, what of it the context lacks, names the index cannot resolve, the size
// of the estimated surface, how full the budget is. The coefficients and τ per scenario live in
// server/data/gate-model.json, fitted offline on validation splits only by `npm run fit:gate`
// (bench/gate-fit.bench.ts); nothing is learnt at run time, so the verdict is deterministic.

import type { GateFeatures, Scenario } from '../../../shared/protocol';
import fitted from '../../data/gate-model.json';
import { NOVELTY_FLOOR } from './confidence';

/** The scenarios a verdict is formed for (outside a method there is nothing to judge). */
export const JUDGED_SCENARIOS = ['new-body', 'partial-body', 'existing-body'] as const;
export type JudgedScenario = (typeof JUDGED_SCENARIOS)[number];

/**
 * The evidence the model reads, each a function of one feature record. Chosen on the validation
 * records only (5-fold within them, bench/gate-fit.bench.ts): RCL's compounded value and the
 * uncovered mass beside structural evidence - the largest p left uncovered, how full the budget is,
 * the target's parameters, Javadoc and internal signature types (how much a body is likely to
 * need), the size of the surface, and what is written (lines, resolved references).
 */
const EVIDENCE = {
  'compound-logit': (f: GateFeatures) => logit(f.compound),
  'log1p-uncovered-mass': (f: GateFeatures) => Math.log1p(f.uncoveredMass),
  'max-uncovered-p': (f: GateFeatures) => f.maxUncoveredP ?? 0,
  'budget-share': (f: GateFeatures) => f.budgetShare,
  'log1p-params': (f: GateFeatures) => Math.log1p(f.params ?? 0),
  'log1p-javadoc-words': (f: GateFeatures) => Math.log1p(f.javadocWords ?? 0),
  'log1p-signature-types': (f: GateFeatures) => Math.log1p(f.signatureTypes ?? 0),
  'log1p-surface-size': (f: GateFeatures) => Math.log1p(f.surfaceSize),
  'log1p-written-lines': (f: GateFeatures) => Math.log1p(f.writtenLines),
  'log1p-written-refs': (f: GateFeatures) => Math.log1p(f.writtenRefs),
} as const;
type Evidence = keyof typeof EVIDENCE;
const EVIDENCE_NAMES = Object.keys(EVIDENCE) as Evidence[];

/**
 * The model's columns, in the data file's order: per scenario an intercept and a slope for every
 * piece of evidence (`budget-share×new-body`): the scenarios differ in what their evidence means
 * (written lines are the whole body of an existing one, and none of a new one).
 */
export const GATE_COLUMNS: readonly string[] = JUDGED_SCENARIOS.flatMap((sc) => [sc, ...EVIDENCE_NAMES.map((e) => `${e}×${sc}`)]);
/**
 * Signs the fit must respect (RCL's direction of each risk): more compounded confidence never
 * lowers P(sufficient); more expected missing mass, or a likelier entry left out, never raises
 * it. A column fitted with the wrong sign is dropped (coefficient 0) and the rest refitted.
 */
const MONOTONE_EVIDENCE: Partial<Record<Evidence, 1 | -1>> = { 'compound-logit': 1, 'log1p-uncovered-mass': -1, 'max-uncovered-p': -1 };
export const MONOTONE: Readonly<Record<string, 1 | -1>> = Object.fromEntries(JUDGED_SCENARIOS.flatMap((sc) =>
  Object.entries(MONOTONE_EVIDENCE).map(([e, sign]) => [`${e}×${sc}`, sign] as const)));
/** Columns left unpenalised when fitting (the per-scenario intercepts). */
export const UNPENALISED_COLUMNS = JUDGED_SCENARIOS.map((sc) => GATE_COLUMNS.indexOf(sc));

export interface GateModel {
  columns: readonly string[];
  beta: number[];
  threshold: Record<JudgedScenario, number>;
  /** The review share τ was chosen to stay within on validation, per scenario. */
  reviewTarget: Record<JudgedScenario, number>;
}

/** The compounded product is clamped before its logit: 0 and 1 are reached, ±∞ is not useful. */
const COMPOUND_EPS = 1e-4;

function logit(p: number): number {
  const q = Math.min(1 - COMPOUND_EPS, Math.max(COMPOUND_EPS, p));
  return Math.log(q / (1 - q));
}

/** The design row of one feature record (GATE_COLUMNS order): the scenario's own block is filled, the others are 0. */
export function designRow(f: GateFeatures): number[] {
  const values = EVIDENCE_NAMES.map((e) => EVIDENCE[e](f));
  return JUDGED_SCENARIOS.flatMap((sc) => (f.scenario === sc ? [1, ...values] : new Array<number>(values.length + 1).fill(0)));
}

/** The model in force (server/data/gate-model.json), checked once against the columns this code computes. */
let inForce: GateModel | undefined;
/** Checked on first use, so `npm run fit:gate --from` can regenerate a file that no longer matches the columns. */
export function gateModel(): GateModel {
  return (inForce ??= checkedModel(fitted as unknown as GateModel));
}

export function checkedModel(m: GateModel): GateModel {
  if (m.columns.length !== GATE_COLUMNS.length || m.columns.some((c, i) => c !== GATE_COLUMNS[i]) || m.beta.length !== GATE_COLUMNS.length) {
    throw new Error('server/data/gate-model.json does not match GATE_COLUMNS: regenerate it with `npm run fit:gate`');
  }
  return m;
}

/**
 * The certain part's factor of a record: recorded by the gate; for records written before it was
 * (bench reports), each uncovered written reference at the novelty floor.
 */
export function writtenFactorOf(f: GateFeatures): number {
  return f.writtenFactor ?? (f.uncoveredWritten > 0 ? NOVELTY_FLOOR ** f.uncoveredWritten : 1);
}

/** The logistic part alone: P(the estimated, not yet written part is covered). */
export function estimatedConfidence(f: GateFeatures, model: GateModel = gateModel()): number {
  const x = designRow(f);
  let z = 0;
  for (let j = 0; j < x.length; j++) z += x[j] * model.beta[j];
  return 1 / (1 + Math.exp(-z));
}

/**
 * P(the context holds every needed symbol) = P(estimated part covered) × the certain part's
 * compounded factor; null when no verdict can be formed.
 */
export function calibratedConfidence(f: GateFeatures, model: GateModel = gateModel()): number | null {
  if (!f.judged || f.scenario === 'outside-method') return null;
  const p = estimatedConfidence(f, model) * writtenFactorOf(f);
  return Number.isFinite(p) ? p : null;
}

/** τ of a scenario under the model (the fitted review policy). */
export function scenarioThreshold(scenario: Scenario, model: GateModel = gateModel()): number {
  return scenario === 'outside-method' ? 1 : model.threshold[scenario];
}
