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

/** Coverage, novelty and confidence of a surface already marked with `covered`. */
export function confidenceOf(surface: SurfaceEntry[]): Confidence {
  const coverage = markedCoverage(surface);
  const novelty = uncoveredNovelty(surface);
  return { coverage, novelty, confidence: combineConfidence(coverage, novelty) };
}

function clamp01(x: number): number {
  return Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0;
}
