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

/** The model's columns, in the data file's order. */
export const GATE_COLUMNS = [
  'new-body', 'partial-body', 'existing-body',
  'compound-logit×new-body', 'compound-logit×partial-body', 'compound-logit×existing-body',
  'log1p-uncovered-written', 'log1p-uncovered-mass', 'log1p-written-refs', 'log1p-written-lines',
  'log1p-unresolved-names', 'log1p-surface-size', 'budget-share',
] as const;
/**
 * Signs the fit must respect (RCL's direction of each risk): more compounded confidence never
 * lowers P(sufficient); more expected missing mass never raises it. A column fitted with the wrong
 * sign is dropped (coefficient 0) and the rest refitted.
 */
export const MONOTONE: Readonly<Record<string, 1 | -1>> = {
  'compound-logit×new-body': 1, 'compound-logit×partial-body': 1, 'compound-logit×existing-body': 1,
  'log1p-uncovered-mass': -1, 'log1p-uncovered-written': -1, 'log1p-unresolved-names': -1,
};
/** Columns left unpenalised when fitting (the per-scenario intercepts). */
export const UNPENALISED_COLUMNS = [0, 1, 2];

export interface GateModel {
  columns: readonly string[];
  beta: number[];
  threshold: Record<JudgedScenario, number>;
  /** The review share τ was chosen to stay within on validation. */
  reviewTarget: number;
}

/** The compounded product is clamped before its logit: 0 and 1 are reached, ±∞ is not useful. */
const COMPOUND_EPS = 1e-4;

function logit(p: number): number {
  const q = Math.min(1 - COMPOUND_EPS, Math.max(COMPOUND_EPS, p));
  return Math.log(q / (1 - q));
}

/** The design row of one feature record (GATE_COLUMNS order). */
export function designRow(f: GateFeatures): number[] {
  const one = (s: Scenario) => (f.scenario === s ? 1 : 0);
  const z = logit(f.compound);
  return [
    one('new-body'), one('partial-body'), one('existing-body'),
    z * one('new-body'), z * one('partial-body'), z * one('existing-body'),
    Math.log1p(f.uncoveredWritten), Math.log1p(f.uncoveredMass), Math.log1p(f.writtenRefs), Math.log1p(f.writtenLines),
    Math.log1p(f.unresolvedNames), Math.log1p(f.surfaceSize), f.budgetShare,
  ];
}

/** The model in force (server/data/gate-model.json), checked once against the columns this code computes. */
export const GATE_MODEL: GateModel = checkedModel(fitted as unknown as GateModel);

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
export function estimatedConfidence(f: GateFeatures, model: GateModel = GATE_MODEL): number {
  const x = designRow(f);
  let z = 0;
  for (let j = 0; j < x.length; j++) z += x[j] * model.beta[j];
  return 1 / (1 + Math.exp(-z));
}

/**
 * P(the context holds every needed symbol) = P(estimated part covered) × the certain part's
 * compounded factor; null when no verdict can be formed.
 */
export function calibratedConfidence(f: GateFeatures, model: GateModel = GATE_MODEL): number | null {
  if (!f.judged || f.scenario === 'outside-method') return null;
  const p = estimatedConfidence(f, model) * writtenFactorOf(f);
  return Number.isFinite(p) ? p : null;
}

/** τ of a scenario under the model (the fitted review policy). */
export function scenarioThreshold(scenario: Scenario, model: GateModel = GATE_MODEL): number {
  return scenario === 'outside-method' ? 1 : model.threshold[scenario];
}
