// Stage 6 packing's evidence: the probability that one ranked declaration is needed by the
// cursor's code, from structured facts the pipeline already holds (its score and how the score
// is made up by route and by relation (types.ts EVIDENCE), the part owed only to membership of a type in reach, its rank, its kind,
// where it lives relative to the cursor, its size and whether it has a Javadoc). A small logistic
// model, fitted on validation tasks pooled over every development corpus (`npm run fit:retrieval`,
// bench/retrieval-fit.bench.ts) and kept in server/data/packing.json, one model per kind of body
// (fitted.ts). Packing then shows a declaration when its expected value pays for its tokens:
// p × value > the tokens it adds (pipeline.ts).

import type { ItemSource } from '../../../shared/protocol';
import { isTypeKind } from '../java/symbols';
import type { Merged } from './merge';
import { EVIDENCE } from './types';

/** One candidate's evidence: a linear model's inputs, and the first of MEMBER_COLUMNS. */
export const BASE_COLUMNS = [
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
export type BaseColumn = (typeof BASE_COLUMNS)[number];

/**
 * Inputs whose pairwise products (squares included) follow the base inputs. A score, a rank or a
 * share means something else in a small file than in a 200-member type, or for the cursor's own
 * type than for a signature type, and a linear model over the evidence alone cannot say so. On
 * validation tasks 41–160 of every development corpus (140 k weighed candidates of new bodies),
 * these products raised the member model's AUROC leaving one corpus out from 0.871 to 0.886
 * (ant 0.824 → 0.849). On half-written bodies they did not help the gate (docs/method.md), so
 * only the new-body model uses them.
 */
const INTERACTING: readonly BaseColumn[] = [
  'log score', 'share of reference', 'membership share', 'log own score', 'log rank', 'same file', 'cursor type group',
  'log tokens', 'log group candidates', 'share of top score', 'share of type best', 'log rank in type', 'log type members',
  'name words in query', 'structural type', 'log uses in file',
];
const PAIRS: readonly (readonly [number, number])[] = INTERACTING.flatMap((a, i) =>
  INTERACTING.slice(i).map((b) => [BASE_COLUMNS.indexOf(a), BASE_COLUMNS.indexOf(b)] as const));

/**
 * Every input a row holds, in order: the base inputs, then their products. A model uses a prefix:
 * the base inputs alone (linear) or all of them (`Packing.columns`); a change here needs a refit.
 */
export const MEMBER_COLUMNS: readonly string[] = [
  ...BASE_COLUMNS,
  ...PAIRS.map(([i, j]) => `${BASE_COLUMNS[i]} × ${BASE_COLUMNS[j]}`),
];
/** The two input sets a model may use, as fit:retrieval's --inputs names them. */
export const MEMBER_INPUTS = { linear: BASE_COLUMNS.length, products: MEMBER_COLUMNS.length } as const;
export type MemberInputs = keyof typeof MEMBER_INPUTS;

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
  /** Names of the model's inputs: MEMBER_COLUMNS, or its base inputs alone (BASE_COLUMNS). */
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

/** One row of inputs for `c`, in MEMBER_COLUMNS order (products included, whichever model weighs it). */
export function memberFeatures(c: Merged, ctx: MemberContext): number[] {
  const base = baseFeatures(c, ctx);
  return [...base, ...PAIRS.map(([i, j]) => base[i] * base[j])];
}

function baseFeatures(c: Merged, ctx: MemberContext): number[] {
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

/** P(needed) of a row under the model (its columns are a prefix of the row's). */
export function needProbability(x: number[], packing: Packing): number {
  let z = 0;
  for (let j = 0; j < packing.beta.length; j++) z += x[j] * packing.beta[j];
  return 1 / (1 + Math.exp(-z));
}

/** Which input set a packing's columns are, or undefined when they are neither (the model is stale). */
export function inputsOf(p: Pick<Packing, 'columns' | 'beta'>): MemberInputs | undefined {
  const inputs = (Object.keys(MEMBER_INPUTS) as MemberInputs[]).find((k) => MEMBER_INPUTS[k] === p.columns.length);
  if (!inputs || p.beta.length !== p.columns.length || p.columns.some((c, i) => c !== MEMBER_COLUMNS[i])) return undefined;
  return inputs;
}

/** Throws unless the packing's columns are one of the input sets (server/data/packing.json is stale otherwise). */
export function checkedPacking(p: Packing): Packing {
  if (!inputsOf(p)) throw new Error('server/data/packing.json does not match MEMBER_COLUMNS: regenerate it with `npm run fit:retrieval`');
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
