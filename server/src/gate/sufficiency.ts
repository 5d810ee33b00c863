// The retrieval-confidence layer (RCL §4): between retrieval and generation, estimate the
// dependency surface of the cursor's method, measure how much of it the items cover, combine the
// coverage gap with the novelty of what is missing, and - below τ - run bounded targeted follow-up
// rounds that fetch the missing declarations (most novel and heaviest first). If confidence stays
// below τ the result is labelled for review, with reasons that name what is missing and why.

import type { ContextItem, SurfaceEntry } from '../../../shared/protocol';
import type { GateVerdict, PipelineRequest, Target } from '../retrieval/request';
import { confidenceOf } from './confidence';
import { markCovered } from './coverage';
import { dependencySurface, shortName } from './surface';
import { uncertaintyTrace, type UncertaintyTrace } from './uncertainty';

export interface GateApi {
  /** Declarations of `ids`; with `into`, groups already shown come back re-rendered with them (same uri and symbol). */
  itemsForSymbols(req: PipelineRequest, ids: string[], source: 'followup', options?: { into?: ContextItem[]; doc?: boolean }): ContextItem[];
  fitToBudget(items: ContextItem[], budget: number): ContextItem[];
}

export type GateHook = (req: PipelineRequest, target: Target | undefined, items: ContextItem[], api: GateApi) => Promise<GateVerdict> | GateVerdict;

/** The verdict plus what the result also reports (τ in force, the evidence-uncertainty trace). */
export type RclVerdict = GateVerdict & { threshold: number; uncertainty: UncertaintyTrace };

/**
 * Default τ, calibrated with calibrateThreshold (step 0.05, cost = false-review rate +
 * false-confidence rate) on the pooled validation splits of the retrieval benchmark
 * (`node dist/bench/retrieval.bench.js --tasks 40 --validation 20`, commons-lang3, jsoup and
 * their -injected variants, 80 validation points; test splits never used). τ feeds back into the
 * points (below τ follow-up rounds run and raise confidence): calibrated 0.90 with τ = 0.7 in
 * force, 0.95 with τ = 0.9 in force; 0.95 is used. Recalibrated after follow-ups became
 * signature-only with FOLLOWUP_MIN_P: still 0.95 (pooled, 80 validation points); and again after the surface refit
 * (bench/surface, new routes and per-method mass): still 0.95, now flagging more (pooled validation false-review rate 0.79, false-confidence 0.06). Confidence is Π (1 − p × ν) over the uncovered
 * surface (confidence.ts), so τ = 0.95 tolerates about one uncovered symbol of probability ≤ 0.1.
 * RCL §10: recalibrate per deployment.
 */
export const DEFAULT_THRESHOLD = 0.95;
/** Symbols requested per follow-up round (the heaviest novelty × weight first). */
export const FOLLOWUP_PER_ROUND = 8;
/**
 * Follow-up items are scored relative to the best existing score, between FOLLOWUP_SCORE_BASE and
 * FOLLOWUP_SCORE_BASE + FOLLOWUP_SCORE_SPAN times it by novelty × weight of what they cover, so
 * budget fitting keeps them over weakly related items but not over the strongest one.
 */
export const FOLLOWUP_SCORE_BASE = 0.8;
export const FOLLOWUP_SCORE_SPAN = 0.19;
/**
 * Follow-up rounds fetch only surface entries at least this likely to be needed (calibrated p).
 * On the validation split (60 jsoup tasks) the rounds fetched ~14 entries a request, most with
 * p < 0.05, gold ~2 % of the time. Below 0.02 (p is a floor-level guess there) they are left
 * out; up to 0.05 they still paid for themselves in recall (~3 points for ~200 tokens, counted
 * with signature-only declarations packed into the groups already shown).
 */
export const FOLLOWUP_MIN_P = 0.02;
/** Missing symbols named in a review reason. */
export const REASON_SYMBOLS = 5;

function threshold(req: PipelineRequest): number {
  return Number.isFinite(req.threshold) ? req.threshold : DEFAULT_THRESHOLD;
}

/** The body of the target as the editor has it now (text after the declaration's first '{'). */
function bodyTextOf(req: PipelineRequest, target: Target): string | undefined {
  const text = req.textOf(target.ref.file.path);
  return text === undefined ? undefined : bodyInSpan(text, target.ref.sym.span);
}

/** The text after the first '{' of a declaration's lines (its body as written so far). */
export function bodyInSpan(text: string, span: { sl: number; el: number }): string | undefined {
  const lines = text.split(/\r?\n/).slice(span.sl, span.el + 1).join('\n');
  const i = lines.indexOf('{');
  return i >= 0 ? lines.slice(i + 1) : undefined;
}

function itemKey(it: ContextItem): string {
  return `${it.uri}:${it.range.start.line}-${it.range.end.line}:${it.symbol ?? ''}`;
}

/** A type-group item (one per file-level type, the cursor's own type's too); the cursor's own item is never one. */
function groupKey(it: ContextItem, target: Target | undefined): string | undefined {
  return it.symbol && it.symbol !== target?.ref.sym.id ? `${it.uri}#${it.symbol}` : undefined;
}

export const gate: GateHook = (req, target, items, api) => {
  const tau = threshold(req);
  const surfaceRaw = target ? dependencySurface(req.index, target, bodyTextOf(req, target)) : [];
  let current = items;
  let surface = markCovered(surfaceRaw, current);
  let conf = confidenceOf(surface);
  let rounds = 0;
  const notFound = new Set<string>();
  const droppedForBudget = new Set<string>();
  const maxRounds = Math.max(0, Math.floor(req.maxRounds ?? 0));

  while (conf.confidence < tau && rounds < maxRounds && !req.isCancelled?.()) {
    const missing = surface.filter((e) => !e.covered && !notFound.has(e.symbol) && e.weight >= FOLLOWUP_MIN_P)
      .sort((a, b) => b.novelty * b.weight - a.novelty * a.weight || b.weight - a.weight || (a.symbol < b.symbol ? -1 : 1));
    if (missing.length === 0) break;
    const ids = missing.slice(0, FOLLOWUP_PER_ROUND).map((e) => e.symbol);
    rounds++;
    // Signatures only, packed into the type groups already shown (no second header for a type).
    const fetched = api.itemsForSymbols(req, ids, 'followup', { into: current, doc: false });
    const have = new Set(current.map(itemKey));
    const groupAt = new Map<string, number>();
    current.forEach((it, i) => { const k = groupKey(it, target); if (k && !groupAt.has(k)) groupAt.set(k, i); });
    const top = Math.max(0, ...current.map((i) => (Number.isFinite(i.score) ? i.score : 0))) || 1;
    const added: ContextItem[] = [];
    const replaced = new Map<number, ContextItem>();
    for (const it of fetched) {
      if (have.has(itemKey(it)) && it.text === current.find((c) => itemKey(c) === itemKey(it))?.text) continue;
      have.add(itemKey(it));
      const gain = Math.max(0, ...missing.filter((e) => coversEntry(it, e)).map((e) => e.novelty * e.weight));
      const score = top * (FOLLOWUP_SCORE_BASE + FOLLOWUP_SCORE_SPAN * gain);
      const at = groupAt.get(groupKey(it, target) ?? '');
      const old = at === undefined ? undefined : current[at];
      const sources = [...new Set([...(old?.sources ?? []), ...it.sources, 'followup' as const])].sort();
      const next = { ...it, score: Math.max(it.score, old?.score ?? 0, score), sources };
      if (at === undefined) added.push(next);
      else replaced.set(at, next);
    }
    const changed = [...added, ...replaced.values()];
    for (const id of ids) if (!changed.some((it) => coversEntry(it, surface.find((e) => e.symbol === id)!))) notFound.add(id);
    if (changed.length === 0) continue;
    const merged = api.fitToBudget([...current.map((it, i) => replaced.get(i) ?? it), ...added].sort((a, b) => b.score - a.score), req.budgetTokens);
    const nextSurface = markCovered(surfaceRaw, merged);
    const next = confidenceOf(nextSurface);
    for (const e of nextSurface) if (!e.covered && changed.some((it) => coversEntry(it, e))) droppedForBudget.add(e.symbol);
    if (next.confidence < conf.confidence) break; // budget fitting evicted more than it brought
    current = merged;
    surface = nextSurface;
    conf = next;
  }

  const review = conf.confidence < tau;
  const reviewReasons = review ? reasonsFor(surface, conf, tau, rounds, notFound, droppedForBudget, target) : [];
  const verdict: RclVerdict = {
    coverage: round4(conf.coverage), novelty: round4(conf.novelty), confidence: round4(conf.confidence),
    review, reviewReasons, rounds, dependencySurface: surface, items: current, threshold: tau,
    uncertainty: uncertaintyTrace(current, { index: req.index, target, surface }),
  };
  return verdict;
};

function coversEntry(item: ContextItem, e: SurfaceEntry): boolean {
  return markCovered([e], [item])[0].covered;
}

function reasonsFor(surface: SurfaceEntry[], conf: { coverage: number; novelty: number; confidence: number }, tau: number, rounds: number,
  notFound: Set<string>, dropped: Set<string>, target: Target | undefined): string[] {
  const out: string[] = [];
  out.push(`confidence ${conf.confidence.toFixed(2)} < τ ${tau.toFixed(2)} after ${rounds} follow-up round${rounds === 1 ? '' : 's'} (coverage ${conf.coverage.toFixed(2)}, novelty of the uncovered surface ${conf.novelty.toFixed(2)})`);
  if (!target) out.push('the cursor is not inside a method or type: no dependency surface');
  const missing = surface.filter((e) => !e.covered).sort((a, b) => b.novelty * b.weight - a.novelty * a.weight || (a.symbol < b.symbol ? -1 : 1));
  if (missing.length) {
    const named = missing.slice(0, REASON_SYMBOLS).map((e) => `${shortName(e.symbol)} (novelty ${e.novelty.toFixed(2)}, weight ${e.weight.toFixed(2)}: ${e.reason ?? 'estimated dependency'})`);
    out.push(`${missing.length} internal symbol${missing.length === 1 ? '' : 's'} not in context: ${named.join(', ')}${missing.length > REASON_SYMBOLS ? ', …' : ''}`);
  }
  const nf = missing.filter((e) => notFound.has(e.symbol)).map((e) => shortName(e.symbol));
  if (nf.length) out.push(`follow-up retrieval found no declaration for: ${nf.slice(0, REASON_SYMBOLS).join(', ')}${nf.length > REASON_SYMBOLS ? ', …' : ''}`);
  const bd = missing.filter((e) => dropped.has(e.symbol)).map((e) => shortName(e.symbol));
  if (bd.length) out.push(`the token budget could not hold: ${bd.slice(0, REASON_SYMBOLS).join(', ')}${bd.length > REASON_SYMBOLS ? ', …' : ''}`);
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
