// Protocol types shared by the client and the server. They mirror ../shared/CONTRACT.md:
// fields may be added, never renamed or removed.

export interface Position { line: number; character: number }
export interface Range { start: Position; end: Position }

export const Methods = {
  status: 'needle/status',
  retrieveContext: 'needle/retrieveContext',
  checkCode: 'needle/checkCode',
} as const;

export const Commands = {
  retrieveContext: 'needle.retrieveContext',
} as const;

/** `structural`: a reference baseline (the syntax tree's neighbours of the cursor, no ranking, no gate). */
export type RetrievalMode = 'rcl' | 'similarity' | 'fixedK' | 'structural';

export interface RetrieveContextParams {
  textDocument: { uri: string };
  position: Position;
  query?: string;
  budgetTokens?: number;
  mode?: RetrievalMode;
  maxRounds?: number;
}

export type ItemSource = 'enclosing' | 'lexical' | 'api' | 'graph' | 'similar' | 'followup';

export interface ContextItem {
  uri: string;
  range: Range;
  symbol?: string;
  kind?: string;
  /** What a model would see: whole lines only, elisions marked. */
  text: string;
  tokens: number;
  score: number;
  sources: ItemSource[];
  untrusted: true;
  flags?: string[];
}

export interface SurfaceEntry {
  symbol: string;
  kind: string;
  uri?: string;
  line?: number;
  internal: boolean;
  covered: boolean;
  novelty: number;
  weight: number;
  /** Why the symbol is in the surface (e.g. "referenced in body", "parameter type member"). */
  reason?: string;
}

export interface RetrievalResult {
  items: ContextItem[];
  tokens: number;
  tokenizer: string;
  coverage: number;
  novelty: number;
  confidence: number;
  threshold: number;
  review: boolean;
  reviewReasons: string[];
  rounds: number;
  dependencySurface: SurfaceEntry[];
  uncertainty: { api: number; repository: number; similar: number };
  timingsMs: { total: number; [stage: string]: number };
}

export interface SkippedFile { path: string; reason: string }

export interface StatusResult {
  state: 'indexing' | 'ready';
  files: number;
  symbols: number;
  edges: number;
  skipped?: SkippedFile[];
  indexMs?: number;
  lastUpdateMs?: number;
  /** Share of reference sites resolved to an internal declaration or known to be external. */
  resolvedShare?: number;
  paused?: boolean;
}

// ---- needle/checkCode: proposed code checked against the workspace (not yet in CONTRACT.md) ----

export interface CheckCodeParams {
  textDocument: { uri: string };
  /** Replace exactly this range of the document (0-based) with `text`. */
  range?: Range;
  /** The proposed code: a method or constructor, or a whole file. */
  text?: string;
}

export type FindingCode = 'unknown-internal-api' | 'no-matching-overload' | 'missing-import' | 'copied-instruction-like' | 'unused-surface';

export interface CheckFinding {
  code: FindingCode;
  severity: 'error' | 'warning' | 'information';
  message: string;
  /** 0-based, in the proposed code as given. */
  range: Range;
  /** 0-based, in the file with the proposal in place. */
  fileRange?: Range;
  /** The name as written. */
  name?: string;
  /** The internal type the name was looked up on (id). */
  receiverType?: string;
  /** Closest real symbols (ids), best first. */
  candidates?: string[];
  /** no-matching-overload: the overloads that exist (ids). */
  overloads?: string[];
  /** copied-instruction-like: where the copied text was retrieved from. */
  source?: { uri: string; range: Range };
  /** unused-surface: the symbols left unused (ids). */
  symbols?: string[];
}

export interface CheckCodeResult {
  findings: CheckFinding[];
  /** How the code was placed: replacing a method, inserted as a new member, a range, or the whole file. */
  placement: 'method' | 'new-member' | 'range' | 'file';
  /** The id of the method the code replaced, if any. */
  target?: string;
  /** Reference sites of the proposal that were checked. */
  references: number;
  /** The target's dependency surface: internal symbols the proposal uses, and heavy ones it leaves unused. */
  surface: { used: string[]; unused: string[] };
  /** Whether the proposal has syntax errors (checked anyway, as far as it parses). */
  syntaxErrors: boolean;
}
