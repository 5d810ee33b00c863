// Fits the gate's route table (server/src/gate/surface.ts ROUTE_BIAS/ROUTE_LOGIT) on collected
// candidates and scores a table: p = σ(bias + Σ_route (slope · strongest weight + offset)), one
// slope and one offset column per route, intercept unpenalised. Partial-body routes (body-ref,
// body-text) never occur with emptied bodies and are left to the hand-set values.

import type { SurfaceEntry } from '../../shared/protocol';
import { confidenceOf } from '../../server/src/gate/confidence';
import { MAX_MASS_SCALE, MAX_SURFACE, normalizedMass, SURFACE_MASS, ROUTE_LOGIT, EVIDENCE_ROUTE_LOGIT, routeProbability, routeWeights, type RouteHint, type RouteTable } from '../../server/src/gate/surface';
import { auroc } from '../retrieval/score';
import { fitLogistic } from './logistic';
import type { TaskRows } from './collect';

/** Routes the sample cannot fit (bodies are emptied): their entries are copied from the current table. */
/** Routes of partial-body evidence: set in surface.ts, not fitted (the sample has emptied bodies). */
export const UNFITTED_ROUTES: string[] = Object.keys(EVIDENCE_ROUTE_LOGIT);

const evidenceOf = (reasons: RouteHint[]) => [...routeWeights(reasons).keys()].some((k) => UNFITTED_ROUTES.includes(k));

export function routesOf(tasks: TaskRows[]): string[] {
  const s = new Set<string>();
  for (const t of tasks) for (const r of t.rows) for (const k of routeWeights(r.reasons).keys()) if (!UNFITTED_ROUTES.includes(k)) s.add(k);
  return [...s].sort();
}

function design(reasons: RouteHint[], routes: string[]): number[] {
  const x = new Array<number>(1 + 2 * routes.length).fill(0);
  x[0] = 1;
  for (const [k, w] of routeWeights(reasons)) {
    const j = routes.indexOf(k);
    if (j >= 0) { x[1 + 2 * j] = w; x[2 + 2 * j] = 1; }
  }
  return x;
}

/**
 * The table by IRLS. With `massRounds` > 0 it is fitted as the gate uses it, scaled per method
 * (normalizedMass): each round fixes every row's offset at log(its method's scale) under the
 * previous fit and refits, so the table learns the ranking within a method, not the method's mass.
 */
export function fitTable(tasks: TaskRows[], routes: string[], l2: number, massRounds = 0): RouteTable & { iterations: number; converged: boolean } {
  const x: number[][] = [], y: number[] = [], taskOf: number[] = [];
  tasks.forEach((t, ti) => { for (const r of t.rows) { x.push(design(r.reasons, routes)); y.push(r.gold ? 1 : 0); taskOf.push(ti); } });
  let fit = fitLogistic(x, y, { l2, unpenalised: [0] });
  for (let round = 0; round < massRounds; round++) {
    const mass = new Array<number>(tasks.length).fill(0);
    x.forEach((row, i) => { let z = 0; row.forEach((v, j) => { z += v * fit.beta[j]; }); mass[taskOf[i]] += 1 / (1 + Math.exp(-z)); });
    const offsets = taskOf.map((ti) => Math.log(mass[ti] > 0 ? Math.min(MAX_MASS_SCALE, SURFACE_MASS / mass[ti]) : 1));
    fit = fitLogistic(x, y, { l2, unpenalised: [0], offsets });
  }
  const logit: Record<string, readonly [number, number]> = {};
  for (const k of UNFITTED_ROUTES) logit[k] = ROUTE_LOGIT[k];
  routes.forEach((k, j) => { logit[k] = [round2(fit.beta[1 + 2 * j]), round2(fit.beta[2 + 2 * j])]; });
  return { bias: round2(fit.beta[0]), logit, iterations: fit.iterations, converged: fit.converged };
}

export interface Scores {
  candidates: number;
  gold: number;
  /** Share of gold symbols that are candidates at all / on the bounded surface (p ≥ top MAX_SURFACE by p). */
  candidateRecall: number;
  surfaceRecall: number;
  logLoss: number;
  auroc: number | null;
  precisionAt: { p: number; entries: number; precision: number; recall: number }[];
  /** Task level, no follow-up round: AUROC of the replayed confidence for "every gold symbol retrieved". */
  taskAuroc: number | null;
  tasks: number;
  fullyCovered: number;
  meanSurfaceMass: number;
}

/** Scores probabilities `p(task, row index)` over tasks, scaled per task as the gate does (normalizedMass) unless `massOf` is false. */
export function score(tasks: TaskRows[], p: (t: TaskRows, i: number) => number, massOf = true): Scores {
  let gold = 0, onCand = 0, onSurface = 0, ll = 0, n = 0, mass = 0;
  const pts: { score: number; label: boolean }[] = [];
  const taskPts: { score: number; label: boolean }[] = [];
  for (const t of tasks) {
    gold += t.gold.length;
    const ps = massOf ? normalizedMass(t.rows.map((_, i) => p(t, i)), t.rows.map((r) => evidenceOf(r.reasons))) : t.rows.map((_, i) => p(t, i));
    const order = t.rows.map((_, i) => i).sort((a, b) => ps[b] - ps[a] || (t.rows[a].symbol < t.rows[b].symbol ? -1 : 1)).slice(0, MAX_SURFACE);
    const surface: SurfaceEntry[] = order.map((i) => ({ symbol: t.rows[i].symbol, kind: 'method', internal: true, covered: t.rows[i].covered, novelty: t.rows[i].novelty, weight: ps[i] }));
    taskPts.push({ score: confidenceOf(surface).confidence, label: t.fullyCovered });
    for (const i of order) { if (t.rows[i].gold) onSurface++; mass += ps[i]; }
    t.rows.forEach((r, i) => {
      const q = Math.min(1 - 1e-9, Math.max(1e-9, ps[i]));
      ll -= r.gold ? Math.log(q) : Math.log(1 - q);
      n++;
      if (r.gold) onCand++;
      pts.push({ score: ps[i], label: r.gold });
    });
  }
  const precisionAt = [0.02, 0.05, 0.1, 0.2, 0.3, 0.5].map((th) => {
    const sel = pts.filter((x) => x.score >= th);
    const hit = sel.filter((x) => x.label).length;
    return { p: th, entries: sel.length, precision: sel.length ? hit / sel.length : NaN, recall: gold ? hit / gold : NaN };
  });
  return {
    candidates: n, gold, candidateRecall: gold ? onCand / gold : NaN, surfaceRecall: gold ? onSurface / gold : NaN,
    logLoss: n ? ll / n : NaN, auroc: auroc(pts), precisionAt, taskAuroc: auroc(taskPts),
    tasks: tasks.length, fullyCovered: tasks.filter((t) => t.fullyCovered).length, meanSurfaceMass: tasks.length ? mass / tasks.length : NaN,
  };
}

/** Out-of-fold probabilities: tasks dealt round-robin (in collection order) into `folds` folds, each scored by a table fitted on the others. */
export function crossValidated(tasks: TaskRows[], routes: string[], l2: number, folds: number, massRounds = 0): Map<TaskRows, number[]> {
  const out = new Map<TaskRows, number[]>();
  for (let f = 0; f < folds; f++) {
    const train = tasks.filter((_, i) => i % folds !== f);
    const table = fitTable(train, routes, l2, massRounds);
    tasks.forEach((t, i) => {
      if (i % folds === f) out.set(t, t.rows.map((r) => routeProbability(table, r.reasons)));
    });
  }
  return out;
}

/** Per route: candidates it reaches, precision, and share of all gold it reaches. */
export function routeStats(tasks: TaskRows[]): { route: string; entries: number; precision: number; goldShare: number }[] {
  const m = new Map<string, { n: number; g: number }>();
  let gold = 0;
  for (const t of tasks) {
    gold += t.gold.length;
    for (const r of t.rows) for (const k of routeWeights(r.reasons).keys()) {
      const s = m.get(k) ?? { n: 0, g: 0 };
      s.n++; if (r.gold) s.g++;
      m.set(k, s);
    }
  }
  return [...m].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([route, s]) => ({ route, entries: s.n, precision: s.g / s.n, goldShare: gold ? s.g / gold : NaN }));
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}
