// Packing constants of the pipeline fitted on validation splits pooled across every development
// corpus (and its injected variant), never on a test split. Written by `npm run fit:retrieval`
// (bench/retrieval-fit.bench.ts), which prints the grid it searched; regenerate, do not hand-edit.
//
// In force: the constants from before the knee fit (a soft limit of half the default budget, every
// Javadoc shown). Refit on the merged renderer (`npm run fit:retrieval -- --validation 12 --knee
// 1400,1700,2000 --doc-share 0,0.5,1,Infinity`: 84 validation tasks, 12 of each of 7 corpora, rcl
// at budget 4,000 with the gate's follow-up rounds): these score recall 0.851, full coverage 0.774
// at 2,258 median tokens. The knee of that grid is kneeTokens 1,700 with docShare Infinity (0.853,
// 0.774 at 1,955); docShare 1 gives 0.848 at 1,957 and 0.5 gives 0.848 at 1,968; kneeTokens 1,400
// loses 3 points or more (0.802-0.822 at 1,723-1,785). docShare Infinity shows no ranked
// candidate's Javadoc at all, so the demo never shows a Javadoc summary and a sources jar's Javadoc
// never reaches the context (test/render/demo.test.ts, test/deps/newUser.test.ts). With 0.5 the
// sources jar's Javadoc is shown, but the demo's e.g. case (AuditedOperation.value) is a weak
// candidate and shows its signature alone. The recall score does not value that prose; these
// constants stay until a fit also weighs what a Javadoc is worth.

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
  kneeTokens: 2000,
  minShare: 0.06,
  minScore: 0.3,
  docShare: 0,
  minOwn: 0,
};
