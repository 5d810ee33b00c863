// What the pipeline is given. The LSP layer and the CLI build it; every stage reads only this
// (plus the index snapshot inside it), so stages stay pure functions that tests call directly.

import type { ContextItem, Position, RetrievalMode, RetrievalResult, SurfaceEntry } from '../../../shared/protocol';
import type { SymbolRef, WorkspaceIndex } from '../index/workspaceIndex';
import type { MemberRow, Packing } from './memberModel';
import type { ScenarioJudgement } from '../gate/scenario';

export interface PipelineRequest {
  index: WorkspaceIndex;
  /** Workspace folders (absolute paths), in the order the editor gave them. */
  roots: string[];
  /** Folders the user marked as golden repositories (preferred by the repository prefilter). */
  goldenRoots?: string[];
  /** Current text of a file: the open document if there is one, else disk; undefined if unreadable. */
  textOf: (path: string) => string | undefined;
  /** Paths of open documents whose text differs from disk (lexical recall must search the text, not disk). */
  openPaths: string[];
  /**
   * The workspace's configuration files on disk (index/files.ts isConfigFile), sorted, as the
   * indexer's discovery and watcher know them; absent: lexical recall walks the folders for them.
   */
  configFiles?: readonly string[];
  /** Absolute path of the cursor's file. */
  path: string;
  position: Position;
  query?: string;
  budgetTokens: number;
  mode: RetrievalMode;
  maxRounds: number;
  /** The gate's threshold τ; NaN: the calibrated τ of the scenario the gate judges. */
  threshold: number;
  /** Packing constants; the fitted ones (fitted.ts) unless a fit is trying others. */
  packing?: Packing;
  /** Receives every ranked candidate packing weighed (the fit's training rows); benches only. */
  observeMembers?: (rows: MemberRow[]) => void;
  /**
   * Benches only: P(needed) of a candidate in place of the member model's (undefined: the model's).
   * An oracle that knows the gold measures what packing's selection alone costs in tokens and noise.
   */
  neededOverride?: (id: string) => number | undefined;
  /** Receives every merged candidate in rank order, after the re-ranks (recall diagnostics); benches only. */
  observeRanked?: (ranked: RankedRow[]) => void;
  /** Cooperative cancellation, checked at stage boundaries. */
  isCancelled?: () => boolean;
  /** Benches: return the weighed candidates with the result (RetrievalResult.weighedCandidates). */
  explain?: boolean;
}

/** One merged candidate as recall ranked it: where its declaration is, and its score. */
export interface RankedRow { id: string; path: string; startLine: number; nameLine: number; score: number }

export const DEFAULTS = {
  /** docs/protocol.md: hard cap default. */
  budgetTokens: 4000,
  /** docs/protocol.md: targeted follow-up rounds default (RCL §4). */
  maxRounds: 2,
  /** The Needle and the Noise §4 (5): only the top-k candidates get the statement-level dependence re-rank. */
  topK: 20,
} as const;

/** The cursor's method (or type) as the pipeline and the gate see it. */
export interface Target {
  ref: SymbolRef;
  /** The enclosing type of the target. */
  owner?: SymbolRef;
}

/**
 * A declaration packing weighed (pipeline.ts packRanked): its probability of being needed under
 * the member model (memberModel.ts) and where its name is declared, so the gate can tell whether
 * the final items show it.
 */
export interface WeighedCandidate { symbol: string; uri: string; line: number; p: number }

/** What retrieval hands the gate beside the items: its own structured evidence, never text. */
export interface RetrievalEvidence {
  /** Every candidate the member model weighed, shown or not (at most MAX_WEIGHED), in rank order. */
  candidates: WeighedCandidate[];
  /** The scenario packing was told (gate/scenario.ts), judged once from the cursor's file. */
  scenario?: ScenarioJudgement;
}

/**
 * The gate's view of a finished item set. Implemented in server/src/gate/; the pipeline calls it
 * and, for follow-up rounds, hands it a way to fetch declarations of named symbols.
 */
export interface GateVerdict {
  coverage: number;
  novelty: number;
  confidence: number;
  review: boolean;
  reviewReasons: string[];
  rounds: number;
  dependencySurface: SurfaceEntry[];
  items: ContextItem[];
}

export interface FollowupOptions {
  /**
   * Items already shown: a declaration whose type group is among them is packed into that group,
   * and the group comes back re-rendered (same uri and symbol, its old declarations kept) in
   * place of a second item repeating the type's header.
   */
  into?: ContextItem[];
  /** Show the Javadoc's first sentence (default true); the gate asks for signatures only. */
  doc?: boolean;
}

/** What the gate may call back into retrieval for: follow-up declarations, the budget cap, and their price. */
export interface GateApi {
  /** Declarations of `ids`; with `into`, groups already shown come back re-rendered with them (same uri and symbol). */
  itemsForSymbols(req: PipelineRequest, ids: string[], source: 'followup', options?: FollowupOptions): ContextItem[];
  fitToBudget(items: ContextItem[], budget: number): ContextItem[];
  /**
   * Tokens the follow-up declarations of `ids` would add to `into` (as packing counts them, after
   * what `accept` agreed to earlier against the same `into`); without it (callers other than the
   * pipeline, such as the gate's tests), their signatures' tokens are the estimate.
   */
  addedTokens?(req: PipelineRequest, ids: string[], into: ContextItem[], accept?: (tokens: number) => boolean): number;
}

/** What a gate may report beside its verdict: τ in force, an uncertainty trace, the scenario and its evidence. */
export type GateExtras = {
  threshold?: number; uncertainty?: { api: number; repository: number; similar: number };
  scenario?: RetrievalResult['scenario']; scenarioReason?: string; gateFeatures?: RetrievalResult['gateFeatures'];
};

/**
 * The gate (server/src/gate/sufficiency.ts) as the pipeline calls it: it sees the finished items
 * and retrieval's evidence (the candidates packing weighed, with their P(needed)).
 */
export type GateHook = (req: PipelineRequest, target: Target | undefined, items: ContextItem[], api: GateApi, evidence?: RetrievalEvidence) =>
  Promise<GateVerdict & GateExtras> | (GateVerdict & GateExtras);
