// Scoring of retrieveContext responses against the oracle's gold set, and per corpus × mode metrics.

import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ContextItem, GateFeatures, RetrievalResult, Scenario, SurfaceEntry } from '../../shared/protocol';
import { declaredName } from '../../server/src/gate/surface';
import type { GoldKind, GoldSymbol, Task } from './tasks';
import { javadocsShown, lineAttributedNoise, type GoldRegion, type TextOf } from './attribution';

export interface TaskScore {
  task: string;
  split: 'test' | 'validation';
  gold: number;
  found: number;
  recall: number;
  /** Strict: the found item also shows the declaration's name line verbatim (not elided). */
  foundStrict: number;
  crossGold: number;
  crossFound: number;
  fullyCovered: boolean;
  /** 1/rank of the first item containing a gold declaration; 0 if none. */
  rr: number;
  byKind: Record<GoldKind, { gold: number; found: number }>;
  tokens: number;
  noiseTokens: number;
  itemTokens: number;
  /** Shown tokens counted line by line, and those on lines outside every gold declaration (attribution.ts). */
  lineTokens: number;
  lineNoiseTokens: number;
  /** Gold declarations with a Javadoc, and those shown with it (attribution.ts javadocsShown; NaN when not measured). */
  goldDocs: number;
  docsShown: number;
  latencyMs: number;
  /** The server's own timings: the whole request and the gate stage (incl. follow-up rounds). */
  serverTotalMs: number;
  gateMs: number;
  confidence: number;
  coverage: number;
  review: boolean;
  rounds: number;
  missing: string[];
  /** The scenario the server judged and the evidence behind its confidence (rcl mode). */
  judgedScenario?: Scenario;
  features?: GateFeatures;
  /** How well the estimated dependency surface D̂(q) the server reported covers the gold (rcl mode). */
  surface?: SurfaceRecall;
  /** Each gold symbol the context lacks, with where retrieval and the gate stood on it (requests with `explain`). */
  missedGold?: MissedGold[];
}

/**
 * A gold symbol the context lacks, as structured data for the diagnosis of insufficient contexts:
 * what it is (a member of the target's own class, a type or member elsewhere in the workspace),
 * whether D̂(q) held it (its p and strongest route), and whether packing weighed it (its member-model p).
 */
export interface MissedGold {
  kind: GoldKind;
  /** own-class: a member of the target's class (or the class itself); workspace: any other workspace declaration. */
  where: 'own-class' | 'workspace';
  crossFile: boolean;
  onSurface: boolean;
  surfaceP: number;
  route?: string;
  /** The entry's routes, strongest first. */
  routes?: string[];
  candidate: boolean;
  candidateP: number;
}

/** Owner type of an id: `a.B#m(int)` → `a.B`; a type is its own owner. */
const ownerOf = (id: string) => (id.includes('#') ? id.slice(0, id.indexOf('#')) : id);

export function missedGoldOf(task: Task, res: RetrievalResult, roots: string | string[], found: boolean[]): MissedGold[] {
  const entries = entriesByKey(res.dependencySurface ?? [], roots);
  const cands = new Map((res.weighedCandidates ?? []).map((c) => [c.symbol, c.p]));
  const own = ownerOf(task.id);
  return task.gold.flatMap((g, i) => {
    if (found[i]) return [];
    const e = entries.get(key(g.file, g.maskedLine, g.name));
    return [{
      kind: g.kind, where: ownerOf(g.qualified) === own ? 'own-class' as const : 'workspace' as const, crossFile: g.crossFile,
      onSurface: !!e, surfaceP: e?.weight ?? 0, ...(e?.routes?.length ? { route: e.routes[0], routes: e.routes } : {}),
      candidate: cands.has(g.qualified), candidateP: cands.get(g.qualified) ?? 0,
    }];
  });
}

/**
 * The estimated dependency surface D̂(q) against the gold of one task: its recall (gold symbols that
 * are entries of D̂) and precision (estimated entries that are gold), and where the gold the context
 * lacks stands. An entry matches a gold symbol by file, name line and declared name.
 */
export interface SurfaceRecall {
  gold: number;
  /** Gold symbols that are entries of D̂ (written or estimated). */
  onSurface: number;
  /** Estimated (not written) entries of D̂, those that are gold, and their Σ p. */
  estimated: number;
  estimatedGold: number;
  mass: number;
  massOnGold: number;
  /** Gold symbols missing from the context: on D̂ (uncovered there) or not on D̂ at all. */
  missedOnSurface: number;
  missedOffSurface: number;
  /** p of each gold symbol on D̂ (0 when it is not an entry), in gold order. */
  goldP: number[];
}

/** D̂(q) against a task's gold (SurfaceRecall); `found[i]`: gold i is in the context. */
/** An entry matches a gold symbol by file, name line and declared name. */
const key = (file: string | undefined, line: number | undefined, name: string) => `${file}\u0000${line}\u0000${name}`;
function entriesByKey(surface: readonly SurfaceEntry[], roots: string | string[]): Map<string, SurfaceEntry> {
  const entries = new Map<string, SurfaceEntry>();
  for (const e of surface) if (e.uri && e.line !== undefined) entries.set(key(relPathOfUri(e.uri, roots), e.line, declaredName(e.symbol)), e);
  return entries;
}

export function surfaceRecallOf(gold: GoldSymbol[], surface: SurfaceEntry[], roots: string | string[], found: boolean[]): SurfaceRecall {
  const entries = entriesByKey(surface, roots);
  const goldKeys = new Set(gold.map((g) => key(g.file, g.maskedLine, g.name)));
  const onGold = gold.map((g) => entries.get(key(g.file, g.maskedLine, g.name)));
  const estimated = surface.filter((e) => !e.written);
  const isGold = (e: SurfaceEntry) => !!e.uri && e.line !== undefined && goldKeys.has(key(relPathOfUri(e.uri, roots), e.line, declaredName(e.symbol)));
  const estGold = estimated.filter(isGold);
  return {
    gold: gold.length, onSurface: onGold.filter((e) => e).length,
    estimated: estimated.length, estimatedGold: estGold.length,
    mass: round4(estimated.reduce((a, e) => a + e.weight, 0)), massOnGold: round4(estGold.reduce((a, e) => a + e.weight, 0)),
    missedOnSurface: onGold.filter((e, i) => e && !found[i]).length, missedOffSurface: onGold.filter((e, i) => !e && !found[i]).length,
    goldP: onGold.map((e) => e?.weight ?? 0),
  };
}

/** Pooled D̂ figures of many tasks: micro recall and precision, and the share of missed gold that was not on D̂. */
export function surfaceRecallSummary(rs: SurfaceRecall[]): { tasks: number; recall: number; precision: number; massPrecision: number; missedOffShare: number; meanEstimated: number } {
  const sum = (f: (r: SurfaceRecall) => number) => rs.reduce((a, r) => a + f(r), 0);
  const missed = sum((r) => r.missedOnSurface + r.missedOffSurface);
  return {
    tasks: rs.length,
    recall: sum((r) => r.gold) ? sum((r) => r.onSurface) / sum((r) => r.gold) : NaN,
    precision: sum((r) => r.estimated) ? sum((r) => r.estimatedGold) / sum((r) => r.estimated) : NaN,
    massPrecision: sum((r) => r.mass) > 0 ? sum((r) => r.massOnGold) / sum((r) => r.mass) : NaN,
    missedOffShare: missed ? sum((r) => r.missedOffSurface) / missed : NaN,
    meanEstimated: rs.length ? sum((r) => r.estimated) / rs.length : NaN,
  };
}

function round4(x: number): number {
  return Math.round(x * 10000) / 10000;
}

export const KINDS: GoldKind[] = ['method', 'constructor', 'field', 'type'];

/**
 * Relative path (with '/') of an item's file under the first of `roots` that holds it (the
 * workspace, then e.g. a dependency's source folder), or undefined when outside them all.
 */
export function relPathOfUri(uri: string, roots: string | string[]): string | undefined {
  let p: string;
  try { p = fileURLToPath(uri); } catch { return undefined; }
  for (const root of typeof roots === 'string' ? [roots] : roots) {
    const r = relative(root, p);
    if (!r.startsWith('..')) return r.split(sep).join('/');
  }
  return undefined;
}

/**
 * A gold symbol is found by an item of its declaring file that spans its name line and whose text
 * contains the name; `byName` drops the line condition (a class-file stub has other lines).
 */
export function itemHolds(item: ContextItem, rel: string | undefined, g: GoldSymbol, byName = false): boolean {
  return rel === g.file && (byName || (item.range.start.line <= g.maskedLine && g.maskedLine <= item.range.end.line)) && item.text.includes(g.name);
}

/**
 * `roots`: the workspace, then e.g. a dependency's source folder. `lines`: the gold declarations'
 * regions and the files' current text (attribution.ts); without them line-attributed noise is not
 * measured (NaN). `byName(g)`: score that gold symbol by file and name only (see itemHolds).
 */
export function scoreResponse(task: Task, res: RetrievalResult, roots: string | string[], latencyMs: number, lines?: { regions: GoldRegion[]; textOf: TextOf }, byName: (g: GoldSymbol) => boolean = () => false): TaskScore {
  const rels = res.items.map((it) => relPathOfUri(it.uri, roots));
  const byKind = Object.fromEntries(KINDS.map((k) => [k, { gold: 0, found: 0 }])) as TaskScore['byKind'];
  let found = 0, crossGold = 0, crossFound = 0, foundStrict = 0;
  const missing: string[] = [];
  const itemHasGold = res.items.map(() => false);
  const goldFound: boolean[] = [];
  for (const g of task.gold) {
    let hit = false;
    const loose = byName(g);
    res.items.forEach((it, i) => { if (itemHolds(it, rels[i], g, loose)) { hit = true; itemHasGold[i] = true; } });
    byKind[g.kind].gold++;
    if (g.crossFile) crossGold++;
    if (hit && res.items.some((it, i) => itemHolds(it, rels[i], g, loose) && it.text.includes(g.lineText))) foundStrict++;
    goldFound.push(hit);
    if (hit) {
      found++;
      byKind[g.kind].found++;
      if (g.crossFile) crossFound++;
    } else missing.push(g.qualified);
  }
  const first = itemHasGold.indexOf(true);
  let noise = 0, itemTokens = 0;
  res.items.forEach((it, i) => { itemTokens += it.tokens; if (!itemHasGold[i]) noise += it.tokens; });
  const lineNoise = lines ? lineAttributedNoise(res.items, rels, lines.regions, lines.textOf) : { tokens: NaN, noiseTokens: NaN };
  const docs = lines ? javadocsShown(res.items, rels, lines.regions, lines.textOf) : { docs: NaN, shown: NaN };
  return {
    task: task.id, split: task.split, gold: task.gold.length, found, recall: task.gold.length ? found / task.gold.length : 1, foundStrict,
    crossGold, crossFound, fullyCovered: found === task.gold.length, rr: first >= 0 ? 1 / (first + 1) : 0,
    byKind, tokens: res.tokens, noiseTokens: noise, itemTokens, lineTokens: lineNoise.tokens, lineNoiseTokens: lineNoise.noiseTokens, goldDocs: docs.docs, docsShown: docs.shown, latencyMs,
    serverTotalMs: res.timingsMs?.total ?? NaN, gateMs: res.timingsMs?.gate ?? 0,
    confidence: res.confidence, coverage: res.coverage, review: res.review, rounds: res.rounds, missing,
    ...(res.scenario ? { judgedScenario: res.scenario } : {}), ...(res.gateFeatures ? { features: res.gateFeatures } : {}),
    ...(res.gateFeatures ? { surface: surfaceRecallOf(task.gold, res.dependencySurface ?? [], roots, goldFound) } : {}),
    ...(res.weighedCandidates ? { missedGold: missedGoldOf(task, res, roots, goldFound) } : {}),
  };
}

/** Identical JSON ignoring timingsMs. */
export function sameResult(a: RetrievalResult, b: RetrievalResult): boolean {
  const strip = (r: RetrievalResult) => JSON.stringify({ ...r, timingsMs: undefined });
  return strip(a) === strip(b);
}

export function quantile(xs: number[], q: number): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))];
}
export const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
/** Pearson's correlation of two equally long series; NaN where it is undefined (no variance, no points). */
export function pearson(a: number[], b: number[]): number {
  const [ma, mb] = [mean(a), mean(b)];
  let ab = 0, aa = 0, bb = 0;
  for (let i = 0; i < a.length; i++) { ab += (a[i] - ma) * (b[i] - mb); aa += (a[i] - ma) ** 2; bb += (b[i] - mb) ** 2; }
  return ab / Math.sqrt(aa * bb);
}
export const median = (xs: number[]) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** AUROC of `score` for predicting `label` (Mann-Whitney, ties count ½); null when a class is empty. */
export function auroc(points: { score: number; label: boolean }[]): number | null {
  const pos = points.filter((p) => p.label).map((p) => p.score);
  const neg = points.filter((p) => !p.label).map((p) => p.score);
  if (!pos.length || !neg.length) return null;
  let s = 0;
  for (const p of pos) for (const n of neg) s += p > n ? 1 : p === n ? 0.5 : 0;
  return s / (pos.length * neg.length);
}

export interface ModeMetrics {
  tasks: number;
  recallMicro: number;
  recallMacro: number;
  /** Micro recall under the strict criterion (name line shown verbatim). */
  recallStrict: number;
  crossFileRecall: number;
  fullCoverageRate: number;
  mrr: number;
  recallByKind: Record<GoldKind, number | null>;
  tokensMean: number;
  tokensMedian: number;
  tokensMax: number;
  /** Item-level: tokens of items holding no gold declaration / all item tokens. */
  noiseRatio: number;
  /** Line-attributed: tokens on lines outside every gold declaration / all shown tokens (NaN when not measured). */
  lineNoiseRatio: number;
  /** Of gold declarations with a Javadoc, the share shown with it (NaN when not measured or none). */
  docRecall: number;
  /**
   * Recall counting a gold declaration's Javadoc as a needed unit of its own: (found + Javadocs
   * shown) / (gold + gold Javadocs). What the packing fit's knee is taken over.
   */
  contractRecall: number;
  latencyP50Ms: number;
  latencyP95Ms: number;
  meanRounds: number;
  /**
   * What the gate adds to the median request: median server total / median (total − gate) − 1
   * (timingsMs of the server, so transport is excluded).
   */
  gateOverheadMedian: number;
  /** Median over requests of gate / (total − gate): steadier than the ratio of medians on a busy machine. */
  gateOverheadPerRequestMedian: number;
  /** The gate's share of the median request: 1 − median(total − gate) / median(total) (the "≤ 20 % of median latency"). */
  gateShareOfMedian: number;
  serverMedianMs: number;
}

export interface GateMetrics {
  auroc: number | null;
  /** Unreviewed yet not fully covered / not fully covered (null without such tasks). */
  falseConfidenceRate: number | null;
  /** Reviewed yet fully covered / fully covered (null without such tasks). */
  falseReviewRate: number | null;
  falseConfidenceCount: number;
  falseReviewCount: number;
  reviewOverhead: number;
  coverageMAE: number;
}

export function modeMetrics(scores: TaskScore[]): ModeMetrics {
  const sum = (f: (s: TaskScore) => number) => scores.reduce((a, s) => a + f(s), 0);
  const gold = sum((s) => s.gold), cross = sum((s) => s.crossGold), items = sum((s) => s.itemTokens), lineTokens = sum((s) => s.lineTokens);
  const byKind = Object.fromEntries(KINDS.map((k) => {
    const g = sum((s) => s.byKind[k].gold);
    return [k, g ? sum((s) => s.byKind[k].found) / g : null];
  })) as Record<GoldKind, number | null>;
  const lat = scores.map((s) => s.latencyMs);
  return {
    tasks: scores.length,
    recallMicro: gold ? sum((s) => s.found) / gold : NaN,
    recallMacro: mean(scores.map((s) => s.recall)),
    recallStrict: gold ? sum((s) => s.foundStrict) / gold : NaN,
    crossFileRecall: cross ? sum((s) => s.crossFound) / cross : NaN,
    fullCoverageRate: mean(scores.map((s) => (s.fullyCovered ? 1 : 0))),
    mrr: mean(scores.map((s) => s.rr)),
    recallByKind: byKind,
    tokensMean: mean(scores.map((s) => s.tokens)),
    tokensMedian: median(scores.map((s) => s.tokens)),
    tokensMax: Math.max(0, ...scores.map((s) => s.tokens)),
    noiseRatio: items ? sum((s) => s.noiseTokens) / items : 0,
    lineNoiseRatio: lineTokens > 0 ? sum((s) => s.lineNoiseTokens) / lineTokens : lineTokens === 0 ? 0 : NaN,
    docRecall: sum((s) => s.goldDocs) > 0 ? sum((s) => s.docsShown) / sum((s) => s.goldDocs) : NaN,
    contractRecall: gold + sum((s) => s.goldDocs) > 0 ? (sum((s) => s.found) + sum((s) => s.docsShown)) / (gold + sum((s) => s.goldDocs)) : NaN,
    latencyP50Ms: quantile(lat, 0.5),
    latencyP95Ms: quantile(lat, 0.95),
    meanRounds: mean(scores.map((s) => s.rounds)),
    serverMedianMs: median(scores.map((s) => s.serverTotalMs)),
    gateOverheadPerRequestMedian: median(scores.map((s) => s.gateMs / Math.max(1e-9, s.serverTotalMs - s.gateMs))),
    gateOverheadMedian: median(scores.map((s) => s.serverTotalMs)) / median(scores.map((s) => s.serverTotalMs - s.gateMs)) - 1,
    gateShareOfMedian: gateShareOfMedian(scores.map((s) => ({ gateMs: s.gateMs, serverMs: s.serverTotalMs }))),
  };
}

/** Gate quality; `reviewAt` overrides the server's review flag (e.g. confidence < calibrated τ). */
export function gateMetrics(scores: TaskScore[], reviewAt?: (s: TaskScore) => boolean): GateMetrics {
  const rev = reviewAt ?? ((s: TaskScore) => s.review);
  const covered = scores.filter((s) => s.fullyCovered), notCovered = scores.filter((s) => !s.fullyCovered);
  const fc = notCovered.filter((s) => !rev(s)).length;
  const fr = covered.filter((s) => rev(s)).length;
  return {
    auroc: auroc(scores.map((s) => ({ score: s.confidence, label: s.fullyCovered }))),
    falseConfidenceRate: notCovered.length ? fc / notCovered.length : null,
    falseReviewRate: covered.length ? fr / covered.length : null,
    falseConfidenceCount: fc,
    falseReviewCount: fr,
    reviewOverhead: mean(scores.map((s) => (rev(s) ? 1 : 0))),
    coverageMAE: mean(scores.map((s) => Math.abs(s.coverage - s.recall))),
  };
}

/** The gate's share of the median request's server time: 1 − median(total − gate) / median(total); NaN without timings. */
export function gateShareOfMedian(requests: { gateMs?: number; serverMs?: number }[]): number {
  const timed = requests.filter((r) => Number.isFinite(r.serverMs) && Number.isFinite(r.gateMs));
  if (!timed.length) return NaN;
  const total = median(timed.map((r) => r.serverMs!));
  return total > 0 ? 1 - median(timed.map((r) => r.serverMs! - r.gateMs!)) / total : NaN;
}
