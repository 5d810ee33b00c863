// Packing constants of the pipeline fitted on validation splits pooled across every development
// corpus (and its injected variant), never on a test split. Written by `npm run fit:retrieval`
// (bench/retrieval-fit.bench.ts), which prints the grid it searched; regenerate, do not hand-edit.
//
// Fitted by: npm run fit:retrieval -- --tasks 40 --validation 12 --knee 1400,1700,2000
//   --min-share 0.06 --min-score 0.3 --doc-share 0,0.5,1,Infinity --min-own 0,0.3
// 84 validation tasks (7 corpora: commons-lang3, jsoup, ant, antlr4-runtime, commons-collections4, commons-lang3-injected, jsoup-injected);
// rcl at budget 4,000 with the gate's follow-up rounds. The selection constants are the knee of
// pooled recall against median tokens; docShare is chosen there by contract recall (a needed
// declaration and its Javadoc each a unit) where recall holds within one standard error. Scores:
// recall 0.848, full coverage 0.774, needed declarations' Javadocs shown 0.407,
// contract recall 0.661, 1959 median tokens, line noise 0.937.
export interface Packing {
  /**
   * Tokens the pipeline fills before only strong candidates may join: the knee of pooled
   * validation recall against tokens. A larger budget buys more only where candidates are strong.
   */
  kneeTokens: number;
  /**
   * A candidate below this share of the reference score is not shown, whether or not its type is
   * already shown: a member is shown because it is likely needed, not because its type is.
   */
  minShare: number;
  /** A candidate below this absolute score is not shown (a same-class member with no other signal scores 0.35 + its re-rank). */
  minScore: number;
  /**
   * A candidate scoring below this share of the reference score is shown by its signature alone,
   * without its Javadoc's first sentence: its chance of being needed does not pay for the prose.
   */
  docShare: number;
  /**
   * A candidate whose score without the part owed to its type (Candidate.membership: being a
   * member of the cursor's class, a signature type, a supertype) is below this is not shown: a
   * member is shown because it is likely needed, not because its type is.
   */
  minOwn: number;
}

export const PACKING: Packing = {
  kneeTokens: 1700,
  minShare: 0.06,
  minScore: 0.3,
  docShare: 0.5,
  minOwn: 0,
};
