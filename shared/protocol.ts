// Protocol types shared by the client and the server. docs/protocol.md describes them (a test
// holds the two in step): fields may be added, never renamed or removed.

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
  /** Benches: also return the member model's weighed candidates (RetrievalResult.weighedCandidates). */
  explain?: boolean;
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
  /**
   * Where each line of `text` comes from: one entry per line (`text.split('\n')`), in order.
   * Absent only from items made by something other than the pipeline.
   */
  sourceLines?: SourceLine[];
}

/**
 * The origin of one shown line. A verbatim line is source line `line` of the item's file (secrets
 * redacted aside); one that carries `hidden` (a folded body) is that line followed by ` … }`,
 * which stands for the hidden lines: the rest of the body the line opens, through its closing
 * brace. A line the server wrote stands for the declaration whose first line is `line`:
 * a Javadoc's first sentence (`doc`), a header naming the declaration (`header`), or a marker of
 * source lines left out (`gap`, with the lines it hides in `hidden`).
 */
export interface SourceLine {
  /** 0-based line of the item's file. */
  line: number;
  written?: 'doc' | 'header' | 'gap';
  hidden?: HiddenLines;
}

/** The source lines a gap marker stands for (0-based, inclusive). */
export interface HiddenLines {
  start: number;
  end: number;
  /** First lines of the declarations hidden whole (empty when the gap is part of one body). */
  members: number[];
  /** Every hidden declaration is an enum constant. */
  constants?: boolean;
  /** The hidden lines are the Javadoc comment of the declaration that follows (marked `/** … *\/`). */
  javadoc?: boolean;
  /**
   * The hidden lines are the rest of a body the line before them opens (it ends with `{`), through
   * its closing brace: such a gap is folded onto that line as ` … }` when the line is shown.
   */
  body?: boolean;
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
  /** The code already written references it: it is needed for certain (weight 1), not estimated. */
  written?: boolean;
  /** The routes that reached it (gate/surface.ts ROUTE_NAMES), strongest first: the structured form of `reason`. */
  routes?: string[];
}

/**
 * What the gate judged, told apart from the text at the cursor: a body still to write (empty, or
 * a stub such as `// TODO` or `throw new UnsupportedOperationException()`), a body being written
 * (the cursor at the end of what is written), a complete body (a lens, hover or diagnostic on a
 * method, or an edit inside one), or no method at all.
 */
export type Scenario = 'new-body' | 'partial-body' | 'existing-body' | 'outside-method';

/** The structured evidence the calibrated confidence is computed from (one record per request). */
export interface GateFeatures {
  scenario: Scenario;
  /** False when no verdict could be formed (outside a method, a method that does not parse). */
  judged: boolean;
  /** RCL §4's compounding: Π (1 − p × ν) over the uncovered estimated surface (what is not written yet). */
  compound: number;
  /**
   * The same compounding over what is certainly needed and missing: written references the context
   * does not show (1 − ν each, ν ≥ NOVELTY_FLOOR) and names that resolve to nothing (0). It
   * multiplies the calibrated probability of the estimated part.
   */
  writtenFactor?: number;
  /** Σ p over the uncovered estimated entries (the expected number of missing needed symbols). */
  uncoveredMass: number;
  /** Written references whose declaration the context does not show. */
  uncoveredWritten: number;
  /** Internal references already written (resolved by the index). */
  writtenRefs: number;
  /** Non-blank lines of code written in the body. */
  writtenLines: number;
  /** Names in the written body the index could not resolve. */
  unresolvedNames: number;
  surfaceSize: number;
  /** Tokens of the context ÷ the budget. */
  budgetShare: number;
  // Structural evidence beside the compounding (gate/sufficiency.ts; optional: records written
  // before they existed lack them and count as 0).
  /** Σ p over every estimated (not written) entry, covered or not. */
  estimatedMass?: number;
  /** The largest p among the uncovered estimated entries (0 when none). */
  maxUncoveredP?: number;
  /** Share of the TOP_K most probable estimated entries the context covers (1 when there are none). */
  topCoverage?: number;
  /** Uncovered estimated entries at least LIKELY_P likely to be needed. */
  likelyUncovered?: number;
  /** Internal types the target's signature (parameters, return, throws) names. */
  signatureTypes?: number;
  /** Of those, the ones the context does not show. */
  signatureTypesUnshown?: number;
  /** Words of the target's Javadoc (0 without one). */
  javadocWords?: number;
  /** Parameters of the target. */
  params?: number;
  /** Members (methods, constructors, fields) of the target's enclosing type. */
  ownerMembers?: number;
  /** Items of the context, the cursor's own excluded. */
  items?: number;
  /** Share of those items that more than one recall source proposed (recall-source agreement). */
  agreement?: number;
  /** Score of the weakest shown item ÷ the strongest (the rank-score margin at the cut). */
  scoreMargin?: number;
  // Retrieval's own evidence (RetrievalEvidence): the candidates packing weighed with the member
  // model's P(needed), against the final items (after follow-up). Written references are left to
  // writtenFactor, and the cursor's own method is not a candidate.
  /** Σ log(1 − p) over the weighed candidates the context does not show: log P(none of them is needed). */
  leftOutLogP?: number;
  /** Σ p over those candidates (the expected number of needed declarations left out). */
  leftOutMass?: number;
  /** The largest p among them (0 when none). */
  leftOutMaxP?: number;
  /** Σ p over the weighed candidates the context shows (how much the body is expected to need). */
  shownMass?: number;
  /** Blocks still open at the cursor in the written part of the body (0 for an empty body). */
  openBlocks?: number;
  /** Internal types the written part uses (directly or through a member) of which the context shows no member. */
  writtenTypesBare?: number;
  // How much the hidden body will need, from its declaration (gate/bodyNeeds.ts): the same in
  // every code style, unlike the surface's route strengths.
  /** 1 when the method returns nothing (void, or a constructor). */
  returnsVoid?: number;
  /** 1 when it returns a workspace type. */
  returnsWorkspaceType?: number;
  /** 1 when it returns a workspace type other than its own class of which the context shows no member. */
  returnTypeBare?: number;
  /** 1 when it overrides or implements a contract (an @Override, or an overridden method on the surface). */
  implementsContract?: number;
  /** Surface entries reached through the method's kin (overloads, the overridden or overriding implementations, the same method of a sibling subclass). */
  kinUses?: number;
  /** Of those, the ones the context does not show. */
  kinUsesUnshown?: number;
  /** Surface entries its Javadoc names ({@link}, @throws, @see, code words) that the context does not show. */
  javadocUnshown?: number;
  /** Workspace types among its declared parameter types of which the context shows no member. */
  paramTypesBare?: number;
  // What the written half of a partial body has set up and not yet used (gate/writtenHalf.ts; 0 with nothing written).
  /** Locals the written part declares and does not read again. */
  unusedLocals?: number;
  /** Workspace types of those locals (not the own class) of which the context shows no member. */
  unusedLocalTypesBare?: number;
  /** Parameters the written part does not use yet. */
  unusedParams?: number;
  /** Workspace types of those parameters (not the own class) of which the context shows no member. */
  unusedParamTypesBare?: number;
  /** Workspace types (not the own class) of the unused locals and parameters, shown or not. */
  unusedTypes?: number;
  /** Median distinct declarations the other methods and constructors of the owner reference (gate/bodySize.ts). */
  ownerBodyRefs?: number;
  /** Median distinct declarations the target's same-name methods elsewhere reference; the owner's median when there are none. */
  namesakeBodyRefs?: number;
  /** Mean distinct declarations the methods just before and after the target in its class reference; the owner's median when it has none. */
  neighbourBodyRefs?: number;
  /** Distinct workspace members that reference the target. */
  callers?: number;
  /** 1 when the target declares a throws clause. */
  declaresThrows?: number;
  /** 1 when the target is private. */
  isPrivate?: number;
  /** 1 when the target is static. */
  isStatic?: number;
  /** Fields of the target's enclosing type. */
  ownerFields?: number;
  /** The body size model's expected count of distinct declarations the whole body references (gate/bodySize.ts). */
  predictedBodyRefs?: number;
  /** Of the declarations the methods just before and after the target reference, the mean count no item shows. */
  neighbourRefsUnshown?: number;
  /** The same over the owner's other methods and constructors, their median. */
  ownerRefsUnshown?: number;
  /** Workspace types (not the own class) the written part uses: referenced, or owning a member it references. */
  writtenTypes?: number;
  /** Written references to the own class or its members. */
  writtenOwnRefs?: number;
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
  /** What the gate judged (rcl mode). */
  scenario?: Scenario;
  /** Why the text at the cursor was judged that scenario. */
  scenarioReason?: string;
  /** The evidence behind `confidence` (rcl mode). */
  gateFeatures?: GateFeatures;
  /** With `explain`: every candidate packing weighed, with the member model's P(needed) (benches' diagnosis). */
  weighedCandidates?: { symbol: string; p: number }[];
  /** The organisation index's part (setting `needle.orgIndex`), apart from `items`. */
  org?: OrgContext;
}

/** Something another repository of the organisation holds: a declaration, a usage site or a chunk. */
export interface OrgContextItem {
  kind: 'declaration' | 'usage' | 'chunk';
  repository: string;
  commit: string | null;
  golden: boolean;
  /** Relative to the repository's root. */
  path: string;
  /** 0-based, inclusive. */
  line: number;
  endLine: number;
  symbol?: string;
  text: string;
  tokens: number;
  untrusted: true;
  flags?: string[];
}

export interface OrgContext {
  items: OrgContextItem[];
  /** Repositories the prefilter chose for chunk search, best first. */
  repositories: string[];
  tokens: number;
  ms: number;
  /** Set when the org source was not used: why (timeout, unreachable, schema). */
  skipped?: string;
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
  /** The workspace's dependency jars (Maven, Gradle classpath file, .classpath, lib/, needle.dependencies). */
  dependencies?: DependencyStatus[];
  /** Per workspace folder, when `needle.orgIndex` is set: the types loaded from other repositories of the organisation index. */
  org?: OrgLoadStatus[];
}

/** One folder's load of types from the organisation index (read-only library code named `org <repository>@<commit>`). */
export interface OrgLoadStatus {
  /** Files (top-level types) loaded. */
  types: number;
  /** Repositories they came from, sorted. */
  repositories: string[];
  ms: number;
  /** Set when the org index could not be read (timeout, unreachable, schema): why; indexing went on without it. */
  skipped?: string;
}

export interface DependencyStatus {
  /** group:artifact:version when known, else the jar's path. */
  name: string;
  /** Where it came from: maven, mvn, gradle, eclipse, lib, setting. */
  source: string;
  /** The file (or setting) that declared it. */
  declaredIn: string;
  scope?: string;
  /** For a transitive dependency, the artifacts that brought it, nearest first. */
  via?: string[];
  jar?: string;
  /** A module of the Maven reactor inside the workspace folder (its folder): workspace code, no jar read. */
  module?: string;
  sourcesFound: boolean;
  /** Internal dependencies enter the dependency surface; public ones only when the method needs them. */
  internal: boolean;
  /** Types read from it (only what the workspace reaches is read). */
  typesLoaded: number;
  /** Why it is not read: the coordinates looked for, test scope, a corrupt jar, … */
  problem?: string;
}

// ---- needle/checkCode: proposed code checked against the workspace ----

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
