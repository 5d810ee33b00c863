// Packing constants of the pipeline fitted on validation splits pooled across every development
// corpus (and its injected variant), never on a test split. Written by `npm run fit:retrieval`
// (bench/retrieval-fit.bench.ts), which prints the grid it searched; regenerate, do not hand-edit.

export interface Packing {
  /**
   * Tokens the pipeline fills before only strong candidates may join: the knee of pooled
   * validation recall against tokens. A larger budget buys more only where candidates are strong.
   */
  kneeTokens: number;
  /** A candidate below this absolute score is not shown (a same-class member with no other signal scores 0.35 + its re-rank). */
  minScore: number;
}

export const PACKING: Packing = {
  kneeTokens: 2000,
  minScore: 0.3,
};
