// The retrieval-confidence layer (RCL §4): between retrieval and generation, tell the scenario
// apart from the text at the cursor, estimate the dependency surface D̂(q) of the cursor's method
// (what is written enters as certain, only the rest is estimated), measure how much of it the
// items show, and - below τ - run bounded follow-up rounds that fetch the missing declarations by
// expected benefit per token, as many as the budget holds. Confidence is a calibrated probability
// (calibration.ts); below τ of the scenario the result is labelled for review, with reasons that
// name what is missing and why.

import type { ContextItem, GateFeatures, Scenario, SurfaceEntry } from '../../../shared/protocol';
import type { GateHook, GateVerdict, PipelineRequest, Target } from '../retrieval/request';
import { countTokens, totalTokens } from '../retrieval/cap';
import { calibratedConfidence, scenarioThreshold } from './calibration';
import { confidenceOf, NOVELTY_FLOOR, type Confidence } from './confidence';
import { itemCovers, markCovered, ownersOf, ownerTypeOf, shownSymbolsOf, TYPE_MEMBER_NEED_P, workspaceTypesByName, type ShownTypes } from './coverage';
import { judgeScenario, type ScenarioJudgement } from './scenario';
import { dependencySurface, shortName } from './surface';
import { isTypeKind } from '../java/symbols';
import { bodyBraceIn, codeOnly } from '../java/lexer';
import { linesOf, TextLines } from '../text/lines';
import { uncertaintyTrace, type UncertaintyTrace } from './uncertainty';
import { leftOutEvidence, openBlocksAt, withOpenBlocks } from './retrievalEvidence';
import { bodyNeedEvidence } from './bodyNeeds';
import { writtenHalfEvidence } from './writtenHalf';
import { bodyNeighbourhood, bodySizeEvidence, unshownBodyRefs } from './bodySize';
import { packingFor } from '../retrieval/fitted';

/** The verdict plus what the result also reports (τ in force, the scenario, the evidence). */
export type RclVerdict = GateVerdict & {
  threshold: number; uncertainty: UncertaintyTrace; scenario: ScenarioJudgement['scenario']; scenarioReason: string; gateFeatures: GateFeatures;
};

/**
 * τ when a request gives none and no scenario applies; the calibrated τ per scenario lives with
 * the model (server/data/gate-model.json, `npm run fit:gate`). RCL §10: recalibrate per deployment.
 */
export const DEFAULT_THRESHOLD = 0.95;
/**
 * Follow-up rounds fetch only surface entries at least this likely to be needed (calibrated p).
 * On the validation split (60 jsoup tasks) the rounds fetched ~14 entries a request, most with
 * p < 0.05, gold ~2 % of the time. Below 0.02 (p is a floor-level guess there) they are left
 * out; up to 0.05 they still paid for themselves in recall (~3 points for ~200 tokens, counted
 * with signature-only declarations packed into the groups already shown).
 */
export const FOLLOWUP_MIN_P = 0.02;
/**
 * Follow-up aims higher than the review threshold: fetching declarations costs only tokens inside
 * the budget, reviewing costs a person, so rounds run until P(sufficient) reaches
 * max(τ, FOLLOWUP_TARGET), nothing worth fetching is left, or the rounds end.
 */
export const FOLLOWUP_TARGET = 0.95;
/** Tokens a new type group costs beyond its members' signatures (header line, braces, elision marks). */
export const GROUP_OVERHEAD_TOKENS = 6;
/**
 * What a needed declaration is worth in tokens: the one price packing charges for the scenario
 * (retrieval/fitted.ts packingFor). Follow-up fetches an entry only when p × ν' × value exceeds
 * the tokens it adds, ν' = benefitOf's novelty factor: a needed symbol the model already knows
 * is worth less to fetch (RCL §4: follow-up goes for uncovered high-novelty symbols).
 */
export const followupValue = (scenario: Scenario, req?: Pick<PipelineRequest, 'packing'>): number => packingFor(scenario, req).value;
/** Missing symbols named in a review reason. */
export const REASON_SYMBOLS = 5;

/** The body of the target as the editor has it now: its text after the body brace, and where that brace is. */
function bodyOfTarget(text: string | undefined, target: Target): WrittenBody | undefined {
  return text === undefined ? undefined : bodyOf(text, target.ref.sym.span);
}

/** A declaration's body as written so far: the text after its body brace, and the brace's position (0-based line and column). */
export interface WrittenBody { text: string; brace: { line: number; character: number } }

/**
 * The body of a declaration's lines: the text after its body brace, the first '{' in code outside
 * parentheses (lexer.ts bodyBraceIn), and where that brace is, so that the surface can tell
 * references written in the body from those of the declaration (annotations, qualified types).
 */
export function bodyOf(text: string, span: { sl: number; el: number }): WrittenBody | undefined {
  const lines = linesOf(text).slice(span.sl, span.el + 1).join('\n');
  // The body's brace, not an annotation's array argument or a brace in a comment before it.
  const i = bodyBraceIn(codeOnly(lines).code);
  if (i < 0) return undefined;
  const before = lines.slice(0, i);
  const nl = before.lastIndexOf('\n');
  return { text: lines.slice(i + 1), brace: { line: span.sl + (before.match(/\n/g)?.length ?? 0), character: i - (nl + 1) } };
}

function itemKey(it: ContextItem): string {
  return `${it.uri}:${it.range.start.line}-${it.range.end.line}:${it.symbol ?? ''}`;
}

/** A type-group item (one per file-level type, the cursor's own type's too); the cursor's own item is never one. */
function groupKey(it: ContextItem, target: Target | undefined): string | undefined {
  return it.symbol && it.symbol !== target?.ref.sym.id ? `${it.uri}#${it.symbol}` : undefined;
}

/** How much fetching an entry is worth: the chance it is needed and missing from the model's prior. */
function benefitOf(e: SurfaceEntry): number {
  return e.weight * (NOVELTY_FLOOR + (1 - NOVELTY_FLOOR) * e.novelty);
}

/**
 * Names in the target's written body the index could not resolve (deduplicated, sorted) and that
 * cannot be explained away: a member name is not counted when the class (or an enclosing class)
 * has a supertype outside the workspace, where it may be inherited from (`getCause()` of an
 * exception); a type name is not counted when the file imports a whole package.
 */
function unresolvedNamesOf(req: PipelineRequest, target: Target | undefined): string[] {
  if (!target) return [];
  const file = target.ref.file;
  const res = req.index.file(file.path)?.resolution;
  const mine = (res?.unresolved ?? []).filter((u) => u.from === target.ref.sym.id);
  if (!mine.length) return [];
  const inheritsFromOutside = externalSupertypeInReach(req, target);
  const wildcard = file.facts.imports.some((i) => i.wildcard && !i.static);
  const kept = mine.filter((u) => (u.kind === 'type' || u.kind === 'new' ? !wildcard : !inheritsFromOutside));
  return [...new Set(kept.map((u) => u.name))].sort();
}

/** Whether the target's class, an enclosing class, or one of their internal supertypes names a supertype outside the workspace. */
function externalSupertypeInReach(req: PipelineRequest, target: Target): boolean {
  const symbols = target.ref.file.facts.symbols;
  const queue: string[] = [];
  for (let i = target.ref.sym.parent; i >= 0; i = symbols[i].parent) if (isTypeKind(symbols[i].kind)) queue.push(symbols[i].id);
  const seen = new Set<string>();
  while (queue.length) {
    const id = queue.shift()!;
    if (seen.has(id)) continue;
    seen.add(id);
    const t = req.index.symbol(id)?.sym;
    if (!t) return true;
    const declared = (t.superclass ? 1 : 0) + (t.interfaces?.length ?? 0);
    const internal = req.index.edgesFrom(id).filter((e) => e.kind === 'extends' || e.kind === 'implements').map((e) => e.to);
    if (declared > internal.length || t.anonymous) return true;
    queue.push(...internal);
  }
  return false;
}

/** D̂(q) of the judged scenario: a complete method's written references only, else the written body and the estimate of the rest. */
function surfaceOf(req: PipelineRequest, target: Target, body: WrittenBody | undefined, scenario: ScenarioJudgement['scenario']): SurfaceEntry[] {
  if (scenario === 'existing-body') return dependencySurface(req.index, target, undefined, { writtenOnly: true });
  return dependencySurface(req.index, target, body?.text, { ...(body ? { bodyStart: body.brace } : {}), ...(scenario === 'new-body' || scenario === 'partial-body' ? { scenario } : {}) });
}

export const gate: GateHook = (req, target, items, api, evidence) => {
  // The cursor's file as the editor has it, read once: the scenario, the body and the blocks open at the cursor all come from it.
  const text = target ? req.textOf(target.ref.file.path) : undefined;
  const judged = evidence?.scenario ?? judgeScenario(text, target, req.position, req.index.file(req.path)?.facts.hasErrors ?? false);
  const { scenario } = judged;
  const tau = Number.isFinite(req.threshold) ? req.threshold : scenarioThreshold(scenario);
  const inMethod = scenario !== 'outside-method';
  const body = inMethod && target && scenario !== 'existing-body' ? bodyOfTarget(text, target) : undefined;
  const surfaceRaw = inMethod && target
    ? surfaceOf(req, target, body, scenario)
    : [];
  const unresolved = inMethod ? unresolvedNamesOf(req, target) : [];
  const formsVerdict = inMethod && judged.parses;
  const openBlocks = openBlocksAt(text, target, req.position);
  // Covering marks entries and never changes them, so the surface's types by name hold for every round.
  const typesByName = workspaceTypesByName(surfaceRaw);
  const around = bodyNeighbourhood(req.index, target);
  const bodySize = bodySizeEvidence(req.index, target, around);
  const featuresOf = (surface: SurfaceEntry[], _conf: Confidence, its: ContextItem[]): GateFeatures => {
    let uncoveredMass = 0, uncoveredWritten = 0;
    for (const e of surface) if (!e.covered) { if (e.written) uncoveredWritten++; else uncoveredMass += e.weight; }
    // The estimated part is calibrated by the model; the certain part compounds as RCL does: a
    // written reference not shown costs (1 − ν), a written name that resolves to nothing all of it.
    const written = confidenceOf(surface.filter((e) => e.written)).confidence * (unresolved.length ? 0 : 1);
    const shownIds = shownSymbolsOf(its);
    const shown: ShownTypes = { byName: typesByName, withShownMember: ownersOf(shownIds) };
    return {
      scenario, judged: formsVerdict, compound: round4(confidenceOf(surface.filter((e) => !e.written)).confidence),
      writtenFactor: round4(written), uncoveredMass: round4(uncoveredMass),
      uncoveredWritten: uncoveredWritten + unresolved.length,
      writtenRefs: surface.filter((e) => e.written).length, writtenLines: judged.writtenLines, unresolvedNames: unresolved.length,
      surfaceSize: surface.length, budgetShare: round4(req.budgetTokens > 0 ? totalTokens(its) / req.budgetTokens : 1),
      ...structuralEvidence(surface, its, target),
      ...bodyNeedEvidence(surface, its, target, shown),
      ...bodySize,
      ...unshownBodyRefs(around, shownIds),
      ...writtenHalfEvidence(scenario === 'partial-body', judged.writtenLines, surface, its, target, shown),
      ...withOpenBlocks(leftOutEvidence(evidence?.candidates ?? [], surface, its, target), openBlocks),
    };
  };
  const probabilityOf = (f: GateFeatures) => calibratedConfidence(f) ?? 0;

  let current = items;
  let surface = markCovered(surfaceRaw, current);
  let conf = confidenceOf(surface);
  let features = featuresOf(surface, conf, current);
  let p = probabilityOf(features);
  let rounds = 0;
  const notFound = new Set<string>();
  const droppedForBudget = new Set<string>();
  /** Entries whose expected worth (p × ν' × value) was below the tokens they would add. */
  const notWorth = new Set<string>();
  const value = followupValue(scenario, req);
  const maxRounds = Math.max(0, Math.floor(req.maxRounds ?? 0));
  // The signature line's tokens per symbol, once per request: every round ranks every wanted entry again.
  const lineCache = new Map<string, TextLines>();
  const signatureCache = new Map<string, number>();
  const signatureTokens = (id: string): number => {
    const known = signatureCache.get(id);
    if (known !== undefined) return known;
    const r = req.index.symbol(id);
    if (!r) return Infinity;
    let lines = lineCache.get(r.file.path);
    if (!lines) lineCache.set(r.file.path, (lines = new TextLines(req.textOf(r.file.path) ?? '')));
    const line = r.sym.nameSpan.sl;
    // trim() also drops the '\r' a CRLF text would leave at the line's end, as splitting on /\r?\n/ did.
    const tokens = Math.max(1, countTokens((line >= 0 && line < lines.count ? lines.lineText(line) : '').trim()));
    signatureCache.set(id, tokens);
    return tokens;
  };

  const aim = Math.max(tau, FOLLOWUP_TARGET);
  while (inMethod && p < aim && rounds < maxRounds && !req.isCancelled?.()) {
    const shownGroups = new Set(current.map((it) => it.symbol).filter((x): x is string => !!x));
    const wanted = surface.filter((e) => !e.covered && !notFound.has(e.symbol) && (e.written || e.weight >= FOLLOWUP_MIN_P));
    if (wanted.length === 0) break;
    // Expected benefit per token: p × ν ÷ tokens of what would be added (its signature, plus a
    // header when its type is not shown yet). A type brings along the members its coverage needs.
    // Per type, the wanted members its coverage needs (coverage.ts), in surface order: every other member pays its own way.
    const neededMembers = new Map<string, string[]>();
    for (const m of wanted) {
      const t = ownerTypeOf(m.symbol);
      if (t === undefined || !(m.written || m.weight >= TYPE_MEMBER_NEED_P)) continue;
      const list = neededMembers.get(t);
      if (list) list.push(m.symbol); else neededMembers.set(t, [m.symbol]);
    }
    const plan = wanted.map((e) => {
      const ownerOfEntry = ownerTypeOf(e.symbol);
      const owner = ownerOfEntry ?? e.symbol;
      const ids = [e.symbol, ...(ownerOfEntry === undefined ? neededMembers.get(e.symbol) ?? [] : [])];
      const tokens = ids.reduce((s, id) => s + signatureTokens(id), 0) + (shownGroups.has(owner) ? 0 : GROUP_OVERHEAD_TOKENS);
      return { e, ids, tokens, density: benefitOf(e) / tokens };
    }).sort((a, b) => b.density - a.density || b.e.weight - a.e.weight || (a.e.symbol < b.e.symbol ? -1 : 1));
    let room = req.budgetTokens - totalTokens(current);
    const ids = new Set<string>();
    for (const step of plan) {
      if (step.ids.every((id) => ids.has(id))) continue;
      // The price is what the entry adds for real: packing's count against its group as shown.
      // The signature line's tokens are no lower bound of it (showing a member can remove the
      // `// … 1 member` marker that hid it, and a one-line body folds to `{ … }`), so no cheaper
      // check refuses an entry first; the signature estimate only ranks the plan, and prices it
      // when no packer is at hand.
      const worth = benefitOf(step.e) * value;
      const pays = (tokens: number) => step.e.written || worth > tokens;
      const tokens = api.addedTokens ? api.addedTokens(req, step.ids, current, (t) => pays(t) && t <= room) : step.tokens;
      if (!pays(tokens)) { notWorth.add(step.e.symbol); continue; }
      if (tokens > room) { droppedForBudget.add(step.e.symbol); continue; }
      room -= tokens;
      for (const id of step.ids) ids.add(id);
    }
    if (ids.size === 0) break;
    rounds++;
    // Signatures only, packed into the type groups already shown (no second header for a type).
    const fetched = api.itemsForSymbols(req, [...ids], 'followup', { into: current, doc: false });
    const have = new Map(current.map((it) => [itemKey(it), it.text]));
    const groupAt = new Map<string, number>();
    current.forEach((it, i) => { const k = groupKey(it, target); if (k && !groupAt.has(k)) groupAt.set(k, i); });
    const top = Math.max(0, ...current.map((i) => (Number.isFinite(i.score) ? i.score : 0))) || 1;
    const added: ContextItem[] = [];
    const replaced = new Map<number, ContextItem>();
    for (const it of fetched) {
      if (have.get(itemKey(it)) === it.text) continue;
      have.set(itemKey(it), it.text);
      // Ranked by expected benefit: a near-certain need ranks with the best retrieved item, a guess far below.
      const gain = Math.max(0, ...wanted.filter((e) => itemCovers(it, e)).map(benefitOf));
      const at = groupAt.get(groupKey(it, target) ?? '');
      const old = at === undefined ? undefined : current[at];
      const sources = [...new Set([...(old?.sources ?? []), ...it.sources, 'followup' as const])].sort();
      const next = { ...it, score: Math.max(old?.score ?? 0, top * gain), sources };
      if (at === undefined) added.push(next);
      else replaced.set(at, next);
    }
    const changed = [...added, ...replaced.values()];
    for (const id of ids) {
      const e = surface.find((x) => x.symbol === id);
      if (e && !changed.some((it) => itemCovers(it, e))) notFound.add(id);
    }
    // Nothing new to show: a fresh array, so the next round's prices forget what this one accepted.
    if (changed.length === 0) { current = [...current]; continue; }
    const updated = current.map((it, i) => replaced.get(i) ?? it);
    const pinned = updated.length && updated[0].sources.includes('enclosing') ? [updated[0]] : [];
    const rest = [...updated.slice(pinned.length), ...added].sort((a, b) => b.score - a.score);
    const merged = api.fitToBudget([...pinned, ...rest], req.budgetTokens);
    const nextSurface = markCovered(surfaceRaw, merged);
    for (const e of nextSurface) if (!e.covered && changed.some((it) => itemCovers(it, e))) droppedForBudget.add(e.symbol);
    const nextConf = confidenceOf(nextSurface);
    if (nextConf.coverage < conf.coverage) break; // budget fitting evicted more than it brought
    current = merged;
    surface = nextSurface;
    conf = nextConf;
    features = featuresOf(surface, conf, current);
    p = probabilityOf(features);
  }

  const confidence = formsVerdict ? p : 0;
  const knownMissing = knownMissingNeeds(surface, unresolved);
  const review = mustReview(confidence, tau, knownMissing);
  const reviewReasons = review ? reasonsFor({ surface, confidence, tau, rounds, maxRounds, notFound, dropped: droppedForBudget, notWorth, judged, unresolved, conf, knownMissing, value, features }) : [];
  const verdict: RclVerdict = {
    coverage: round4(conf.coverage), novelty: round4(conf.novelty), confidence: round4(confidence),
    review, reviewReasons, rounds, dependencySurface: surface, items: current, threshold: tau,
    uncertainty: uncertaintyTrace(current, { index: req.index, target, surface }),
    scenario, scenarioReason: judged.why, gateFeatures: features,
  };
  return verdict;
};

/** The estimated entries counted by `topCoverage`: the most probable ones. */
export const TOP_K = 5;
/** An uncovered estimated entry at least this likely counts in `likelyUncovered`. */
export const LIKELY_P = 0.25;

type StructuralEvidence = Required<Pick<GateFeatures, 'estimatedMass' | 'maxUncoveredP' | 'topCoverage' | 'likelyUncovered' | 'signatureTypes' |
  'signatureTypesUnshown' | 'javadocWords' | 'ownerMembers' | 'items' | 'agreement' | 'scoreMargin'>>;

/** Structural evidence of one marked surface and item set, beside RCL's compounding (GateFeatures). */
export function structuralEvidence(surface: SurfaceEntry[], items: ContextItem[], target: Target | undefined): StructuralEvidence {
  const estimated = surface.filter((e) => !e.written).sort((a, b) => b.weight - a.weight || (a.symbol < b.symbol ? -1 : 1));
  const uncovered = estimated.filter((e) => !e.covered);
  const top = estimated.slice(0, TOP_K);
  const sym = target?.ref.sym;
  const sigNames = new Set<string>();
  for (const t of [...(sym?.params ?? []).map((p) => p.type), sym?.returnType, ...(sym?.throws ?? [])]) {
    for (const w of (t ?? '').split(/[^\w$]+/)) if (w) sigNames.add(w);
  }
  const sigTypes = surface.filter((e) => isTypeKind(e.kind) && sigNames.has(shortName(e.symbol)));
  const owner = target?.owner;
  const ownerMembers = owner ? owner.file.facts.symbols.filter((m) => m.parent === owner.index && !isTypeKind(m.kind)).length : 0;
  const shown = items.filter((it) => it.symbol !== sym?.id && !it.sources.includes('enclosing'));
  const scores = shown.map((it) => (Number.isFinite(it.score) ? it.score : 0));
  const best = Math.max(0, ...scores);
  return {
    estimatedMass: round4(estimated.reduce((a, e) => a + e.weight, 0)),
    maxUncoveredP: round4(uncovered.length ? uncovered[0].weight : 0),
    topCoverage: round4(top.length ? top.filter((e) => e.covered).length / top.length : 1),
    likelyUncovered: uncovered.filter((e) => e.weight >= LIKELY_P).length,
    signatureTypes: sigTypes.length,
    signatureTypesUnshown: sigTypes.filter((e) => !e.covered).length,
    javadocWords: (sym?.javadoc ?? '').split(/\s+/).filter((w) => /\w/.test(w)).length,
    ownerMembers,
    items: shown.length,
    agreement: round4(shown.length ? shown.filter((it) => new Set(it.sources).size > 1).length / shown.length : 0),
    scoreMargin: round4(best > 0 ? Math.min(...scores) / best : 0),
  };
}

/**
 * What is certainly needed and certainly missing: written references (p = 1) the context does not
 * show, and written names that resolve to nothing. Not an estimate, so not a matter for τ.
 */
export function knownMissingNeeds(surface: SurfaceEntry[], unresolved: string[]): number {
  return surface.filter((e) => e.written && !e.covered).length + unresolved.length;
}

/**
 * The review policy: below τ of the scenario, or - whatever τ is (a fitted τ may be 0) - when a
 * certain need is known to be missing. The context then lacks something the code uses for sure.
 */
export function mustReview(confidence: number, tau: number, knownMissing: number): boolean {
  return confidence < tau || knownMissing > 0;
}


interface ReasonInput {
  surface: SurfaceEntry[]; confidence: number; tau: number; rounds: number; maxRounds: number; conf: Confidence;
  notFound: Set<string>; dropped: Set<string>; notWorth: Set<string>; judged: ScenarioJudgement; unresolved: string[]; knownMissing: number;
  /** The price follow-up charged (followupValue). */
  value: number;
  /** The evidence the confidence was computed from. */
  features: GateFeatures;
}

function listed(names: string[]): string {
  return `${names.slice(0, REASON_SYMBOLS).join(', ')}${names.length > REASON_SYMBOLS ? ', …' : ''}`;
}

function reasonsFor(r: ReasonInput): string[] {
  const out: string[] = [];
  const { scenario } = r.judged;
  if (scenario === 'outside-method') return [`no verdict: ${r.judged.why}, so there is no dependency surface to judge`];
  if (!r.judged.parses) out.push(`no verdict: ${r.judged.why}; what it references cannot be resolved reliably`);
  else if (r.confidence >= r.tau) out.push(`review whatever τ is: ${r.knownMissing} certain need${r.knownMissing === 1 ? '' : 's'} of the ${scenario} (${r.judged.why}) ${r.knownMissing === 1 ? 'is' : 'are'} known to be missing from the context (P(sufficient) ${r.confidence.toFixed(2)}, τ ${r.tau.toFixed(2)})`);
  else out.push(`P(sufficient) ${r.confidence.toFixed(2)} < τ ${r.tau.toFixed(2)} for a ${scenario} (${r.judged.why}) after ${r.rounds} follow-up round${r.rounds === 1 ? '' : 's'}; coverage ${r.conf.coverage.toFixed(2)} of the estimated surface`);
  const expected = r.features.predictedBodyRefs;
  if ((scenario === 'new-body' || scenario === 'partial-body') && r.judged.parses && expected !== undefined && expected > 0) {
    // The size evidence lowers P with no symbol to name: say what it read, so a low P next to a high coverage is explained.
    const f = r.features;
    out.push(`bodies like this one reference about ${Math.round(expected)} declarations (the methods beside it ${(f.neighbourBodyRefs ?? 0).toFixed(1)} on average, its class's ${(f.ownerBodyRefs ?? 0).toFixed(1)}, like-named methods ${(f.namesakeBodyRefs ?? 0).toFixed(1)}; ${f.callers ?? 0} caller${f.callers === 1 ? '' : 's'}); the estimated surface expects ${(f.estimatedMass ?? 0).toFixed(1)} of them, and the more a body references, the likelier it needs one no route predicts`);
  }
  if (r.unresolved.length) out.push(`${r.unresolved.length} name${r.unresolved.length === 1 ? '' : 's'} in the body resolve${r.unresolved.length === 1 ? 's' : ''} to no declaration in the workspace: ${listed(r.unresolved)}`);
  const missing = r.surface.filter((e) => !e.covered).sort((a, b) => benefitOf(b) - benefitOf(a) || (a.symbol < b.symbol ? -1 : 1));
  const written = missing.filter((e) => e.written);
  if (written.length) out.push(`${written.length} symbol${written.length === 1 ? '' : 's'} the body already uses ${written.length === 1 ? 'is' : 'are'} not in context: ${listed(written.map((e) => `${shortName(e.symbol)}${e.uri && e.line !== undefined ? ` (${e.uri}#L${e.line + 1})` : ''}`))}`);
  const estimated = missing.filter((e) => !e.written && e.weight >= FOLLOWUP_MIN_P);
  if (estimated.length) out.push(`${estimated.length} likely dependenc${estimated.length === 1 ? 'y' : 'ies'} not in context: ${listed(estimated.map((e) => `${shortName(e.symbol)} (p ${e.weight.toFixed(2)}: ${e.reason ?? 'estimated dependency'})`))}`);
  const nf = missing.filter((e) => r.notFound.has(e.symbol)).map((e) => shortName(e.symbol));
  if (nf.length) out.push(`follow-up retrieval found no declaration to show for: ${listed(nf)}`);
  const bd = missing.filter((e) => r.dropped.has(e.symbol)).map((e) => shortName(e.symbol));
  if (bd.length) out.push(`the token budget could not hold: ${listed(bd)}`);
  const nw = missing.filter((e) => r.notWorth.has(e.symbol) && !r.dropped.has(e.symbol)).map((e) => shortName(e.symbol));
  if (nw.length) out.push(`not fetched as worth fewer tokens than they would add (p × novelty × ${r.value}): ${listed(nw)}`);
  const left = missing.filter((e) => (e.written || e.weight >= FOLLOWUP_MIN_P) && !r.notFound.has(e.symbol) && !r.dropped.has(e.symbol) && !r.notWorth.has(e.symbol));
  if (left.length && r.rounds >= r.maxRounds) out.push(`the follow-up rounds (${r.maxRounds}) ended before fetching: ${listed(left.map((e) => shortName(e.symbol)))}`);
  const unlikely = missing.filter((e) => !e.written && e.weight < FOLLOWUP_MIN_P);
  if (unlikely.length) out.push(`${unlikely.length} estimated entr${unlikely.length === 1 ? 'y was' : 'ies were'} not fetched as too unlikely to be worth the tokens (p < ${FOLLOWUP_MIN_P} each, Σp ${unlikely.reduce((a, e) => a + e.weight, 0).toFixed(2)}): ${listed(unlikely.map((e) => shortName(e.symbol)))}`);
  if (!missing.length && !r.unresolved.length && r.judged.parses) out.push('every estimated dependency is shown; the estimate itself is uncertain (what is not yet written may need more)');
  return out;
}

// ---- Threshold calibration ---------------------------------------------------------------------

export interface CalibrationPoint { confidence: number; sufficient: boolean }
export interface CurvePoint { tau: number; falseReviewRate: number; falseConfidenceRate: number; reviewRate: number; cost: number }
export interface Calibration { curve: CurvePoint[]; best: CurvePoint; tau: number }

/**
 * Sweeps τ over [0, 1] in steps of `step` (RCL §4: τ is calibrated against false-review overhead
 * and undetected-risk rate). At τ an item is reviewed iff confidence < τ.
 *   false-review rate     = reviewed sufficient / sufficient      (review overhead on good context)
 *   false-confidence rate = unreviewed insufficient / insufficient (undetected risk)
 * Cost = falseReviewRate + costFalseConfidence × falseConfidenceRate (1 by default: the sum); the
 * returned τ minimises it, ties resolved to the middle τ of the cheapest set (robust to noise).
 * A class with no points contributes rate 0.
 */
export function calibrateThreshold(points: CalibrationPoint[], options: { step?: number; costFalseConfidence?: number } = {}): Calibration {
  const step = options.step ?? 0.01;
  const k = options.costFalseConfidence ?? 1;
  const pts = points.filter((p) => Number.isFinite(p.confidence));
  const suff = pts.filter((p) => p.sufficient).length;
  const insuff = pts.length - suff;
  const curve: CurvePoint[] = [];
  const n = Math.round(1 / step);
  for (let i = 0; i <= n; i++) {
    const tau = round4(i * step);
    let fr = 0, fc = 0, reviewed = 0;
    for (const p of pts) {
      const rev = p.confidence < tau;
      if (rev) reviewed++;
      if (rev && p.sufficient) fr++;
      if (!rev && !p.sufficient) fc++;
    }
    const falseReviewRate = suff ? fr / suff : 0;
    const falseConfidenceRate = insuff ? fc / insuff : 0;
    curve.push({ tau, falseReviewRate, falseConfidenceRate, reviewRate: pts.length ? reviewed / pts.length : 0, cost: falseReviewRate + k * falseConfidenceRate });
  }
  const min = Math.min(...curve.map((c) => c.cost));
  const cheapest = curve.filter((c) => c.cost <= min + 1e-12);
  const best = cheapest[Math.floor((cheapest.length - 1) / 2)];
  return { curve, best, tau: best.tau };
}

function round4(x: number): number {
  return Math.round(x * 10000) / 10000;
}
