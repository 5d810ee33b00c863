// What the pipeline is given. The LSP layer and the CLI build it; every stage reads only this
// (plus the index snapshot inside it), so stages stay pure functions that tests call directly.

import type { ContextItem, Position, RetrievalMode, SurfaceEntry } from '../../../shared/protocol';
import type { SymbolRef, WorkspaceIndex } from '../index/workspaceIndex';
import type { MemberRow, Packing } from './memberModel';

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
  /** Receives every merged candidate in rank order, after the re-ranks (recall diagnostics); benches only. */
  observeRanked?: (ranked: RankedRow[]) => void;
  /** Cooperative cancellation, checked at stage boundaries. */
  isCancelled?: () => boolean;
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
