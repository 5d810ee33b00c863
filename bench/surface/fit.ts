// Fits one scenario's route table (server/src/gate/surface.ts ROUTE_TABLES) on collected
// candidates and scores a table: p = σ(bias + Σ_route (slope · strongest weight + offset)), one
// slope and one offset column per route, intercept unpenalised. The written-evidence routes
// (body-ref, body-text) keep their set values, and their rows are left out of the fit: a written
// reference is certain, and in the partial-body sample it is never gold (gold = first used after the cut).

import type { SurfaceEntry } from '../../shared/protocol';
import { confidenceOf } from '../../server/src/gate/confidence';
import { boundSurface, MAX_SURFACE, massScale, normalizedMass, EVIDENCE_ROUTE_LOGIT, routeProbability, routeWeights, type RouteHint, type RouteTable } from '../../server/src/gate/surface';
import { auroc } from '../retrieval/score';
import { fitLogistic } from './logistic';
import type { TaskRows } from './collect';

/** Routes of written evidence: set in surface.ts, not fitted. */
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
export function fitTable(tasks: TaskRows[], routes: string[], l2: number, massRounds = 0, prior?: RouteTable): RouteTable & { iterations: number; converged: boolean } {
  const x: number[][] = [], y: number[] = [], taskOf: number[] = [];
  const withEvidence = tasks.map((t) => t.rows.some((r) => evidenceOf(r.reasons)));
  tasks.forEach((t, ti) => { for (const r of t.rows) if (!evidenceOf(r.reasons)) { x.push(design(r.reasons, routes)); y.push(r.gold ? 1 : 0); taskOf.push(ti); } });
  // With a prior table the fit is of the difference from it (β = β_prior + δ, L2 on δ): a small
  // sample moves the prior's coefficients only as far as its evidence goes.
  const base = [prior?.bias ?? 0, ...routes.flatMap((k) => [...(prior?.logit[k] ?? [0, 0])])];
  const priorZ = x.map((row) => row.reduce((z, v, j) => z + v * base[j], 0));
  let fit = fitLogistic(x, y, { l2, unpenalised: [0], offsets: priorZ });
  const beta = () => fit.beta.map((b, j) => b + base[j]);
  for (let round = 0; round < massRounds; round++) {
    const mass = new Array<number>(tasks.length).fill(0);
    const b = beta();
    x.forEach((row, i) => { let z = 0; row.forEach((v, j) => { z += v * b[j]; }); mass[taskOf[i]] += 1 / (1 + Math.exp(-z)); });
    const offsets = taskOf.map((ti, i) => priorZ[i] + Math.log(massScale(mass[ti], withEvidence[ti])));
    fit = fitLogistic(x, y, { l2, unpenalised: [0], offsets });
  }
  const b = beta();
  const logit: Record<string, readonly [number, number]> = {};
  for (const k of UNFITTED_ROUTES) logit[k] = EVIDENCE_ROUTE_LOGIT[k as keyof typeof EVIDENCE_ROUTE_LOGIT];
  routes.forEach((k, j) => { logit[k] = [round2(b[1 + 2 * j]), round2(b[2 + 2 * j])]; });
  return { bias: round2(b[0]), logit, iterations: fit.iterations, converged: fit.converged };
}

export interface Scores {
  candidates: number;
  gold: number;
  /** Share of gold symbols that are candidates at all / on the bounded surface (written entries plus the top MAX_SURFACE estimated by p, as the gate bounds it). */
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
    const { ps, order } = boundedRows(t, p, massOf);
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

/** A task's rows priced by `p` (scaled per task as the gate does unless `massOf` is false) and the row indices on the bounded surface, heaviest first. */
export function boundedRows(t: TaskRows, p: (t: TaskRows, i: number) => number, massOf = true): { ps: number[]; order: number[] } {
  const ps = massOf ? normalizedMass(t.rows.map((_, i) => p(t, i)), t.rows.map((r) => evidenceOf(r.reasons))) : t.rows.map((_, i) => p(t, i));
  const order = boundSurface(t.rows.map((_, i) => i).sort((a, b) => ps[b] - ps[a] || (t.rows[a].symbol < t.rows[b].symbol ? -1 : 1)), (i) => t.rows[i].reasons.some((r) => r.route === 'body-ref'), MAX_SURFACE);
  return { ps, order };
}

/**
 * Of the gold rows the bounded surface under `base` leaves out, the share the bounded surface
 * under `p` holds (the gold a route change is meant to reach; gold never a candidate is not a row).
 */
export function recallOfMissed(tasks: TaskRows[], base: (t: TaskRows, i: number) => number, p: (t: TaskRows, i: number) => number): { missed: number; reached: number } {
  let missed = 0, reached = 0;
  for (const t of tasks) {
    const before = new Set(boundedRows(t, base).order);
    const after = new Set(boundedRows(t, p).order);
    t.rows.forEach((r, i) => { if (r.gold && !before.has(i)) { missed++; if (after.has(i)) reached++; } });
  }
  return { missed, reached };
}

/**
 * Out-of-fold probabilities, each task scored by a table fitted on the other folds: `folds` a
 * number deals the tasks round-robin (in collection order); 'corpus' holds one corpus out at a time.
 * The evidence routes keep their set values (they are not fitted). `priorFor`: the prior table of
 * a fold, from what it holds out (fitted without the held-out methods, so nothing leaks).
 */
export function crossValidated(tasks: TaskRows[], routes: string[], l2: number, folds: number | 'corpus', massRounds = 0, priorFor?: (heldOut: TaskRows[]) => RouteTable): Map<TaskRows, number[]> {
  const out = new Map<TaskRows, number[]>();
  const foldOf = folds === 'corpus' ? corpusFolds(tasks) : tasks.map((_, i) => i % folds);
  const n = Math.max(0, ...foldOf) + 1;
  for (let f = 0; f < n; f++) {
    const train = tasks.filter((_, i) => foldOf[i] !== f);
    const table = fitTable(train, routes, l2, massRounds, priorFor?.(tasks.filter((_, i) => foldOf[i] === f)));
    tasks.forEach((t, i) => {
      if (foldOf[i] === f) out.set(t, t.rows.map((r) => routeProbability(table, r.reasons)));
    });
  }
  return out;
}

function corpusFolds(tasks: TaskRows[]): number[] {
  const names = [...new Set(tasks.map((t) => t.corpus))].sort();
  return tasks.map((t) => names.indexOf(t.corpus));
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
