// Combined confidence (RCL §4): coverage and novelty compound multiplicatively,
//   confidence = 1 − (1 − coverage) × novelty(uncovered surface).
// (1 − coverage) is the coverable risk (a needed declaration is missing), novelty the prior-gap
// risk (the model cannot fall back on what it knows). Their product is the risk that a missing
// dependency is also one the model cannot guess: full coverage neutralises novelty (confidence 1),
// zero novelty neutralises a coverage gap (confidence 1), and confidence falls monotonically as
// coverage falls or novelty rises. Novelty is aggregated only over the uncovered entries, since a
// covered symbol carries no prior-gap risk: its declaration is in the context.

import type { SurfaceEntry } from '../../../shared/protocol';
import { aggregateNovelty } from './novelty';
import { markedCoverage } from './coverage';

export interface Confidence { coverage: number; novelty: number; confidence: number }

export function combineConfidence(coverage: number, novelty: number): number {
  const c = clamp01(coverage);
  const n = clamp01(novelty);
  return clamp01(1 - (1 - c) * n);
}

/** Novelty of the uncovered part of a marked surface (0 when everything is covered). */
export function uncoveredNovelty(surface: SurfaceEntry[]): number {
  return aggregateNovelty(surface.filter((e) => !e.covered).map((e) => ({ novelty: e.novelty, weight: e.weight })));
}

// ---- Per-symbol compounding (the form in force) ------------------------------------------------
// Surface weights are calibrated probabilities p_i that the body needs entry i (surface.ts). The
// RCL product is applied per uncovered dependency and the risks compound across dependencies:
//   confidence = Π_{i uncovered} (1 − p_i × ν_i),   ν_i = NOVELTY_FLOOR + (1 − NOVELTY_FLOOR) × novelty_i
// Each factor is RCL §4's 1 − (coverage gap) × (novelty) for one symbol: p_i is the chance that a
// needed declaration is missing, ν_i the chance the model cannot fall back on its prior. Full
// coverage gives 1, a familiar gap costs little, and every further likely-missing symbol lowers
// confidence multiplicatively (RCL §4: "compounding risk factors rather than additive signals").
// Unlike 1 − (1 − weighted share) × novelty, it falls with the expected number of uncovered
// dependencies rather than their share: under calibrated, independent p_i it is the probability
// that no needed symbol is missing (up to ν), which is what the gate is asked to predict.
// Measured honestly: on the validation splits neither form alone separates fully covered tasks
// well for an emptied body (AUROC ≈ 0.45-0.65 on commons-lang3/jsoup), because most gold symbols
// that retrieval misses are not on the estimated surface at all (~19 % of gold; see surface.ts);
// calibration.ts combines it with the structural evidence into a calibrated probability.

/**
 * Novelty never removes the whole risk of a likely-missing dependency: measured sufficiency is
 * structural, and even a familiar-looking internal name can be guessed wrong.
 */
export const NOVELTY_FLOOR = 0.5;
/**
 * Coverage, novelty and RCL's compounded confidence of a surface already marked with `covered`
 * (weights = probabilities). Coverage is the estimated share of needed symbols present, as is.
 * The compounded value is one input of the calibrated confidence (calibration.ts), not the verdict.
 */
export function confidenceOf(surface: SurfaceEntry[]): Confidence {
  const coverage = markedCoverage(surface);
  const novelty = uncoveredNovelty(surface);
  let confidence = 1;
  for (const e of surface) {
    if (e.covered || !(e.weight > 0) || !Number.isFinite(e.weight)) continue;
    const nu = NOVELTY_FLOOR + (1 - NOVELTY_FLOOR) * clamp01(e.novelty);
    confidence *= 1 - clamp01(e.weight) * nu;
  }
  return { coverage, novelty, confidence: clamp01(confidence) };
}

function clamp01(x: number): number {
  return Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0;
}
