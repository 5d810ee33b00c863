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

export type RetrievalMode = 'rcl' | 'similarity' | 'fixedK';

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
