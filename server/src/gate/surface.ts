// The estimated dependency surface D̂(q) of the cursor's method (RCL §3-4): the internal symbols a
// correct body will most likely exercise, each with a weight in (0,1] and the reason it is there.
// Everything is static: resolved edges of the (partial) body, the signature, the Javadoc, the
// enclosing class, its supertypes and its imports. D̂(q) only approximates D(q) (RCL §9):
// reflection, injection and calls the body has not been written yet cannot be seen, so the
// weights say how likely each entry is to be needed, calibrated against the benchmark's truth
// (for a method whose body was emptied, gold = the internal symbols the original body used).
// Calibration sample (157 jsoup methods, bodies emptied, gold = non-signature edges of the original
// body): precision per route - Javadoc names 0.16-0.19, signature types 0.19, fields of the class
// 0.13, sibling use 0.14, overridden contract 0.12, parameter-type members 0.10, return factories
// 0.09, private helpers 0.07, imported types 0.05, field-type members 0.03, inherited 0.02,
// abstract contracts 0.01; members of other types in the same file ~0 (not a route). Symbols of
// public jars enter only by the routes that say the method needs them (PUBLIC_NEED_ROUTES). Weights keep
// that order. Routes added since, and the current figures, are measured by `npm run fit:surface`
// (see the calibration table below): the candidates recall 87 % of the gold on the validation split.

import type { SurfaceEntry } from '../../../shared/protocol';
import type { SymbolFact } from '../java/facts';
import fittedRoutes from '../../data/surface-routes.json';
import { parseTypeText, qualifiedTypeIn, typeNameResolver, type Edge, type TypeNameResolver } from '../java/resolve';
import { isTypeKind, type TypeInfo } from '../java/symbols';
import type { SymbolRef, WorkspaceIndex } from '../index/workspaceIndex';
import type { Target } from '../retrieval/request';
import { splitIdentifier } from '../text/identifiers';
import { BoundedMemo } from '../text/boundedMemo';
import { declarationsByName, directSubtypesOf, perIndexVersion, usageCounts, usersOf } from '../retrieval/symbols';
import { STOP } from '../retrieval/query';
import { noveltyOf, type NoveltyInput } from './novelty';
import { uriOf } from '../retrieval/items';

// ---- Weights ---------------------------------------------------------------------------------
// A symbol reached by several routes combines them as a noisy-or, 1 - Π(1 - w): independent hints
// reinforce each other but never exceed 1. The reason shown is the strongest route.

/** The partial body already references it: certainly exercised. */
export const W_BODY_REF = 1.0;
/** An internal type written in the signature (parameter, return, throws): the body handles it. */
export const W_SIGNATURE_TYPE = 0.9;
/** Named by the Javadoc with {@link}/@see or `Foo.bar()`: the author said the body uses it. */
export const W_JAVADOC_LINK = 0.85;
/** A member name in the current body text (when the index lags behind the editor). */
export const W_BODY_TEXT_NAME = 0.7;
/** A plain identifier of the Javadoc that names a member of a type in reach. */
export const W_JAVADOC_NAME = 0.5;
/** The supertype method this method overrides: its contract (and Javadoc) binds the body. */
export const W_OVERRIDDEN = 0.6;
/** Members of parameter types: an emptied body mostly reads its arguments (before spreading). */
export const W_PARAM_MEMBER = 0.6;
/** Fields of the enclosing class: state the method usually reads or writes (before spreading). */
export const W_OWN_FIELD = 0.55;
/** Private helpers of the enclosing class exist to be called by its methods (before spreading). */
export const W_OWN_HELPER = 0.45;
/** Other methods of the enclosing class (before spreading). */
export const W_OWN_METHOD = 0.25;
/** Members of the types of the class's fields (collaborators: store.save(..)), before spreading. */
export const W_FIELD_TYPE_MEMBER = 0.3;
/** Constructors and factories of an internal return type: the body has to produce one. */
export const W_RETURN_FACTORY = 0.5;
/**
 * Abstract methods of supertypes (template hooks) and other interface contract methods. Rarely
 * called from a sibling's body (0.7 % on the jsoup emptied-body sample), so light.
 */
export const W_SUPER_ABSTRACT = 0.1;
/** Internal types imported by the enclosing file (the class's vocabulary); 6 % precision on jsoup. */
export const W_IMPORTED_TYPE = 0.2;
/**
 * Internal symbols the sibling members of the class use (house conventions): weight
 * W_SIBLING_USE × sqrt(share of siblings using it), so a helper every method calls is heavy.
 */
export const W_SIBLING_USE = 0.6;
/** Non-private members the enclosing class inherits from internal supertypes (before spreading; 2 % precision on jsoup). */
export const W_INHERITED = 0.1;
/** Another overload of the method in the same class: overloads usually delegate to one another. */
export const W_OVERLOAD = 0.5;
/**
 * What the kin of the method (overloads, the overridden implementation, overriding implementations
 * in subclasses) reference, divided by sqrt(number of kin).
 */
export const W_KIN_USE = 0.6;
/** isFoo/getFoo/setFoo/hasFoo and a field foo in the class or its supertypes. */
export const W_ACCESSOR_FIELD = 0.6;
/** A same-name method of a type in reach whose parameters contain all of the target's parameter types (× share², partial matches less). */
export const W_DELEGATE = 0.8;
/** What a like-named sibling uses: × the Jaccard similarity of the two names' word parts (≥ MIN_ALIKE). */
export const W_ALIKE_USE = 0.6;
export const MIN_ALIKE = 0.3;
/** A same-name method of an unrelated type, and what it uses: ÷ sqrt(number of such methods), at most MAX_NAMESAKES read. */
export const W_NAMESAKE = 0.5;
export const W_NAMESAKE_USE = 0.5;
export const MAX_NAMESAKES = 16;
/** The most used members (workspace-wide) of a type the class works with: × sqrt(uses / uses of its most used member), top MAX_COLLABORATOR_API per type. */
export const W_COLLABORATOR_API = 0.5;
export const MAX_COLLABORATOR_API = 6;
/**
 * What a cousin uses: the same-name, same-arity method of another direct subtype of the enclosing
 * class's direct supertypes (VerifyJar#execute beside SignJar#execute, both AbstractJarSignerTask's)
 * does the same job with the shared base's members; ÷ sqrt(number of cousins), at most MAX_KIN read.
 * On validation (new bodies) 4 % of the gold no route reached were members the class inherits, out
 * of reach because `inherited` spreads over every inherited member.
 */
export const W_COUSIN_USE = 0.6;
/**
 * A member of a type in reach (supertypes, signature and field types, types already on the
 * surface) whose name's word parts are words of the method's intent (its name, parameter names and
 * Javadoc): × the share of the member's word parts that match (≥ MIN_NAMED_SHARE). Uniform
 * spreading over a type's members (param-member, fieldtype-member, inherited) puts a large type's
 * members below MIN_WEIGHT; on validation 8-11 % of the gold were members of a type the surface
 * already held, reached by no route. At most MAX_NAMED_TYPES types are read.
 */
export const W_NAMED_MEMBER = 0.5;
export const MIN_NAMED_SHARE = 0.5;
export const MAX_NAMED_TYPES = 24;
/**
 * Routes through what a partial body has written (they fire only on references inside the body,
 * after its brace: SurfaceOptions.bodyStart; an emptied body has none, so their new-body rows are
 * fitted on nothing and the fit leaves them out):
 * - callee-use: what the bodies of the written calls use (the continuation often works with the
 *   same helpers one level down), ÷ sqrt(number of callees), at most MAX_KIN callees read;
 * - written-type-member: members of the types the written half works with (types it names,
 *   owners of the members it uses, declared types of the fields it reads and return types of the
 *   methods it calls), spread like param-member, at most MAX_NAMED_TYPES types;
 * - co-use: what the other users of a written reference also use, × the share of those users
 *   (smoothed: uses / (users + 1)), for references with 2..MAX_CO_USERS users.
 */
/**
 * What the class's supertypes offer, as their other subclasses use it: a member of an internal
 * supertype weighted by the share of the supertypes' other direct subtypes whose members reference
 * it (k / (n + 1)), at most MAX_SUBTYPES subtypes read. On validation (new bodies) members of a
 * supertype were 31 of the 229 gold the bounded surface missed, 24 of them never candidates:
 * `inherited` spreads 0.1 over every inherited member, below MIN_WEIGHT for a large base class.
 */
export const W_SUPER_MEMBER_USE = 0.6;
export const W_CALLEE_USE = 0.6;
export const W_WRITTEN_TYPE_MEMBER = 0.6;
export const W_CO_USE = 0.6;
export const MAX_CO_USERS = 48;
/** Word parts too common in member names to say what a member does (accessor and builder verbs). */
const WEAK_NAME_WORDS = new Set(['get', 'set', 'is', 'has', 'to', 'with', 'add', 'new', 'create', 'of', 'value', 'values', 'code', 'link', 'see', 'since']);
/** At most this many kin methods and subtypes are read (bounded work on wide hierarchies). */
export const MAX_KIN = 24;
export const MAX_SUBTYPES = 32;
/**
 * Candidate groups with many members spread their weight: a type with n candidate members gives
 * each weight·min(1, sqrt(SPREAD_BASE / n)), since the body uses a few of them, not all.
 */
export const SPREAD_BASE = 4;
/**
 * The estimate is bounded (what the body has written is kept whole besides): the heaviest estimated entries, ties by id. On validation (200 new bodies, 5
 * corpora) the candidates reached 85 % of the gold but the 60 heaviest only 73 %; the 100 heaviest
 * reach 79 %. Entries past the 60th are light (they add little mass and are rarely fetched), but
 * they count when coverage and novelty are judged.
 */
export const MAX_SURFACE = 100;
/** Entries lighter than this are noise and dropped. */
export const MIN_WEIGHT = 0.05;

// ---- Calibration: from route strengths to the probability that the body needs the symbol ----
// The weights above say how strongly each route points at a symbol; they are not probabilities
// (entries weighted ≥ 0.5 were gold only ~18 % of the time). Each entry's weight is therefore
// replaced by a calibrated probability: a logistic model over the strongest weight per route,
//   p = σ(bias + Σ_route (slope_r · w_r + offset_r))   (routes absent contribute 0),
// one table per scenario with an estimate (new body, partial body), then scaled per method
// (normalizedMass below). Fitted offline on the validation split of the retrieval benchmark only
// (bench/surface-fit.bench.ts: IRLS, L2 = 1, fitted as used: 3 rounds with each method's scale as a
// fixed offset; gold = the internal symbols the original body referenced (new) or first used after
// the cut (partial: what is written is certain and left out of the fit); test tasks never used) by
// `npm run fit:surface -- --write`, which writes both tables to server/data/surface-routes.json with
// the command that made them and prints each route's precision in its sample. Fixed tables, not a
// model at run time: deterministic, no I/O.
/** Every route of the surface, in table order: each hint carries its route as data, never recovered from its reason text. */
export const ROUTE_NAMES = [
  'body-ref', 'body-text', 'signature-type', 'javadoc-link', 'javadoc-name', 'overridden', 'param-member', 'own-field', 'own-helper',
  'own-method', 'fieldtype-member', 'return-factory', 'super-abstract', 'imported-type', 'static-import', 'sibling-use', 'inherited',
  'overload', 'kin-overload-use', 'kin-super-use', 'kin-sub-use', 'accessor-field', 'delegate', 'alike-use', 'namesake', 'namesake-use',
  'collaborator-api', 'cousin-use', 'named-member', 'callee-use', 'written-type-member', 'co-use', 'super-member-use',
] as const;
export type Route = (typeof ROUTE_NAMES)[number];

/**
 * The scenarios with an estimate, each with its own fitted table: the same route means something
 * else beside a written half (a sibling's habit is weaker evidence once the body has shown what it
 * does; what the written calls lead to is evidence only there). An existing body estimates nothing.
 */
const ROUTE_SCENARIOS = ['new-body', 'partial-body'] as const;
export type RouteScenario = (typeof ROUTE_SCENARIOS)[number];

/** The fitted part of one scenario's route table, checked against the routes this code has. */
function fittedTable(scenario: RouteScenario): { bias: number; logit: Record<string, readonly [number, number]> } {
  const t = (fittedRoutes.scenarios as Record<string, { bias: number; logit: Record<string, number[]> } | undefined>)[scenario];
  if (!t) throw new Error(`server/data/surface-routes.json has no table for ${scenario}: regenerate it with \`npm run fit:surface -- --write\``);
  const known = new Set<string>(ROUTE_NAMES);
  const unknown = Object.keys(t.logit).filter((k) => !known.has(k));
  if (unknown.length) throw new Error(`server/data/surface-routes.json has routes this code lacks (${unknown.join(', ')}): regenerate it with \`npm run fit:surface -- --write\``);
  return { bias: t.bias, logit: Object.fromEntries(Object.entries(t.logit).map(([k, v]) => [k, [v[0], v[1]] as const])) };
}

/**
 * Written evidence is not fitted: a reference is certain (p = 1 whatever the table says), a name
 * in the body text the index has not linked is as strong as the strongest fitted route. In the
 * partial-body sample neither can be gold (gold = what is first used after the cut), so the
 * sample cannot say how likely they are; the fit leaves their rows out.
 */
export const EVIDENCE_ROUTE_LOGIT: Readonly<Record<'body-ref' | 'body-text', readonly [slope: number, offset: number]>> = {
  'body-ref': [0, 12], 'body-text': [1.6, 0.9],
};
/** The route table in force per scenario (server/data/surface-routes.json plus the evidence routes). */
function tableInForce(scenario: RouteScenario): RouteTable {
  const t = fittedTable(scenario);
  return { bias: t.bias, logit: { ...t.logit, ...EVIDENCE_ROUTE_LOGIT } };
}
export const ROUTE_TABLES: Readonly<Record<RouteScenario, RouteTable>> = { 'new-body': tableInForce('new-body'), 'partial-body': tableInForce('partial-body') };
/** The new-body table's bias and routes (the scenario without any written evidence). */
export const ROUTE_BIAS: number = ROUTE_TABLES['new-body'].bias;
export const ROUTE_LOGIT: Readonly<Record<string, readonly [slope: number, offset: number]>> = ROUTE_TABLES['new-body'].logit;

/**
 * The routes that say the method itself needs a symbol: written in its body, a type of its
 * signature, named or linked in its Javadoc. Only these admit a symbol of a public jar (Maven
 * Central's commons-lang3, Guava): models know such APIs, so the wider guesses (the class's
 * imports, collaborators, siblings' uses) leave them out. Internal ones come by every route.
 */
const PUBLIC_NEED_ROUTES: ReadonlySet<Route> = new Set<Route>(['body-ref', 'body-text', 'signature-type', 'javadoc-link', 'javadoc-name']);
const KIN_ROUTE: Record<'overload' | 'super' | 'sub', Route> = { overload: 'kin-overload-use', super: 'kin-super-use', sub: 'kin-sub-use' };

/** A logistic table over routes: p = σ(bias + Σ_route (slope · strongest weight + offset)). */
export interface RouteTable { bias: number; logit: Readonly<Record<string, readonly [slope: number, offset: number]>> }

/** The strongest raw weight per route of an entry's hints. */
export function routeWeights(reasons: RouteHint[]): Map<string, number> {
  const best = new Map<string, number>();
  for (const r of reasons) best.set(r.route, Math.max(best.get(r.route) ?? 0, r.w));
  return best;
}

/** Probability under a route table (routes the table does not know contribute nothing). */
export function routeProbability(table: RouteTable, reasons: RouteHint[]): number {
  let z = table.bias;
  for (const [k, w] of routeWeights(reasons)) { const c = table.logit[k]; if (c) z += c[0] * w + c[1]; }
  return 1 / (1 + Math.exp(-z));
}

/** Calibrated probability that an entry reached by these routes (reason, raw weight) is needed, under the scenario's table. */
export function calibratedProbability(reasons: RouteHint[], scenario: RouteScenario = 'new-body'): number {
  return routeProbability(ROUTE_TABLES[scenario], reasons);
}

// ---- Per-method mass: the surface is one method's, and a method needs a few symbols -----------
// The table gives each candidate a marginal probability, but the candidates of one method are not
// independent: a method in a large class collects many routes (siblings, fields, helpers) without
// needing more symbols. On the validation split the sum of p over a method's candidates did not
// predict its number of gold symbols at all (AUROC 0.50 for "fully retrieved"), and that noise
// drowned the confidence product. So the estimated entries of a surface are scaled to a fixed
// expected count of needed symbols, SURFACE_MASS (the mean number of gold symbols per method on
// the candidate list, validation split: 3.98), by at most MAX_MASS_SCALE up. Entries the partial
// body already names are evidence, not estimates: they are neither scaled nor counted, and with
// any of them the estimates are only scaled down (the sample has emptied bodies only, so nothing
// says how much a partly written body still needs).
// Validation (bench/surface-fit, 160 tasks, 5-fold out of fold, table fitted under the scaling,
// raw -> scaled): candidate log-loss 0.091 -> 0.088, AUROC(p) 0.85 -> 0.88, AUROC of the
// confidence without follow-up rounds 0.59 -> 0.70. With the follow-up rounds the gate's AUROC on
// the same tasks stays ~0.54 (see the report of bench/surface-fit).
export const SURFACE_MASS = 4;
export const MAX_MASS_SCALE = 3;
/** No estimated entry is certain. */
export const MAX_ESTIMATED_P = 0.99;
const PARTIAL_BODY_ROUTES = new Set<Route>(['body-ref', 'body-text']);

/** The probabilities of one surface's candidates scaled to SURFACE_MASS (entries marked `evidence` kept as they are). */
export function normalizedMass(ps: number[], evidence: boolean[]): number[] {
  let sum = 0;
  ps.forEach((p, i) => { if (!evidence[i]) sum += p; });
  const scale = massScale(sum, evidence.includes(true));
  return ps.map((p, i) => (evidence[i] ? p : Math.min(MAX_ESTIMATED_P, p * scale)));
}

/** The factor a surface's estimated entries are scaled by, from their sum of p and whether the body holds written evidence (the fit uses it too). */
export function massScale(estimatedSum: number, withEvidence: boolean): number {
  return estimatedSum > 0 ? Math.min(withEvidence ? 1 : MAX_MASS_SCALE, SURFACE_MASS / estimatedSum) : 1;
}

/**
 * The bounded surface, from entries ranked heaviest first: every written entry (certain, not an
 * estimate, so never crowded out) plus the `max` heaviest estimated ones.
 */
export function boundSurface<T>(ranked: T[], written: (entry: T) => boolean, max: number): T[] {
  let estimated = 0;
  return ranked.filter((e) => written(e) || estimated++ < max);
}

/** How strongly one route points at a symbol: its raw weight, the route, and the reason shown. */
export interface RouteHint { w: number; route: Route; reason: string }

export interface SurfaceOptions {
  max?: number;
  orgPrefixes?: string[];
  /** Probability of an entry from its route hints (default calibratedProbability under `scenario`'s table; the fitting tool passes refits). */
  probability?: (reasons: RouteHint[]) => number;
  /** Whose route table prices the entries: the gate's judged scenario (default: partial-body when the body holds written evidence, else new-body). */
  scenario?: RouteScenario;
  /**
   * Only what the written body references (a complete method: nothing is left to estimate). The
   * size bound does not apply: every written reference is needed.
   */
  writtenOnly?: boolean;
  /**
   * Where the body brace is (0-based; sufficiency.ts bodyOf). With it, the method's references
   * before the brace (annotations and their arguments, the outer type of a qualified signature
   * type) are the declaration's, not the body's: they enter as declaration types, never as written
   * evidence, and the written-half routes do not start from them. Without it every reference of
   * the method counts as written.
   */
  bodyStart?: { line: number; character: number };
}

interface Cand { weight: number; reasons: RouteHint[] }

/** Every candidate of the surface with its route hints, before calibration and the size bound (bench/surface-fit). */
export interface SurfaceCandidate { symbol: string; reasons: RouteHint[] }

/** Simple display name: `Guard#requireText`, `Order`, `Order#<init>` -> `Order#Order`. */
export function shortName(id: string): string {
  const [typePart, member] = id.split('#');
  const typeName = typePart.split(/[.$]/).pop() ?? typePart;
  if (member === undefined) return typeName;
  const m = member.replace(/\(.*$/, '');
  return `${typeName}#${m === '<init>' ? typeName : m}`;
}

/** The identifier written at the symbol's declaration. */
export function declaredName(id: string): string {
  const s = shortName(id);
  return s.includes('#') ? s.slice(s.indexOf('#') + 1) : s;
}

export function dependencySurface(index: WorkspaceIndex, target: Target | SymbolRef | undefined, bodyText?: string, options: SurfaceOptions = {}): SurfaceEntry[] {
  const ref = target ? ('ref' in target ? target.ref : target) : undefined;
  if (!ref) return [];
  const b = new Builder(index, ref);
  b.collect(bodyText, options.writtenOnly, options.bodyStart);
  return b.entries(options);
}

export function surfaceCandidates(index: WorkspaceIndex, target: Target | SymbolRef | undefined, bodyText?: string, bodyStart?: SurfaceOptions['bodyStart']): SurfaceCandidate[] {
  const ref = target ? ('ref' in target ? target.ref : target) : undefined;
  if (!ref) return [];
  const b = new Builder(index, ref);
  b.collect(bodyText, false, bodyStart);
  return b.candidates();
}

export function surfaceIds(surface: SurfaceEntry[]): string[] {
  return surface.map((e) => e.symbol);
}

class Builder {
  private cands = new Map<string, Cand>();
  private sym: SymbolFact;
  private ownerType?: TypeInfo;
  private exclude = new Set<string>();

  constructor(private index: WorkspaceIndex, private ref: SymbolRef) {
    this.sym = ref.sym;
    const facts = ref.file.facts;
    let i = isTypeKind(ref.sym.kind) ? ref.index : ref.sym.parent;
    while (i >= 0 && !isTypeKind(facts.symbols[i].kind)) i = facts.symbols[i].parent;
    if (i >= 0) this.ownerType = index.table.type(facts.symbols[i].id);
    this.exclude.add(ref.sym.id);
    if (this.ownerType) this.exclude.add(this.ownerType.id);
  }

  private add(id: string, w: number, route: Route, reason: string): void {
    if (this.exclude.has(id) || w < MIN_WEIGHT || !this.index.symbol(id)) return;
    if (!PUBLIC_NEED_ROUTES.has(route) && this.index.isPublicLibrary(id)) return;
    const c = this.cands.get(id);
    if (!c) { this.cands.set(id, { weight: w, reasons: [{ w, route, reason }] }); return; }
    c.weight = 1 - (1 - c.weight) * (1 - w);
    c.reasons.push({ w, route, reason });
  }

  collect(bodyText?: string, writtenOnly = false, bodyStart?: SurfaceOptions['bodyStart']): void {
    const { sym } = this;
    const isType = isTypeKind(sym.kind);
    const sigTypes = this.signatureTypes();
    const sigIds = new Set(sigTypes.map((t) => t.id));

    // 1. What the partial body already references; signature types are counted below. References
    // of the declaration before the body brace (annotations, the outer type of `Outer.Inner`) are
    // not written code of the body: declaration types, and no written-half route starts there.
    // edgesWithin: references inside an anonymous or local class of the body are the body's too.
    const own = this.index.edgesWithin(sym.id).filter((e) => !(e.kind === 'type' && sigIds.has(e.to)));
    const inBody = (e: Edge) => !bodyStart || e.line > bodyStart.line || (e.line === bodyStart.line && e.col > bodyStart.character);
    const written = writtenOnly ? own : own.filter(inBody);
    for (const e of written) this.add(e.to, W_BODY_REF, 'body-ref', e.kind === 'type' ? 'type used in body' : 'referenced in body');
    if (writtenOnly) return;
    for (const e of own) if (!inBody(e)) this.add(e.to, W_SIGNATURE_TYPE, 'signature-type', 'named in the declaration');
    // 1b. Where the written half leads: its callees' uses, the types it works with, what its references' other users use.
    if (written.length) this.fromWritten(written);
    // 2. Internal types of the signature.
    for (const t of sigTypes) this.add(t.id, W_SIGNATURE_TYPE, 'signature-type', 'type in signature');

    // 3. Members of parameter types.
    for (const p of sym.params ?? []) for (const t of this.typesOf(p.type)) this.members(t, W_PARAM_MEMBER, 'param-member', `member of parameter type ${t.name}`, false);

    // 4. The overridden method, abstract contracts of the supertypes.
    const supers = this.ownerType ? this.supertypes(this.ownerType) : [];
    if (!isType) {
      for (const st of supers) for (const i of st.members.get(sym.name) ?? []) {
        const m = st.facts.symbols[i];
        if ((m.params?.length ?? 0) === (sym.params?.length ?? 0)) this.add(m.id, W_OVERRIDDEN, 'overridden', `overridden contract in ${st.name}`);
      }
    }
    for (const st of supers) for (const [, idxs] of st.members) for (const i of idxs) {
      const m = st.facts.symbols[i];
      if (m.kind !== 'method' || m.name === sym.name) continue;
      // Implemented by the enclosing class itself: its own declaration is the one that matters.
      const own = this.ownerType?.members.get(m.name)?.some((j) => (this.ownerType!.facts.symbols[j].params?.length ?? 0) === (m.params?.length ?? 0));
      if (own) continue;
      const abstract = m.modifiers.includes('abstract') || (st.sym.kind === 'interface' && !m.modifiers.includes('default') && !m.modifiers.includes('static'));
      if (abstract) this.add(m.id, W_SUPER_ABSTRACT, 'super-abstract', `abstract member of supertype ${st.name}`);
    }

    // 4b. Kin: same-name methods - overloads in the class, the super implementation it overrides,
    // overriding implementations in subclasses. Overloads usually delegate to each other and
    // overrides do the same job, so what their bodies reference is the strongest static hint.
    const kin = !isType && this.ownerType ? this.kinMethods(this.ownerType, supers) : [];
    if (kin.length) {
      const share = 1 / Math.sqrt(Math.max(1, kin.length));
      for (const k of kin) {
        if (k.relation === 'overload') this.add(k.sym.id, W_OVERLOAD, 'overload', 'overload in the enclosing class');
        for (const to of new Set(this.index.edgesFrom(k.sym.id).map((e) => e.to))) {
          this.add(to, W_KIN_USE * share, KIN_ROUTE[k.relation], k.relation === 'overload' ? 'used by an overload' : k.relation === 'super' ? 'used by the overridden implementation' : 'used by an overriding implementation');
        }
      }
    }
    // 4b'. Same-name delegation: a method `append(String, double)` of a class holding a `style`
    // usually forwards to `style.append(buffer, String, double)`. Same-name methods of the types
    // in reach (field, parameter and supertypes, and the types the kin call into) are weighted by
    // the share of the target's parameter types their own parameters contain.
    if (!isType && this.sym.kind === 'method' && this.ownerType) {
      const own = this.ownerType;
      const reachTypes = new Map<string, TypeInfo>();
      const addType = (t: TypeInfo | undefined) => { if (t && t.id !== own.id) reachTypes.set(t.id, t); };
      for (const p of sym.params ?? []) for (const t of this.typesOf(p.type)) addType(t);
      for (const [, idxs] of own.members) for (const i of idxs) {
        const f = own.facts.symbols[i];
        if (f.kind === 'field') for (const t of this.typesOf(f.type ?? '')) addType(t);
      }
      for (const st of supers) addType(st);
      for (const k of kin) for (const e of this.index.edgesFrom(k.sym.id)) {
        const r = this.index.symbol(e.to);
        if (r && r.sym.name === sym.name && r.sym.parent >= 0) addType(this.index.table.type(r.file.facts.symbols[r.sym.parent].id));
      }
      const mine = (sym.params ?? []).map((p) => normType(p.type));
      for (const t of [...reachTypes.values()].sort((a, b) => (a.id < b.id ? -1 : 1))) {
        for (const i of t.members.get(sym.name) ?? []) {
          const m = t.facts.symbols[i];
          if (m.kind !== 'method') continue;
          const theirs = (m.params ?? []).map((p) => normType(p.type));
          const left = [...theirs];
          let hit = 0;
          for (const x of mine) { const j = left.indexOf(x); if (j >= 0) { hit++; left.splice(j, 1); } }
          const share = mine.length ? hit / mine.length : theirs.length === 0 ? 1 : 0;
          if (share > 0) this.add(m.id, W_DELEGATE * share * share, 'delegate', `same-name method of ${t.name}`);
        }
      }
    }
    // 4c. Accessor naming: isFoo/getFoo/setFoo/hasFoo read or write the field foo.
    const acc = /^(?:is|get|set|has|with)([A-Z][\w$]*)$/.exec(sym.name);
    if (!isType && acc && this.ownerType) {
      const field = acc[1][0].toLowerCase() + acc[1].slice(1);
      for (const t of [this.ownerType, ...supers]) for (const i of t.members.get(field) ?? []) {
        const m = t.facts.symbols[i];
        if (m.kind === 'field') this.add(m.id, W_ACCESSOR_FIELD, 'accessor-field', 'field named by the accessor');
      }
    }

    // 5. Fields and helpers of the enclosing class; members of field types; what siblings use.
    if (this.ownerType) {
      const own = this.ownerType;
      const fields: SymbolFact[] = [], helpers: SymbolFact[] = [], methods: SymbolFact[] = [];
      for (const [, idxs] of own.members) for (const i of idxs) {
        const m = own.facts.symbols[i];
        if (m.id === sym.id) continue;
        if (m.kind === 'field' || m.kind === 'enumConstant') fields.push(m);
        else if (m.kind === 'method') (m.modifiers.includes('private') ? helpers : methods).push(m);
      }
      const staticCtx = sym.modifiers.includes('static');
      const fieldsUsable = staticCtx ? fields.filter((f) => f.modifiers.includes('static')) : fields;
      this.spread(fieldsUsable, W_OWN_FIELD, 'own-field', 'field of the enclosing class');
      this.spread(helpers, W_OWN_HELPER, 'own-helper', 'private helper of the enclosing class');
      this.spread(methods, W_OWN_METHOD, 'own-method', 'method of the enclosing class');
      for (const f of fieldsUsable) for (const t of this.typesOf(f.type ?? '')) {
        if (t.id !== own.id) this.members(t, W_FIELD_TYPE_MEMBER, 'fieldtype-member', `member of field type ${t.name} (${f.name})`, false);
      }
      // Sibling members' references: conventions of the class.
      // Like-named siblings do a similar job (chomp/chop, appendDetail/appendSummary): what they
      // use also weighs by how alike the names are (shared word parts), not only by how many use it.
      const siblingUse = new Map<string, number>();
      const alikeUse = new Map<string, number>();
      const mine = nameWords(sym);
      let siblings = 0;
      for (const [, idxs] of own.members) for (const i of idxs) {
        const m = own.facts.symbols[i];
        if (m.id === sym.id || m.kind === 'field' || m.kind === 'enumConstant') continue;
        siblings++;
        const sim = m.kind === 'method' || m.kind === 'constructor' ? jaccard(mine, nameWords(m)) : 0;
        for (const to of new Set(this.index.edgesFrom(m.id).map((e) => e.to))) {
          siblingUse.set(to, (siblingUse.get(to) ?? 0) + 1);
          if (sim >= MIN_ALIKE) alikeUse.set(to, Math.max(alikeUse.get(to) ?? 0, sim));
        }
      }
      for (const [id, n] of [...siblingUse.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
        this.add(id, W_SIBLING_USE * Math.sqrt(n / Math.max(1, siblings)), 'sibling-use', 'used by other members of the class');
      }
      for (const [id, sim] of [...alikeUse.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))) this.add(id, W_ALIKE_USE * sim, 'alike-use', 'used by a like-named member');
      // Inherited API of the class (this.foo() on a supertype member).
      const inherited: SymbolFact[] = [];
      const ownSigs = new Set([...own.members.values()].flat().map((i) => `${own.facts.symbols[i].name}/${own.facts.symbols[i].params?.length ?? -1}`));
      for (const st of supers) for (const [key, idxs] of st.members) for (const i of idxs) {
        const m = st.facts.symbols[i];
        if (key === '<init>' || m.modifiers.includes('private') || ownSigs.has(`${m.name}/${m.params?.length ?? -1}`)) continue;
        if (m.kind === 'method' && (m.modifiers.includes('abstract') || st.sym.kind === 'interface')) continue;
        inherited.push(m);
      }
      this.spread(inherited, W_INHERITED, 'inherited', 'inherited by the enclosing class');
    }

    // 6''. Collaborators' common API: the internal types the class already works with (referenced
    // by its other members, or imported) offer members the siblings happen not to call yet; the
    // ones the whole workspace calls most (Validate.notNull, StringUtils.isEmpty) are the likely ones.
    if (this.ownerType) this.collaboratorApi(this.ownerType);

    // 6'''. Cousins: the same method in the other subclasses of the class's direct supertypes.
    if (!isType && sym.kind === 'method' && this.ownerType) this.cousinUse(this.ownerType);
    // 6''''. The supertypes' API as their other subclasses use it.
    if (!isType && this.ownerType && supers.length) this.superMemberUse(this.ownerType, supers);

    // 6'. Namesakes elsewhere: same-name methods of unrelated types (isAsciiPrintable in
    // StringUtils and CharUtils) often are what the body delegates to, or do the same job with the
    // same helpers. Weighted down by how common the name is.
    if (!isType && sym.kind === 'method') {
      const kinIds = new Set(kin.map((k) => k.sym.id));
      const ownPrefix = `${this.ownerType?.id ?? ''}#`;
      const others = (declarationsByName(this.index).get(sym.name) ?? [])
        .filter((id) => id !== sym.id && !kinIds.has(id) && !id.startsWith(ownPrefix) && this.index.symbol(id)?.sym.kind === 'method');
      if (others.length) {
        const share = 1 / Math.sqrt(others.length);
        for (const id of others.slice(0, MAX_NAMESAKES)) {
          this.add(id, W_NAMESAKE * share, 'namesake', 'same-name method elsewhere');
          for (const to of new Set(this.index.edgesFrom(id).map((e) => e.to))) this.add(to, W_NAMESAKE_USE * share, 'namesake-use', 'used by a same-name method elsewhere');
        }
      }
    }

    // 6. Factories and constructors of an internal return type.
    if (sym.returnType) {
      for (const t of this.typesOf(sym.returnType)) {
        const facs: SymbolFact[] = [];
        for (const [, idxs] of t.members) for (const i of idxs) {
          const m = t.facts.symbols[i];
          const factory = m.kind === 'constructor' || (m.kind === 'method' && m.modifiers.includes('static') && this.typesOf(m.returnType ?? '').some((x) => x.id === t.id));
          const wither = m.kind === 'method' && !m.modifiers.includes('static') && /^(with|to|copy|builder|build)/.test(m.name) && this.typesOf(m.returnType ?? '').some((x) => x.id === t.id);
          if ((factory || wither) && !m.modifiers.includes('private')) facs.push(m);
        }
        this.spread(facs, W_RETURN_FACTORY, 'return-factory', `creates the return type ${t.name}`);
      }
    }

    // 7. Names the Javadoc (and the current body text) point at.
    if (sym.javadoc) this.fromText(sym.javadoc, true);
    if (bodyText) this.fromText(bodyText, false);

    // 8. Internal types imported by the file.
    for (const imp of this.ref.file.facts.imports) {
      if (imp.wildcard) continue;
      const name = imp.static ? imp.name.slice(0, imp.name.lastIndexOf('.')) : imp.name;
      const t = this.qualified(name);
      if (!t) continue;
      if (imp.static) {
        const member = imp.name.slice(imp.name.lastIndexOf('.') + 1);
        for (const i of t.members.get(member) ?? []) this.add(t.facts.symbols[i].id, W_IMPORTED_TYPE, 'static-import', `statically imported from ${t.name}`);
      } else this.add(t.id, W_IMPORTED_TYPE, 'imported-type', 'imported internal type');
    }

    // 9. Members of the types in reach whose names say what the method is about (last: the types
    // already on the surface are among those read).
    if (!isType) this.namedMembers(sigTypes, supers);
  }

  /** The method's intent words: word parts of its name, its parameters' names and its Javadoc's words (stop words out). */
  private intentWords(): Set<string> {
    const s = this.sym;
    const words = [...splitIdentifier(s.name), ...(s.params ?? []).flatMap((p) => splitIdentifier(p.name ?? '')), ...splitIdentifier(s.javadoc ?? '')];
    return new Set(words.filter((w) => w.length > 2 && !STOP.has(w) && !WEAK_NAME_WORDS.has(w)));
  }

  private namedMembers(sigTypes: TypeInfo[], supers: TypeInfo[]): void {
    const intent = this.intentWords();
    if (!intent.size) return;
    const types = new Map<string, TypeInfo>();
    const addType = (t: TypeInfo | undefined) => { if (t && !types.has(t.id) && types.size < MAX_NAMED_TYPES) types.set(t.id, t); };
    supers.forEach(addType);
    sigTypes.forEach(addType);
    if (this.ownerType) for (const [, idxs] of this.ownerType.members) for (const i of idxs) {
      const f = this.ownerType.facts.symbols[i];
      if (f.kind === 'field') this.typesOf(f.type ?? '').forEach(addType);
    }
    // Types on the surface already, heaviest first (ties by id).
    const onSurface = [...this.cands.entries()].filter(([id]) => !id.includes('#')).sort((a, b) => b[1].weight - a[1].weight || (a[0] < b[0] ? -1 : 1));
    for (const [id] of onSurface) addType(this.index.table.type(id));
    for (const t of types.values()) {
      if (t.id === this.ownerType?.id) continue;
      for (const [key, idxs] of t.members) for (const i of idxs) {
        const m = t.facts.symbols[i];
        if (key === '<init>' || isTypeKind(m.kind) || (m.modifiers.includes('private') && t.file !== this.ref.file.path)) continue;
        const parts = strongNameWords(m.name);
        if (!parts.length) continue;
        const share = parts.filter((w) => intent.has(w)).length / parts.length;
        if (share >= MIN_NAMED_SHARE) this.add(m.id, W_NAMED_MEMBER * share, 'named-member', `named like the method's intent, member of ${t.name}`);
      }
    }
  }

  private fromWritten(written: Edge[]): void {
    const refs = [...new Set(written.map((e) => e.to))].sort();
    const callees = refs.map((id) => this.index.symbol(id)).filter((r): r is SymbolRef => !!r && (r.sym.kind === 'method' || r.sym.kind === 'constructor')).slice(0, MAX_KIN);
    if (callees.length) {
      const share = 1 / Math.sqrt(callees.length);
      for (const c of callees) {
        for (const to of new Set(this.index.edgesFrom(c.sym.id).map((e) => e.to))) this.add(to, W_CALLEE_USE * share, 'callee-use', 'used by a method the body calls');
      }
    }
    const types = new Map<string, TypeInfo>();
    const addType = (t: TypeInfo | undefined) => { if (t && t.id !== this.ownerType?.id && !types.has(t.id) && types.size < MAX_NAMED_TYPES) types.set(t.id, t); };
    for (const id of refs) {
      const r = this.index.symbol(id);
      if (!r) continue;
      if (isTypeKind(r.sym.kind)) { addType(this.index.table.type(id)); continue; }
      const owner = id.indexOf('#') >= 0 ? this.index.table.type(id.slice(0, id.indexOf('#'))) : undefined;
      addType(owner);
      for (const t of this.typesIn(r, r.sym.kind === 'field' ? r.sym.type : r.sym.kind === 'method' ? r.sym.returnType : undefined)) addType(t);
    }
    for (const t of types.values()) this.members(t, W_WRITTEN_TYPE_MEMBER, 'written-type-member', `member of ${t.name}, which the body works with`, false);
    const usage = usageCounts(this.index);
    for (const id of refs) {
      const n = usage.get(id) ?? 0;
      if (n < 2 || n > MAX_CO_USERS) continue;
      // From the usage table (kept in step with the index), not edgesTo: that reads every referencing file's edges.
      const users = usersOf(this.index, id).filter((u) => u !== this.sym.id);
      if (!users.length) continue;
      const uses = new Map<string, number>();
      for (const u of users) for (const to of new Set(this.index.edgesFrom(u).map((e) => e.to))) uses.set(to, (uses.get(to) ?? 0) + 1);
      for (const [to, k] of [...uses].sort((a, b) => (a[0] < b[0] ? -1 : 1))) this.add(to, W_CO_USE * k / (users.length + 1), 'co-use', 'used with what the body uses, elsewhere');
    }
  }

  private resolvers = new Map<string, TypeNameResolver>();

  /** Internal types mentioned by a type text written in another declaration's file, resolved there. */
  private typesIn(r: SymbolRef, text: string | undefined): TypeInfo[] {
    if (!text) return [];
    if (r.file.path === this.ref.file.path) return this.typesOf(text);
    let resolve = this.resolvers.get(r.file.path);
    if (!resolve) this.resolvers.set(r.file.path, (resolve = typeNameResolver(this.index.table, r.file.path, r.file.facts)));
    const out: TypeInfo[] = [];
    const walk = (p: ReturnType<typeof parseTypeText>) => {
      if (!p) return;
      const t = resolve!(p.name, r.index);
      if (t && t !== 'external' && !out.some((x) => x.id === t.id)) out.push(t);
      for (const a of p.args) walk(a);
    };
    walk(parseTypeText(text));
    return out;
  }

  private cousinUse(own: TypeInfo): void {
    const arity = this.sym.params?.length ?? 0;
    const cousins: SymbolFact[] = [];
    for (const e of this.index.edgesFrom(own.id)) {
      if (e.kind !== 'extends' && e.kind !== 'implements') continue;
      for (const sub of directSubtypesOf(this.index, e.to)) {
        const c = sub === own.id ? undefined : this.index.table.type(sub);
        if (!c) continue;
        for (const i of c.members.get(this.sym.name) ?? []) {
          const m = c.facts.symbols[i];
          if (m.kind === 'method' && (m.params?.length ?? 0) === arity && cousins.length < MAX_KIN && !cousins.some((x) => x.id === m.id)) cousins.push(m);
        }
      }
    }
    if (!cousins.length) return;
    const share = 1 / Math.sqrt(cousins.length);
    for (const c of cousins) for (const to of new Set(this.index.edgesFrom(c.id).map((e) => e.to))) this.add(to, W_COUSIN_USE * share, 'cousin-use', 'used by the same method of a sibling subclass');
  }

  private superMemberUse(own: TypeInfo, supers: TypeInfo[]): void {
    for (const { id, weight } of superMemberUses(this.index).of(own, supers)) this.add(id, weight, 'super-member-use', 'used by other subclasses of its supertype');
  }

  private collaboratorApi(own: TypeInfo): void {
    const types = new Set<string>();
    // The types the class's other members reference: those some member other than the target does.
    const worked = typesMembersUse(this.index).of(own);
    const mine = worked.byMember.get(this.sym.id);
    for (const [t, n] of worked.members) if (n > (mine?.has(t) ? 1 : 0)) types.add(t);
    for (const imp of this.ref.file.facts.imports) if (!imp.static && !imp.wildcard) types.add(imp.name);
    // The method's own signature types (parameters, return, throws) offer their common API too, though no other member uses them.
    if (!isTypeKind(this.sym.kind)) for (const t of this.signatureTypes()) types.add(t.id);
    const top = mostUsedMembers(this.index);
    for (const id of [...types].sort()) {
      const t = this.index.table.type(id);
      if (!t || t.id === own.id) continue;
      const ms = top.get(t);
      for (const m of ms) this.add(m.id, W_COLLABORATOR_API * Math.sqrt(m.n / ms[0].n), 'collaborator-api', `widely used member of ${t.name}`);
    }
  }

  private spread(ms: SymbolFact[], w: number, route: Route, reason: string): void {
    const f = Math.min(1, Math.sqrt(SPREAD_BASE / Math.max(1, ms.length)));
    for (const m of ms) this.add(m.id, w * f, route, reason);
  }

  /** Non-private members (the type's API), constructors excluded unless asked. */
  private members(t: TypeInfo, w: number, route: Route, reason: string, ctors: boolean): void {
    const ms: SymbolFact[] = [];
    const seen = new Set<string>();
    for (const tt of [t, ...this.supertypes(t)]) {
      for (const [key, idxs] of tt.members) for (const i of idxs) {
        const m = tt.facts.symbols[i];
        if (key === '<init>' && !ctors) continue;
        if (m.modifiers.includes('private') && tt.file !== this.ref.file.path) continue;
        if (m.kind === 'field' && !m.modifiers.includes('static') && !m.modifiers.includes('public') && tt.facts.package !== this.ref.file.facts.package) continue;
        const sig = `${m.name}/${m.params?.length ?? -1}`;
        if (seen.has(sig)) continue; // an override shadows its supertype's declaration
        seen.add(sig);
        ms.push(m);
      }
    }
    this.spread(ms, w, route, reason);
  }

  private fromText(text: string, javadoc: boolean): void {
    const linkRe = /\{@link(?:plain)?\s+([\w.$]*)(?:#([\w$]+)(?:\(([^)]*)\))?)?[^}]*\}|@see\s+([\w.$]*)(?:#([\w$]+))?|\b([A-Z][\w$]*)\.([a-z_$][\w$]*)\s*\(/g;
    const linked = new Set<string>();
    let m: RegExpExecArray | null;
    if (javadoc) {
      while ((m = linkRe.exec(text))) {
        const typeText = m[1] ?? m[4] ?? m[6] ?? '';
        const member = m[2] ?? m[5] ?? m[7];
        const arity = m[3] !== undefined ? (m[3].trim() ? m[3].split(',').length : 0) : undefined;
        const types = typeText ? this.typesOf(typeText) : this.ownerType ? [this.ownerType] : [];
        for (const t of types) {
          if (!member) { this.add(t.id, W_JAVADOC_LINK, 'javadoc-name', 'named in Javadoc'); continue; }
          for (const tt of [t, ...this.supertypes(t)]) for (const i of tt.members.get(member) ?? []) {
            const s = tt.facts.symbols[i];
            if (arity !== undefined && (s.params?.length ?? 0) !== arity) continue;
            this.add(s.id, W_JAVADOC_LINK, 'javadoc-link', 'linked from Javadoc');
            linked.add(member);
          }
        }
      }
    }
    // Plain identifiers naming a member of a type in reach (own class, parameter and field types).
    const reach: TypeInfo[] = [];
    if (this.ownerType) reach.push(this.ownerType, ...this.supertypes(this.ownerType));
    for (const p of this.sym.params ?? []) reach.push(...this.typesOf(p.type));
    if (this.ownerType) for (const [, idxs] of this.ownerType.members) for (const i of idxs) {
      const f = this.ownerType.facts.symbols[i];
      if (f.kind === 'field') reach.push(...this.typesOf(f.type ?? ''));
    }
    const words = new Set(text.match(/[A-Za-z_$][\w$]*/g) ?? []);
    const w = javadoc ? W_JAVADOC_NAME : W_BODY_TEXT_NAME;
    const why = javadoc ? 'named in Javadoc' : 'named in the body text';
    const route: Route = javadoc ? 'javadoc-name' : 'body-text';
    for (const word of [...words].sort()) {
      if (word.length < 3 || linked.has(word)) continue;
      if (/^[A-Z]/.test(word)) {
        for (const t of this.typesOf(word)) this.add(t.id, w, route, why);
        continue;
      }
      const hits = new Set<string>();
      for (const t of reach) for (const i of t.members.get(word) ?? []) hits.add(t.facts.symbols[i].id);
      for (const id of [...hits].sort()) this.add(id, w / Math.sqrt(hits.size), route, why);
    }
  }

  private sigTypes?: TypeInfo[];

  /** Internal types named in the signature: parameters, return type, throws, type-parameter bounds (read once per surface). */
  private signatureTypes(): TypeInfo[] {
    return (this.sigTypes ??= this.readSignatureTypes());
  }

  private readSignatureTypes(): TypeInfo[] {
    const s = this.sym;
    const texts = [...(s.params ?? []).map((p) => p.type), s.returnType ?? '', ...(s.throws ?? []), ...(s.typeParams ?? []).flatMap((t) => t.bounds)];
    if (s.kind === 'field') texts.push(s.type ?? '');
    const out = new Map<string, TypeInfo>();
    for (const t of texts) for (const ti of this.typesOf(t)) out.set(ti.id, ti);
    return [...out.values()];
  }

  /** Internal types mentioned by a type text (generic arguments included), resolved from the cursor's file. */
  typesOf(text: string): TypeInfo[] {
    if (!text) return [];
    const names: string[] = [];
    const walk = (p: ReturnType<typeof parseTypeText>) => {
      if (!p) return;
      names.push(p.name);
      for (const a of p.args) walk(a);
    };
    walk(parseTypeText(text));
    const out: TypeInfo[] = [];
    for (const n of names) {
      const t = this.typeNamed(n);
      if (t && !out.some((x) => x.id === t.id)) out.push(t);
    }
    return out;
  }

  private typeNames?: TypeNameResolver;

  /** A type name read from the cursor's symbol by the index's own rules (java/resolve.ts), so the gate and resolution agree. */
  private typeNamed(name: string): TypeInfo | undefined {
    this.typeNames ??= typeNameResolver(this.index.table, this.ref.file.path, this.ref.file.facts);
    const t = this.typeNames(name, this.ref.index);
    return t === 'external' ? undefined : t;
  }

  private qualified(q: string): TypeInfo | undefined {
    return qualifiedTypeIn(this.index.table, q);
  }

  /** Same-name methods other than the target: overloads (own class), overridden (supertypes, same arity), overriding (direct and indirect subclasses, same arity). */
  private kinMethods(own: TypeInfo, supers: TypeInfo[]): { sym: SymbolFact; relation: 'overload' | 'super' | 'sub' }[] {
    const out: { sym: SymbolFact; relation: 'overload' | 'super' | 'sub' }[] = [];
    const arity = this.sym.params?.length ?? 0;
    const key = this.sym.kind === 'constructor' ? '<init>' : this.sym.name;
    for (const i of own.members.get(key) ?? []) {
      const m = own.facts.symbols[i];
      if (m.id !== this.sym.id && (m.kind === 'method' || m.kind === 'constructor')) out.push({ sym: m, relation: 'overload' });
    }
    if (this.sym.kind !== 'method') return out;
    for (const st of supers) for (const i of st.members.get(key) ?? []) {
      const m = st.facts.symbols[i];
      if (m.kind === 'method' && (m.params?.length ?? 0) === arity) out.push({ sym: m, relation: 'super' });
    }
    for (const sub of this.subtypes(own)) for (const i of sub.members.get(key) ?? []) {
      const m = sub.facts.symbols[i];
      if (m.kind === 'method' && (m.params?.length ?? 0) === arity) out.push({ sym: m, relation: 'sub' });
    }
    return out.slice(0, MAX_KIN);
  }

  /** Transitive internal subtypes (breadth first, ids sorted per level), at most MAX_SUBTYPES. */
  private subtypes(t: TypeInfo): TypeInfo[] {
    const out: TypeInfo[] = [];
    const seen = new Set([t.id]);
    const queue = [t.id];
    while (queue.length && out.length < MAX_SUBTYPES) {
      const id = queue.shift()!;
      const subs = directSubtypesOf(this.index, id);
      for (const s of subs) {
        if (seen.has(s)) continue;
        seen.add(s);
        const st = this.index.table.type(s);
        if (st) { out.push(st); queue.push(st.id); }
      }
    }
    return out;
  }

  /** Transitive internal supertypes, nearest first, via the resolved extends/implements edges. */
  supertypes(t: TypeInfo): TypeInfo[] {
    const out: TypeInfo[] = [];
    const seen = new Set([t.id]);
    const queue = [t.id];
    while (queue.length) {
      const id = queue.shift()!;
      for (const e of this.index.edgesFrom(id)) {
        if ((e.kind !== 'extends' && e.kind !== 'implements') || seen.has(e.to)) continue;
        seen.add(e.to);
        const st = this.index.table.type(e.to);
        if (st) { out.push(st); queue.push(st.id); }
      }
    }
    return out;
  }

  candidates(): SurfaceCandidate[] {
    return [...this.cands.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([symbol, c]) => ({ symbol, reasons: [...c.reasons] }));
  }

  entries(options: SurfaceOptions): SurfaceEntry[] {
    const max = options.max ?? (options.writtenOnly ? Infinity : MAX_SURFACE);
    const cands = [...this.cands.values()];
    const scenario = options.scenario ?? (cands.some((c) => c.reasons.some((r) => PARTIAL_BODY_ROUTES.has(r.route))) ? 'partial-body' : 'new-body');
    const probability = options.probability ?? ((reasons: RouteHint[]) => calibratedProbability(reasons, scenario));
    const ps = normalizedMass(cands.map((c) => probability(c.reasons)), cands.map((c) => c.reasons.some((r) => PARTIAL_BODY_ROUTES.has(r.route))));
    // What the body already references is needed for certain: p = 1, not an estimate.
    cands.forEach((c, i) => { c.weight = c.reasons.some((r) => r.route === 'body-ref') ? 1 : ps[i]; });
    const ranked = boundSurface([...this.cands.entries()].sort((a, b) => b[1].weight - a[1].weight || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)), ([, c]) => c.reasons.some((r) => r.route === 'body-ref'), max);
    return ranked.map(([id, c]) => {
      const r = this.index.symbol(id)!;
      const s = r.sym;
      const ownerIdx = s.parent >= 0 ? r.file.facts.symbols[s.parent] : undefined;
      const reasons = [...c.reasons].sort((a, b) => b.w - a.w);
      const uniq = [...new Set(reasons.map((x) => x.reason))];
      // A public jar's symbol is known to models: external for novelty, so its prior-gap risk is low.
      const internal = !this.index.isPublicLibrary(id);
      const novelty = cachedNovelty({
        name: s.kind === 'constructor' ? (ownerIdx?.name ?? s.name) : s.name,
        ownerName: ownerIdx && !isTypeKind(s.kind) ? ownerIdx.name : undefined,
        packageName: r.file.facts.package, internal, ...(internal ? {} : { publicLibrary: true }), documented: !!s.javadoc, kind: s.kind,
      }, options.orgPrefixes);
      return {
        symbol: id, kind: s.kind, uri: uriOf(r.file.path), line: s.nameSpan.sl,
        internal, covered: false, novelty: round4(novelty), weight: round4(Math.min(1, c.weight)),
        reason: uniq.slice(0, 2).join('; '),
        ...(c.reasons.some((x) => x.route === 'body-ref') ? { written: true } : {}),
        routes: [...new Set(reasons.map((x) => x.route))],
      };
    });
  }
}

/**
 * Per type, the types each of its members references (the owner of each edge's target) and, per
 * referenced type, how many members reference it: the same for every method of the class, so read
 * once per type and index version; a method's collaborators are those some other member uses.
 */
const typesMembersUse = perIndexVersion((index) => {
  const perType = new Map<string, { byMember: Map<string, Set<string>>; members: Map<string, number> }>();
  return {
    of(own: TypeInfo): { byMember: Map<string, Set<string>>; members: Map<string, number> } {
      let known = perType.get(own.id);
      if (known) return known;
      known = { byMember: new Map(), members: new Map() };
      for (const [, idxs] of own.members) for (const i of idxs) {
        const m = own.facts.symbols[i];
        if (known.byMember.has(m.id)) continue;
        const used = new Set<string>();
        for (const e of index.edgesFrom(m.id)) used.add(e.to.split('#')[0]);
        known.byMember.set(m.id, used);
        for (const t of used) known.members.set(t, (known.members.get(t) ?? 0) + 1);
      }
      perType.set(own.id, known);
      return known;
    },
  };
});

/**
 * The supertypes' API as their other subclasses use it: each non-private member of `supers`
 * weighted by the share of those subclasses (at most MAX_SUBTYPES) whose members reference it. The
 * same for every method of the class, so computed once per type and index version (`supers` are
 * the type's supertypes, fixed by the index version).
 */
const superMemberUses = perIndexVersion((index) => {
  const perType = new Map<string, readonly { id: string; weight: number }[]>();
  return {
    of(own: TypeInfo, supers: readonly TypeInfo[]): readonly { id: string; weight: number }[] {
      const known = perType.get(own.id);
      if (known) return known;
      const offered = new Set<string>();
      for (const st of supers) for (const [key, idxs] of st.members) for (const i of idxs) {
        const m = st.facts.symbols[i];
        if (key !== '<init>' && !isTypeKind(m.kind) && !m.modifiers.includes('private')) offered.add(m.id);
      }
      const subs: TypeInfo[] = [];
      const seen = new Set<string>([own.id]);
      for (const st of supers) for (const id of directSubtypesOf(index, st.id)) {
        if (seen.has(id) || subs.length >= MAX_SUBTYPES) continue;
        seen.add(id);
        const t = index.table.type(id);
        if (t) subs.push(t);
      }
      const users = new Map<string, number>();
      for (const t of subs) {
        const used = new Set<string>();
        for (const [, idxs] of t.members) for (const i of idxs) for (const e of index.edgesFrom(t.facts.symbols[i].id)) if (offered.has(e.to)) used.add(e.to);
        for (const id of used) users.set(id, (users.get(id) ?? 0) + 1);
      }
      const out = [...users].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([id, k]) => ({ id, weight: W_SUPER_MEMBER_USE * k / (subs.length + 1) }));
      perType.set(own.id, out);
      return out;
    },
  };
});

/**
 * A type's non-private members the workspace uses, most used first (at most MAX_COLLABORATOR_API):
 * the same for every method that works with the type, so listed once per type and index version
 * (usage counts change with any file) instead of sorting the type's members on every request.
 */
const mostUsedMembers = perIndexVersion((index) => {
  const usage = usageCounts(index);
  const lists = new Map<string, { id: string; n: number }[]>();
  return {
    get(t: TypeInfo): readonly { id: string; n: number }[] {
      let ms = lists.get(t.id);
      if (ms) return ms;
      ms = [];
      for (const [, idxs] of t.members) for (const i of idxs) {
        const m = t.facts.symbols[i];
        if (m.modifiers.includes('private') || isTypeKind(m.kind)) continue;
        const n = usage.get(m.id) ?? 0;
        if (n > 0) ms.push({ id: m.id, n });
      }
      ms.sort((a, b) => b.n - a.n || (a.id < b.id ? -1 : 1));
      lists.set(t.id, (ms = ms.slice(0, MAX_COLLABORATOR_API)));
      return ms;
    },
  };
});

/**
 * Novelty is a pure function of a symbol's names, package, documentation and kind, and the same
 * declarations recur across requests; computing it was ~⅓ of the gate's time (60 entries a
 * request, lexicon lookups per word part). Bounded: cleared when full.
 */
const noveltyCache = new BoundedMemo<string, number>(50_000);
function cachedNovelty(input: NoveltyInput, orgPrefixes: string[] | undefined): number {
  const key = `${input.name}\u0000${input.ownerName ?? ''}\u0000${input.packageName ?? ''}\u0000${input.documented ? 1 : 0}\u0000${input.internal ? 1 : 0}${input.publicLibrary ? 1 : 0}\u0000${input.kind}\u0000${(orgPrefixes ?? []).join(',')}`;
  return noveltyCache.get(key, () => noveltyOf(input, { orgPrefixes }));
}

/**
 * Word parts of declared names, memoised: the same members are read on every request (named-member
 * reads every member of up to MAX_NAMED_TYPES types). Pure functions of the name; bounded.
 */
const namePartsMemo = new BoundedMemo<string, string[]>(100_000);
const strongWordsMemo = new BoundedMemo<string, string[]>(100_000);
function nameParts(name: string): string[] {
  return namePartsMemo.get(name, splitIdentifier);
}
/** A member name's word parts that say what it does (WEAK_NAME_WORDS out). */
function strongNameWords(name: string): string[] {
  return strongWordsMemo.get(name, (n) => nameParts(n).filter((w) => !WEAK_NAME_WORDS.has(w)));
}

/** Lower-case word parts of a member's name (a constructor's is its class's). */
function nameWords(s: SymbolFact): Set<string> {
  return new Set(nameParts(s.name));
}

function jaccard(a: Set<string>, b: Set<string>): number {
  let both = 0;
  for (const x of a) if (b.has(x)) both++;
  const union = a.size + b.size - both;
  return union ? both / union : 0;
}

/** A parameter type compared across signatures: generics and varargs erased to the simple name plus array depth. */
function normType(t: string): string {
  const dims = (t.match(/\[\]|\.\.\./g) ?? []).length;
  const base = t.replace(/<.*>/g, '').replace(/\[\]|\.\.\./g, '').trim().split('.').pop() ?? t;
  return base + '[]'.repeat(dims);
}

function round4(x: number): number {
  return Math.round(x * 10000) / 10000;
}
