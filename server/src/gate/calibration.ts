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
 * The evidence the model reads, each a function of one feature record: RCL §4's compounded value
 * of the estimated surface, and retrieval's own compounding over what packing weighed and left
 * out (retrievalEvidence.ts: Σ log(1 − p) of the member model's left-out candidates), beside
 * structural evidence: how full the budget is, the written lines, the estimated surface's mass
 * (Σ p: how much it expects the body to need) and size, and the members of the target's type.
 * Chosen on the validation records only, forward by leave-one-corpus-out AUROC
 * (bench/gate-fit.bench.ts prints that check); left out because they did not help there: the
 * uncovered mass and largest uncovered p, the left-out mass and largest left-out p, the shown
 * candidates' mass, the target's parameters, Javadoc words and signature types, written
 * references, blocks open at the cursor and written types with no member shown.
 */
const EVIDENCE = {
  'compound-logit': (f: GateFeatures) => logit(f.compound),
  'left-out-log-p': (f: GateFeatures) => f.leftOutLogP ?? 0,
  'budget-share': (f: GateFeatures) => f.budgetShare,
  'log1p-written-lines': (f: GateFeatures) => Math.log1p(f.writtenLines),
  'log1p-estimated-mass': (f: GateFeatures) => Math.log1p(f.estimatedMass ?? 0),
  'log1p-surface-size': (f: GateFeatures) => Math.log1p(f.surfaceSize),
  'log1p-owner-members': (f: GateFeatures) => Math.log1p(f.ownerMembers ?? 0),
} as const;
type Evidence = keyof typeof EVIDENCE;

/** The scenarios whose body is (partly) still to write: they share the pooled slopes. */
export const TO_WRITE: readonly JudgedScenario[] = ['new-body', 'partial-body'];
/** The pooled block's column suffix. */
const TO_WRITE_SUFFIX = 'to-write';
/**
 * Evidence with one slope shared by new and partial bodies (each keeps its own intercept). Pooling
 * halves the slopes a few hundred records must pin: per-scenario slopes fitted partial bodies'
 * validation records (AUROC 0.78 in sample) and not their test split (0.60). For a new body the
 * written evidence is 0, so its slope is learnt from partial bodies alone.
 */
const SHARED: readonly Evidence[] = ['compound-logit', 'left-out-log-p', 'budget-share', 'log1p-written-lines', 'log1p-estimated-mass', 'log1p-surface-size', 'log1p-owner-members'];
/**
 * The model's columns, in the data file's order: an intercept per scenario, then the shared slopes
 * (`left-out-log-p×to-write`). No scenario has slopes of its own: per-scenario slopes generalised
 * worse leaving one corpus out, and an existing body keeps its intercept alone.
 */
export const GATE_COLUMNS: readonly string[] = [
  ...JUDGED_SCENARIOS,
  ...SHARED.map((e) => `${e}×${TO_WRITE_SUFFIX}`),
];
/**
 * Signs the fit must respect (RCL's direction of each risk): more compounded confidence - of
 * the estimated surface or of retrieval's left-out candidates - never lowers P(sufficient). A column fitted with the wrong sign is dropped (coefficient 0) and the rest refitted.
 */
const MONOTONE_EVIDENCE: Partial<Record<Evidence, 1 | -1>> = { 'compound-logit': 1, 'left-out-log-p': 1 };
export const MONOTONE: Readonly<Record<string, 1 | -1>> = Object.fromEntries(GATE_COLUMNS.flatMap((c) => {
  const sign = MONOTONE_EVIDENCE[c.split('×')[0] as Evidence];
  return sign === undefined ? [] : [[c, sign] as const];
}));
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

/** The design row of one feature record (GATE_COLUMNS order): the scenario's intercept, and the shared block for a body still to write; the rest 0. */
export function designRow(f: GateFeatures): number[] {
  const sc = f.scenario as JudgedScenario;
  const toWrite = TO_WRITE.includes(sc);
  return [
    ...JUDGED_SCENARIOS.map((s) => (s === sc ? 1 : 0)),
    ...SHARED.map((e) => (toWrite ? EVIDENCE[e](f) : 0)),
  ];
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
