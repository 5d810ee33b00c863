// Stage 6 packing's evidence: the probability that one ranked declaration is needed by the
// cursor's code, from structured facts the pipeline already holds (its score and how the score
// is made up by route and by relation (types.ts EVIDENCE), the part owed only to membership of a type in reach, its rank, its kind,
// where it lives relative to the cursor, its size and whether it has a Javadoc). A small logistic
// model, fitted on validation tasks pooled over every development corpus (`npm run fit:retrieval`,
// bench/retrieval-fit.bench.ts) and kept in fitted.ts. Packing then shows a declaration when its
// expected value pays for its tokens: p × PACKING.value > the tokens it adds (pipeline.ts).

import type { ItemSource } from '../../../shared/protocol';
import { isTypeKind } from '../java/symbols';
import type { Merged } from './merge';
import { EVIDENCE } from './types';

/** The model's inputs, in the order of `Packing.beta`; a change here needs a refit. */
export const MEMBER_COLUMNS = [
  'bias',
  'log score',
  'share of reference',
  'membership share',
  'log own score',
  'lexical share',
  'api share',
  'graph share',
  'similar share',
  'log rank',
  'type',
  'field or constant',
  'constructor',
  'same file',
  'cursor type group',
  'log tokens',
  'javadoc',
  'static',
  'log group candidates',
  'log file declarations',
  'share of top score',
  'share of type best',
  'log rank in type',
  'type ranked',
  'log type members',
  'name words in query',
  'structural type',
  'used by like-named sibling',
  'log uses in file',
  ...EVIDENCE.map((e) => `by ${e}` as const),
] as const;

/** Packing: the fitted member model and the two prices it is weighed against (a declaration's and its Javadoc sentence's). */
export interface Packing {
  /**
   * Tokens a needed declaration is worth: a declaration joins when p × value exceeds the tokens it
   * adds (its lines plus, for a type not shown yet, the type's header). The knee of pooled
   * validation recall against median tokens.
   */
  value: number;
  /**
   * Tokens a needed declaration's Javadoc first sentence is worth: a shown declaration keeps it
   * when p × docValue exceeds the tokens it adds (its line, less the marker of the Javadoc left
   * out). Chosen at the knee of contract recall against median tokens.
   */
  docValue: number;
  /** Names of the model's inputs (must equal MEMBER_COLUMNS). */
  columns: readonly string[];
  /** Logistic coefficients, one per column. */
  beta: number[];
}

/** What the pipeline knows of a candidate besides the candidate itself. */
export interface MemberContext {
  /** 0-based position in the ranked list. */
  rank: number;
  /** The reference score (the REFERENCE_RANK-th best). */
  reference: number;
  /** The cursor's file and its file-level type group. */
  cursorPath: string;
  cursorGroup?: string;
  /** Tokens of the declaration shown by its signature alone. */
  tokens: number;
  /** Ranked candidates in the same file-level type group. */
  groupCandidates: number;
  /**
   * Per-query and per-type normalisation, so a score means the same in a corpus of small classes
   * and in one of 200-member utility types: the best candidate's score, the best score in this
   * candidate's type group, and how many of the group rank above it.
   */
  top?: number;
  groupBest?: number;
  groupRank?: number;
  /** Whether the candidate's file-level type is itself a ranked candidate. */
  typeRanked?: boolean;
  /** Declarations directly inside the candidate's parent (its siblings and itself). */
  siblings?: number;
  /** Share of the candidate's name's word parts among the query's words (Query.words). */
  nameInQuery?: number;
  /**
   * Whether the candidate's type group is one the structural reference shows (structural.ts: the
   * cursor's type, its supertypes, signature, Javadoc-link and field types, types used by
   * like-named siblings), and whether a like-named sibling of the cursor's method uses it.
   */
  structuralType?: boolean;
  usedByLikeNamed?: boolean;
  /**
   * How many members of the cursor's file reference the candidate: its siblings' use, and the
   * cursor's own where its body is written (partial and existing bodies).
   */
  usesInFile?: number;
}

const SOURCES: ItemSource[] = ['lexical', 'api', 'graph', 'similar'];

/** One row of inputs for `c`, in MEMBER_COLUMNS order. */
export function memberFeatures(c: Merged, ctx: MemberContext): number[] {
  const sym = c.ref.sym;
  const routed = SOURCES.reduce((s, k) => s + (c.routes?.[k] ?? 0), 0) || 1;
  const membership = Math.min(c.membership ?? 0, c.score);
  return [
    1,
    Math.log1p(Math.max(0, c.score)),
    Math.min(3, ctx.reference > 0 ? c.score / ctx.reference : 0),
    c.score > 0 ? membership / c.score : 0,
    Math.log1p(Math.max(0, c.score - membership)),
    ...SOURCES.map((k) => (c.routes?.[k] ?? 0) / routed),
    Math.log1p(ctx.rank),
    isTypeKind(sym.kind) ? 1 : 0,
    sym.kind === 'field' || sym.kind === 'enumConstant' ? 1 : 0,
    sym.kind === 'constructor' ? 1 : 0,
    c.ref.file.path === ctx.cursorPath ? 1 : 0,
    ctx.cursorGroup !== undefined && c.group === ctx.cursorGroup ? 1 : 0,
    Math.log1p(ctx.tokens),
    sym.javadoc ? 1 : 0,
    sym.modifiers.includes('static') ? 1 : 0,
    Math.log1p(ctx.groupCandidates),
    Math.log1p(c.ref.file.facts.symbols.length),
    ctx.top ? Math.min(1, Math.max(0, c.score) / ctx.top) : 0,
    ctx.groupBest ? Math.min(1, Math.max(0, c.score) / ctx.groupBest) : 0,
    Math.log1p(ctx.groupRank ?? 0),
    ctx.typeRanked ? 1 : 0,
    Math.log1p(ctx.siblings ?? 0),
    ctx.nameInQuery ?? 0,
    ctx.structuralType ? 1 : 0,
    ctx.usedByLikeNamed ? 1 : 0,
    Math.log1p(ctx.usesInFile ?? 0),
    ...EVIDENCE.map((e) => (c.evidence?.[e] ? 1 : 0)),
  ];
}

/** P(needed) of a row under the model. */
export function needProbability(x: number[], packing: Packing): number {
  let z = 0;
  for (let j = 0; j < x.length; j++) z += x[j] * (packing.beta[j] ?? 0);
  return 1 / (1 + Math.exp(-z));
}

/** Throws unless the packing's columns are the model's inputs (fitted.ts is stale otherwise). */
export function checkedPacking(p: Packing): Packing {
  if (p.columns.length !== MEMBER_COLUMNS.length || p.columns.some((c, i) => c !== MEMBER_COLUMNS[i]) || p.beta.length !== MEMBER_COLUMNS.length) {
    throw new Error('server/src/retrieval/fitted.ts does not match MEMBER_COLUMNS: regenerate it with `npm run fit:retrieval`');
  }
  return p;
}

/** One ranked candidate as packing saw it: the fit's training row (label added by the bench). */
export interface MemberRow {
  id: string;
  path: string;
  /** 0-based first line of the declaration and last line of its name. */
  startLine: number;
  nameLine: number;
  x: number[];
  p: number;
  shown: boolean;
}
