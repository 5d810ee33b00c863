// Packing's member models, one per kind of body, as fitted on validation splits pooled across every
// development corpus and its injected variant, never on a test split. They live in
// server/data/packing.json, which `npm run fit:retrieval -- --for KIND --write`
// (bench/retrieval-fit.bench.ts) rewrites one entry at a time; regenerate, do not hand-edit.
//
// Why two: a body to write from nothing is packed best by a model with products of its inputs
// (memberModel.ts), but with that model packing half-written bodies the gate's confidence
// separated sufficient contexts from insufficient ones worse (docs/method.md), so written bodies
// keep the linear model.

import type { Scenario } from '../../../shared/protocol';
import type { Packing } from './memberModel';
import data from '../../data/packing.json';

/** The kinds of body a model packs for. */
export const PACKING_KINDS = ['new-body', 'written-body'] as const;
export type PackingKind = (typeof PACKING_KINDS)[number];

/** What a fit records beside the model and its prices (fit:retrieval writes every field). */
export interface FittedPacking extends Packing {
  /** The command that wrote this entry. */
  fittedBy: string;
  fittedOn: { tasks: number; corpora: string[]; rows: number; needed: number };
  /** The L2 penalty chosen, and the list it was chosen from (best mean AUROC leaving one corpus out). */
  penalty: { l2: number; of: number[] };
  auroc: { pooled: number; leaveOneCorpusOut: { min: number; max: number } };
  valueRule: string;
  docValueRule: string;
  /** What the tasks the prices were chosen on were. */
  scoredOn: string;
  scores: { recall: number; fullCoverage: number; docRecall: number; contractRecall: number; medianTokens: number; lineNoise: number };
  /** The frontier of recall against median tokens the value was chosen on. */
  frontier: { value: number; medianTokens: number; recall: number }[];
}

export interface PackingFile { about: string; models: Record<PackingKind, FittedPacking> }

export const PACKINGS: Readonly<Record<PackingKind, FittedPacking>> = (data as PackingFile).models;

/**
 * The model that packs a scenario: a body with nothing written yet (new-body), or everything else:
 * half-written and complete bodies, and a cursor outside any method (a field or a type, packed as
 * before the split, by the model in force then).
 */
export function packingKind(scenario: Scenario | undefined): PackingKind {
  return scenario === 'new-body' ? 'new-body' : 'written-body';
}

/** The packing in force for a scenario: the request's own (benches fitting a model) or the fitted one. */
export function packingFor(scenario: Scenario | undefined, req?: { packing?: Packing }): Packing {
  return req?.packing ?? PACKINGS[packingKind(scenario)];
}
