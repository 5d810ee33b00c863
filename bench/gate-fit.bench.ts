// `npm run fit:gate`: fits the gate's calibrated confidence (server/src/gate/calibration.ts) on the
// VALIDATION splits of the retrieval benchmark only, pooled across the development corpora (and
// their -injected variants when present) and the three scenarios, and writes the coefficients and
// τ per scenario to server/data/gate-model.json. Test splits are never run.
//
//   node dist/bench/gate-fit.bench.js [--tasks N] [--validation M] [--corpus NAME]... [--seed S] [--budget T] [--review-target [SCENARIO=]R]... [--from REPORT.json]... [--imports masked|kept]
//
// --imports masked|kept: masked (default) blanks the imports only the hidden code used, as an editor
// would not have them yet (bench/retrieval/tasks.ts ImportProtocol); kept is the old protocol, for comparison.
//
// --tasks N (default 40): how many tasks of the seeded order the test splits take; validation tasks
// are the M after them, as in every other benchmark, so no run with --tasks ≤ N shares a task.
//
// --from (repeatable) reuses the validation records of retrieval reports (bench/out/retrieval-report.json)
// or of earlier runs of this bench (bench/out/gate-fit-records-A-B.json, tasks A to B of the seeded
// order) instead of running the validation split again; several are pooled. The model in force is
// fitted on three runs' records, tasks 41-80 (the defaults), 81-120 (--tasks 80 --validation 40)
// and 121-160 (--tasks 120 --validation 40): a model fitted on the first scored partial bodies at
// AUROC 0.81 held out there and 0.61 on the second run's tasks, so 40 tasks per corpus are too few
// to fit or choose evidence on. The records carry the structured GateFeatures
// the server computed; nothing is parsed out of reason strings. The fit never reads a test
// record; with --from it also prints the reports' test splits re-scored under the new model
// (features as recorded, so follow-up stopped at the τ in force during that run).
//
// Model: L2-penalised logistic regression (IRLS, bench/surface/logistic.ts; λ = GATE_L2, the
// per-scenario intercepts unpenalised; new and partial bodies share one slope set, plus the
// per-scenario slopes calibration.ts declares; a scenario with fewer than MIN_EVENTS_FOR_SLOPES
// insufficient records gets its intercept only), label = the context holds every gold symbol.
// It prints, besides the in-sample figures, each corpus family (a corpus with its -injected
// variant) scored by a fit on the others: the honest check that the slopes generalise, and what
// the review policy is chosen on. Calibration on an unseen corpus: one intercept shift per
// scenario, fitted on those held-out predictions, is adopted where it lowers ECE on families left
// out of the shift's own fit too. τ per scenario (step 0.01), on the shifted held-out predictions:
// among the τ whose review share stays ≤ the review target (REVIEW_TARGET: 0.2 for new and
// partial bodies, 0.03 for existing ones; `--review-target`), the one with the least false-review
// + false-confidence rate. It also prints the review share held-out predictions need for false
// confidence ≤ 10 % of tasks, the ECE noise floor at test-split sizes, what insufficient contexts
// lack (missedGoldTable), and with --try each evidence added to or removed from the model.
//
// --try [--with E,…] [--without E,…]: the candidate table against the model in force, or against
// it with those columns added / removed (a forward or backward step at a time).
//
// --ceiling: a reference, never a model: the model in force's columns plus one that no request can
// know, how many symbols the code still to write uses (the gold count), scored leaving one corpus
// out. What a perfect estimate of the body's size would add says how far structural evidence of
// that kind can take AUROC on these records.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GateFeatures } from '../shared/protocol';
import { calibratedConfidence, checkedModel, columnsFor, estimatedConfidence, designRow, EVIDENCE_NAMES, GATE_COLUMNS, JUDGED_SCENARIOS, monotoneSign, SHARED, TO_WRITE, UNPENALISED_COLUMNS, writtenFactorOf, type Evidence, type GateModel, type JudgedScenario } from '../server/src/gate/calibration';
import { arg, args, corpusSourceRoot, importProtocolArg } from './cli';
import { DEVELOPMENT_CORPORA, INJECTED_CORPORA } from './corpora/list.mjs';
import { calibrationMetrics, eceNoiseFloor, reviewShareFor, thresholdFor, type CalibrationMetrics } from './retrieval/calibration';
import { gateShareOfMedian, pearson, surfaceRecallSummary } from './retrieval/score';
import { runCorpus, type CorpusReport, type ScenarioReport } from './retrieval/run';
import type { MissedGold } from './retrieval/score';

type Validation = ScenarioReport['validation'][number];
import { loadOracle, sampleTasks } from './retrieval/tasks';
import { fitLogistic, sigmoid } from './surface/logistic';

const ROOT = process.cwd();
export const GATE_L2 = 1;
/** Insufficient validation records a scenario needs before any slope is fitted for it (events per variable: fewer than ten cannot pin one slope). */
export const MIN_EVENTS_FOR_SLOPES = 10;
/**
 * The review target: the share of methods τ may send to review, per scenario, measured on the
 * held-out (leave-one-corpus-out) predictions so that it holds on a corpus the fit has not seen.
 * Code still to write: the issue's budget of 20 %. For partial bodies the issue asks for false
 * confidence ≤ 10 % at review ≤ 25 %; held out, 18.4 % review reaches it (the fit in force, 206
 * validation records), so 20 % keeps a margin without spending the 25 %. For new bodies it takes
 * 43 % held out, well past any budget: there 20 % is a budget, not a guarantee. Complete methods:
 * the issue's editor figure - at most 3 % may carry an insufficient-context diagnostic.
 * `--review-target R` sets every scenario, `--review-target existing-body=R` one; the targets in
 * force are written to gate-model.json with τ.
 */
export const REVIEW_TARGET: Readonly<Record<JudgedScenario, number>> = { 'new-body': 0.2, 'partial-body': 0.2, 'existing-body': 0.03 };
const OUT = join(ROOT, 'server/data/gate-model.json');
/**
 * Test-split sizes the ECE noise floor is printed at: 20 tasks × 7 corpora (140 new bodies; partial
 * ones lose the bodies too short to cut: 118), and 40 × 7, the size the gate is reported at (280;
 * 223 partial: `retrieval.bench.js --tasks 40 --list-tasks`).
 */
const FLOOR_SIZES = [118, 140, 223, 280];

interface Record_ {
  corpus: string; confidence: number; sufficient: boolean; features: GateFeatures;
  /** Gold symbols the code still to write uses (the label's side: only the --ceiling reference reads it). */
  gold?: number;
}

function recordsOf(reports: Pick<CorpusReport, 'name' | 'scenarios'>[]): Record_[] {
  const out: Record_[] = [];
  for (const r of reports) for (const sc of Object.values(r.scenarios)) for (const v of sc?.validation ?? []) {
    if (v.features) out.push({ corpus: r.name, confidence: v.confidence, sufficient: v.sufficient, features: v.features, gold: v.surface?.gold });
  }
  return out;
}

(async () => {
  if (process.argv.includes('--help')) {
    console.log('node dist/bench/gate-fit.bench.js [--tasks N] [--validation M] [--corpus NAME]... [--seed S] [--budget T] [--review-target [SCENARIO=]R]... [--from REPORT.json]... [--try [--with E,...] [--without E,...]] [--ceiling] [--imports masked|kept]\n(see the head of bench/gate-fit.bench.ts)');
    return;
  }
  const validation = Number(arg('--validation') ?? 40);
  const skipTest = Number(arg('--tasks') ?? 40);
  const budget = Number(arg('--budget') ?? 4000);
  const seed = arg('--seed');
  const imports = importProtocolArg();
  const reviewTarget: Record<JudgedScenario, number> = { ...REVIEW_TARGET };
  for (const spec of args('--review-target')) {
    const [sc, v] = spec.includes('=') ? spec.split('=') : [undefined, spec];
    for (const k of JUDGED_SCENARIOS) if (sc === undefined || sc === k) reviewTarget[k] = Number(v);
  }
  const fromFiles = args('--from');
  const from = fromFiles.length > 0;
  let reports: Pick<CorpusReport, 'name' | 'scenarios'>[] = [];
  let source: string;
  if (from) {
    for (const f of fromFiles) reports.push(...(JSON.parse(readFileSync(f, 'utf8')) as { corpora: CorpusReport[] }).corpora);
    source = `validation records of ${fromFiles.join(', ')} (${reports.map((r) => r.name).join(', ')})`;
  } else {
    const wanted = args('--corpus');
    const names = wanted.length ? wanted : [...DEVELOPMENT_CORPORA, ...INJECTED_CORPORA];
    for (const name of names) {
      const src = name.endsWith('-injected') ? corpusSourceRoot(name, 'skip') : corpusSourceRoot(name);
      if (!src || !existsSync(src)) { console.log(`${name}: not present; skipped`); continue; }
      // The validation tasks are those after the first --tasks of the seeded order, which every report's
      // test split takes (sampleTasks): asking for test: 0 would make the first tasks validation ones.
      const oracle = await loadOracle(ROOT, src);
      const tasks = sampleTasks(oracle, { test: skipTest, validation, seed }).filter((t) => t.split === 'validation');
      reports.push(await runCorpus({ root: ROOT, name, sourceRoot: src, test: 0, validation, seed, tasks, imports, budgetTokens: budget, log: (m) => console.error(m) }, oracle));
    }
    source = `retrieval benchmark validation split, ${validation} tasks per corpus × 3 scenarios, imports ${imports} (${reports.map((r) => r.name).join(', ')})`;
  }
  if (!from) {
    // The records themselves, so a refit (--from) needs no second run; named by the tasks they hold
    // (1-based positions in the seeded order), so runs over different tasks can be pooled.
    const saved = join(ROOT, `bench/out/gate-fit-records-${skipTest + 1}-${skipTest + validation}.json`);
    mkdirSync(join(ROOT, 'bench/out'), { recursive: true });
    writeFileSync(saved, JSON.stringify({ generatedAt: new Date().toISOString(), options: { validation, budget, seed: seed ?? 'needle-retrieval-bench', imports }, corpora: reports }, null, 1));
    console.log(`wrote ${saved}`);
  }
  console.log(surfaceTable(reports));
  console.log(missedGoldTable(reports));
  const records = recordsOf(reports).filter((r) => r.features.judged && r.features.scenario !== 'outside-method');
  if (records.length < 20) throw new Error(`only ${records.length} validation records with features: run the benchmark first`);
  const { beta, dropped, thin, fit, fitted } = fitGate(records);
  console.log(`fitted on ${fitted} of ${records.length} validation records; columns dropped for a sign against RCL's direction: ${dropped.join(', ') || 'none'}; intercept only (fewer than ${MIN_EVENTS_FOR_SLOPES} insufficient records): ${thin.join(', ') || 'none'}`);
  if (process.argv.includes('--ceiling')) console.log(ceilingTable(records));
  if (process.argv.includes('--try')) {
    // The base set the candidates are tried against: the model in force, ± `--with E,…` / `--without E,…` (a forward/backward step at a time).
    const list = (flag: string) => args(flag).flatMap((a) => a.split(',')).filter(Boolean) as Evidence[];
    const unknown = [...list('--with'), ...list('--without')].filter((e) => !EVIDENCE_NAMES.includes(e));
    if (unknown.length) throw new Error(`unknown evidence ${unknown.join(', ')}; known: ${EVIDENCE_NAMES.join(', ')}`);
    const base = list('--with').length || list('--without').length ? [...SHARED.filter((e) => !list('--without').includes(e)), ...list('--with').filter((e) => !SHARED.includes(e))] : SHARED;
    console.log(tryEvidence(records, base));
  }
  // Calibration on a corpus the fit has not seen: the held-out predictions' intercepts are shifted
  // where that lowers ECE on families left out of the shift's own fit too (interceptShifts).
  const rawHeld = leaveOneCorpusOut(records);
  const shifts = interceptShifts(rawHeld);
  const adopted: Partial<Record<JudgedScenario, number>> = Object.fromEntries(JUDGED_SCENARIOS.filter((sc) => shifts.heldOutEce[sc].after < shifts.heldOutEce[sc].before - 1e-9).map((sc) => [sc, shifts.shift[sc]]));
  console.log(`intercept shifts that calibrate the held-out predictions: ${JUDGED_SCENARIOS.map((sc) => `${sc} ${shifts.shift[sc].toFixed(3)} (held-out ECE ${shifts.heldOutEce[sc].before.toFixed(3)} → ${shifts.heldOutEce[sc].after.toFixed(3)}${adopted[sc] !== undefined ? ', adopted' : ', not adopted'})`).join(', ')}`);
  JUDGED_SCENARIOS.forEach((sc, j) => { if (adopted[sc] !== undefined) beta[j] = Math.round((beta[j] + adopted[sc]!) * 1e4) / 1e4; });
  const held = shiftPoints(rawHeld, adopted);
  const draft: GateModel = { columns: [...GATE_COLUMNS], beta, threshold: { 'new-body': 0.5, 'partial-body': 0.5, 'existing-body': 0.5 }, reviewTarget };
  // τ per scenario on the held-out predictions: a review share chosen on the records the slopes
  // were fitted to holds there and not on an unseen corpus, where the spread of confidence differs.
  const threshold = {} as Record<JudgedScenario, number>;
  for (const sc of JUDGED_SCENARIOS) {
    const hs = held.filter((p) => p.scenario === sc);
    threshold[sc] = hs.length ? thresholdFor(hs, reviewTarget[sc]) : 0.5;
  }
  console.log(heldOutTable(held, threshold, '; intercepts moved by the adopted shifts, whose ECE on families left out of the shift too is on the line above'));
  for (const sc of TO_WRITE) {
    const hs = held.filter((p) => p.scenario === sc);
    console.log(`  ${sc}: held out, false confidence ≤ 10 % of tasks needs review of ${(100 * reviewShareFor(hs, 0.1)).toFixed(1)} % (review target ${(100 * reviewTarget[sc]).toFixed(0)} %)`);
    // Whether an ECE target is measurable at a test split's size: a calibrated predictor's chance ECE at these confidences and n.
    console.log(`    ECE noise floor of a calibrated predictor with these confidences: ${FLOOR_SIZES.map((n) => { const f = eceNoiseFloor(hs.map((p) => p.confidence), undefined, undefined, n); return `n=${n} ${f.mean.toFixed(3)} (90th percentile ${f.p90.toFixed(3)})`; }).join(', ')}`);
  }
  const perScenario: Record<string, unknown> = {};
  for (const sc of JUDGED_SCENARIOS) {
    const rs = records.filter((r) => r.features.scenario === sc);
    const ps = rs.map((r) => calibratedConfidence(r.features, draft) ?? 0);
    const m = calibrationMetrics(rs.map((r, i) => ({ confidence: ps[i], sufficient: r.sufficient, review: ps[i] < threshold[sc] })));
    const before = calibrationMetrics(rs.map((r) => ({ confidence: r.confidence, sufficient: r.sufficient, review: false })));
    perScenario[sc] = {
      points: rs.length, sufficientShare: round(m.sufficientShare), tau: threshold[sc],
      fitted: { auroc: round(m.auroc), ece: round(m.ece), brier: round(m.brier), reviewOverhead: round(m.reviewOverhead), falseConfidenceOfTasks: round(m.falseConfidenceOfTasks) },
      inForceWhenCollected: { auroc: round(before.auroc), ece: round(before.ece), brier: round(before.brier) },
      heldOut: (() => {
        const h = heldOutMetrics(held, sc, (p) => p.confidence < threshold[sc]);
        return { auroc: round(h.auroc), ece: round(h.ece), eceNoiseFloor: round(eceNoiseFloor(held.filter((p) => p.scenario === sc).map((p) => p.confidence)).mean), reviewOverhead: round(h.reviewOverhead), falseConfidenceOfTasks: round(h.falseConfidenceOfTasks) };
      })(),
    };
    console.log(`${sc.padEnd(14)} ${String(rs.length).padStart(4)} points, ${(100 * m.sufficientShare).toFixed(1)} % sufficient; in-sample AUROC ${m.auroc?.toFixed(3) ?? '-'} ECE ${m.ece.toFixed(3)} Brier ${m.brier.toFixed(3)} (confidence in force when collected: AUROC ${before.auroc?.toFixed(3) ?? '-'} ECE ${before.ece.toFixed(3)}); τ ${threshold[sc].toFixed(2)} reviews ${(100 * m.reviewOverhead).toFixed(1)} %, false confidence ${(100 * m.falseConfidenceOfTasks).toFixed(1)} % of tasks`);
  }
  const model = {
    about: 'The sufficiency gate\'s calibrated confidence (server/src/gate/calibration.ts): logistic coefficients over GATE_COLUMNS and τ per scenario. Generated by `npm run fit:gate` (bench/gate-fit.bench.ts) from validation splits only; do not edit by hand.',
    fittedOn: { source, records: records.length, fittedRecords: fitted, droppedColumns: dropped, interceptOnly: thin, l2: GATE_L2, iterations: fit.iterations, converged: fit.converged, interceptShifts: adopted, thresholdsOn: 'leave-one-corpus-out predictions', perScenario },
    columns: [...GATE_COLUMNS], beta, threshold, reviewTarget,
  };
  writeFileSync(OUT, JSON.stringify(model, null, 2) + '\n');
  if (from) console.log(rescoredTestTable(reports, checkedModel(model)));
  console.log(GATE_COLUMNS.map((c, i) => `  ${c.padEnd(30)} ${beta[i].toFixed(4)}`).join('\n'));
  console.log(`wrote ${OUT} (rebuild to put it in force: npm run build)`);
})().catch((e) => { console.error(e); process.exit(1); });

/**
 * The fit: L2-penalised logistic regression over designRow, label = sufficient. The logistic part
 * calibrates the estimated (unwritten) part; records where something certain is missing are
 * decided by the certain factor and left out of its fit. A scenario with fewer than
 * MIN_EVENTS_FOR_SLOPES insufficient records cannot estimate any slope: its slopes would fit those
 * few tasks (existing bodies: 5 of 280, which flagged long complete methods whose every reference
 * was shown); it keeps its intercept, the base rate, alone. A column fitted against its MONOTONE
 * sign is dropped and the rest refitted.
 */
export function fitGate(records: Record_[], columns: readonly string[] = GATE_COLUMNS): { beta: number[]; dropped: string[]; thin: JudgedScenario[]; fit: ReturnType<typeof fitLogistic>; fitted: number } {
  const fitted = records.filter((r) => writtenFactorOf(r.features) === 1);
  const y = fitted.map((r) => (r.sufficient ? 1 : 0));
  const thin = JUDGED_SCENARIOS.filter((sc) => fitted.filter((r) => r.features.scenario === sc && !r.sufficient).length < MIN_EVENTS_FOR_SLOPES);
  // New and partial bodies share their slopes (calibration.ts), so one of them cannot be kept to its
  // intercept alone: the model would still apply the shared slopes to it. Refuse rather than pretend.
  const thinToWrite = thin.filter((sc) => TO_WRITE.includes(sc));
  if (thinToWrite.length) throw new Error(`fit:gate: ${thinToWrite.join(', ')} has fewer than ${MIN_EVENTS_FOR_SLOPES} insufficient validation records, and its slopes are shared with the other body still to write; collect more tasks (--validation)`);
  const interceptOnly = new Set(columns.flatMap((c, j) => (thin.some((sc) => c.endsWith(`×${sc}`)) ? [j] : [])));
  const dropped = new Set<number>();
  const rows = fitted.map((r) => designRow(r.features, columns));
  const fitWithout = () => fitLogistic(rows.map((x) => x.map((v, j) => (dropped.has(j) || interceptOnly.has(j) ? 0 : v))), y, { l2: GATE_L2, unpenalised: UNPENALISED_COLUMNS, maxIterations: 200 });
  let fit = fitWithout();
  for (;;) {
    const wrong = columns.findIndex((c, j) => { const sign = monotoneSign(c); return !dropped.has(j) && !interceptOnly.has(j) && sign !== undefined && fit.beta[j] * sign < 0; });
    if (wrong < 0) break;
    dropped.add(wrong);
    fit = fitWithout();
  }
  const beta = fit.beta.map((b, j) => (dropped.has(j) || interceptOnly.has(j) ? 0 : Math.round(b * 1e4) / 1e4));
  return { beta, dropped: [...dropped].map((j) => columns[j]), thin, fit, fitted: fitted.length };
}

/** A validation record scored by a model fitted without its corpus family (leave one corpus out). */
export interface HeldOutPoint {
  corpus: string; scenario: JudgedScenario; confidence: number; sufficient: boolean;
  /** The logistic part (estimatedConfidence) and the certain factor it is multiplied by. */
  estimated: number; factor: number;
}

function familyOf(corpus: string): string {
  return corpus.replace(/-injected$/, '');
}

/**
 * The honest check of generalisation on validation: each development corpus (with its -injected
 * variant, which shares its code) scored by a model fitted on the others. These out-of-fold
 * predictions are also what τ is chosen on, so the review share holds on a corpus the fit has not seen.
 */
export function leaveOneCorpusOut(records: Record_[], columns: readonly string[] = GATE_COLUMNS): HeldOutPoint[] {
  const scored: HeldOutPoint[] = [];
  for (const held of [...new Set(records.map((r) => familyOf(r.corpus)))]) {
    const { beta } = fitGate(records.filter((r) => familyOf(r.corpus) !== held), columns);
    const model: GateModel = { columns, beta, threshold: { 'new-body': 0.5, 'partial-body': 0.5, 'existing-body': 0.5 }, reviewTarget: REVIEW_TARGET };
    for (const r of records.filter((x) => familyOf(x.corpus) === held)) {
      scored.push({ corpus: r.corpus, scenario: r.features.scenario as JudgedScenario, confidence: calibratedConfidence(r.features, model) ?? 0, sufficient: r.sufficient, estimated: estimatedConfidence(r.features, model), factor: writtenFactorOf(r.features) });
    }
  }
  return scored;
}

function heldOutMetrics(pts: HeldOutPoint[], sc: JudgedScenario, review = (_: HeldOutPoint) => false): CalibrationMetrics {
  return calibrationMetrics(pts.filter((p) => p.scenario === sc).map((p) => ({ confidence: p.confidence, sufficient: p.sufficient, review: review(p) })));
}

/** ECE beside the ECE a perfectly calibrated predictor would score by chance with the same confidences and n. */
function eceWithFloor(m: CalibrationMetrics, confidences: number[]): string {
  return `ECE ${m.ece.toFixed(3)} (noise floor at n=${confidences.length}: ${eceNoiseFloor(confidences).mean.toFixed(3)})`;
}

export function heldOutTable(pts: HeldOutPoint[], tau?: Record<JudgedScenario, number>, note = ''): string {
  const out = [`leave one corpus out (validation; each corpus family scored by a fit on the others${note}):`];
  for (const sc of JUDGED_SCENARIOS) {
    const m = heldOutMetrics(pts, sc, tau ? (p) => p.confidence < tau[sc] : undefined);
    const cs = pts.filter((p) => p.scenario === sc).map((p) => p.confidence);
    out.push(`  ${sc.padEnd(14)} ${String(m.n).padStart(4)} points  AUROC ${m.auroc?.toFixed(3) ?? '-'}  ${eceWithFloor(m, cs)}  Brier ${m.brier.toFixed(3)}  caught@10/20/30% ${m.caughtAt.map((c) => c.caught?.toFixed(3) ?? '-').join('/')}` +
      (tau ? `  at τ ${tau[sc].toFixed(2)}: review ${m.reviewOverhead.toFixed(3)}, false confidence ${m.falseConfidenceOfTasks.toFixed(3)} of tasks` : ''));
    if (TO_WRITE.includes(sc)) {
      const families = [...new Set(pts.map((p) => familyOf(p.corpus)))];
      out.push(`    per held-out family, AUROC: ${families.map((fam) => `${fam} ${heldOutMetrics(pts.filter((p) => familyOf(p.corpus) === fam), sc).auroc?.toFixed(3) ?? '-'}`).join(', ')}`);
    }
  }
  return out.join('\n');
}

/**
 * Per-scenario intercept shifts that calibrate the out-of-fold predictions: a logistic fit of the
 * label with the held-out logistic part's logit as a fixed offset and one free intercept per
 * scenario, on the records the logistic part is fitted on (certain factor 1). It is checked by
 * leaving each family out of the shift's own fit too: whether shifting the intercepts lowers ECE
 * on a corpus neither fit has seen. `apply` moves points by a shift.
 */
export function interceptShifts(pts: HeldOutPoint[]): { shift: Record<JudgedScenario, number>; heldOutEce: Record<JudgedScenario, { before: number; after: number }> } {
  const fitShift = (ps: HeldOutPoint[]): Record<JudgedScenario, number> => {
    const fs = ps.filter((p) => p.factor === 1);
    const x = fs.map((p) => JUDGED_SCENARIOS.map((sc) => (p.scenario === sc ? 1 : 0)));
    const fit = fitLogistic(x, fs.map((p) => (p.sufficient ? 1 : 0)), { l2: 0, unpenalised: [0, 1, 2], offsets: fs.map((p) => logitOf(p.estimated)), maxIterations: 100 });
    return Object.fromEntries(JUDGED_SCENARIOS.map((sc, j) => [sc, fs.some((p) => p.scenario === sc) ? Math.round(fit.beta[j] * 1e4) / 1e4 : 0])) as Record<JudgedScenario, number>;
  };
  const shifted: HeldOutPoint[] = [];
  for (const held of [...new Set(pts.map((p) => familyOf(p.corpus)))]) {
    shifted.push(...shiftPoints(pts.filter((q) => familyOf(q.corpus) === held), fitShift(pts.filter((p) => familyOf(p.corpus) !== held))));
  }
  const heldOutEce = Object.fromEntries(JUDGED_SCENARIOS.map((sc) => [sc, { before: heldOutMetrics(pts, sc).ece, after: heldOutMetrics(shifted, sc).ece }])) as Record<JudgedScenario, { before: number; after: number }>;
  return { shift: fitShift(pts), heldOutEce };
}

function logitOf(p: number): number {
  const q = Math.min(1 - 1e-6, Math.max(1e-6, p));
  return Math.log(q / (1 - q));
}

/** Points as a model with its intercepts moved by `shift` would score them. */
export function shiftPoints(pts: HeldOutPoint[], shift: Partial<Record<JudgedScenario, number>>): HeldOutPoint[] {
  return pts.map((p) => {
    const estimated = sigmoid(logitOf(p.estimated) + (shift[p.scenario] ?? 0));
    return { ...p, estimated, confidence: estimated * p.factor };
  });
}

/**
 * `--try`: each evidence the code computes, added to the model's shared set (or, if in it, taken
 * out), fitted in sample and left one corpus out; the figures a column is kept or dropped on.
 */
function tryEvidence(records: Record_[], base: readonly Evidence[]): string {
  const row = (label: string, shared: readonly Evidence[]) => {
    const cols = columnsFor(shared);
    const { beta } = fitGate(records, cols);
    const model: GateModel = { columns: cols, beta, threshold: { 'new-body': 0.5, 'partial-body': 0.5, 'existing-body': 0.5 }, reviewTarget: REVIEW_TARGET };
    const inSample = (sc: JudgedScenario) => calibrationMetrics(records.filter((r) => r.features.scenario === sc).map((r) => ({ confidence: calibratedConfidence(r.features, model) ?? 0, sufficient: r.sufficient, review: false })));
    const held = leaveOneCorpusOut(records, cols);
    const f = (m: CalibrationMetrics) => `${m.auroc?.toFixed(3) ?? '  -  '}  ${m.ece.toFixed(3)}  ${m.caughtAt[1].caught?.toFixed(3) ?? '  -  '}`;
    return `  ${label.padEnd(36)} ${f(inSample('new-body'))}   ${f(heldOutMetrics(held, 'new-body'))}   ${f(inSample('partial-body'))}   ${f(heldOutMetrics(held, 'partial-body'))}`;
  };
  const out = ['\nevidence tried (validation; AUROC, ECE, caught@20%):',
    '  evidence                             new in sample          new held out           partial in sample      partial held out',
    row(base === SHARED ? '(the model in force)' : '(the base: --with/--without)', base)];
  for (const e of EVIDENCE_NAMES) out.push(base.includes(e) ? row(`- ${e}`, base.filter((x) => x !== e)) : row(`+ ${e}`, [...base, e]));
  return out.join('\n');
}

/**
 * `--ceiling`: held-out AUROC and caught@20% per body still to write, for plain fits (the penalty of
 * fitGate, no sign drops, no intercept shifts) of the model in force's columns alone and with an
 * oracle column per scenario: log(1 + gold count). Records without a gold count are left out.
 */
export function ceilingTable(records: Record_[]): string {
  const kept = records.filter((r) => r.gold !== undefined && writtenFactorOf(r.features) === 1 && TO_WRITE.includes(r.features.scenario as JudgedScenario));
  const oracle = (r: Record_) => TO_WRITE.map((sc) => (r.features.scenario === sc ? Math.log1p(r.gold ?? 0) : 0));
  const heldOut = (withOracle: boolean) => {
    const row = (r: Record_) => [...designRow(r.features), ...(withOracle ? oracle(r) : [])];
    const scored: { r: Record_; confidence: number }[] = [];
    for (const held of [...new Set(kept.map((r) => familyOf(r.corpus)))]) {
      const train = kept.filter((r) => familyOf(r.corpus) !== held);
      const { beta } = fitLogistic(train.map(row), train.map((r) => (r.sufficient ? 1 : 0)), { l2: GATE_L2, unpenalised: UNPENALISED_COLUMNS, maxIterations: 200 });
      for (const r of kept.filter((x) => familyOf(x.corpus) === held)) scored.push({ r, confidence: sigmoid(row(r).reduce((z, v, j) => z + v * beta[j], 0)) });
    }
    return (sc: JudgedScenario) => calibrationMetrics(scored.filter((s) => s.r.features.scenario === sc).map((s) => ({ confidence: s.confidence, sufficient: s.r.sufficient, review: false })));
  };
  const [plain, informed] = [heldOut(false), heldOut(true)];
  const out = ['\nceiling reference (validation, leave one corpus out; the oracle column is the gold count, which no request knows):'];
  for (const sc of TO_WRITE) {
    const f = (m: CalibrationMetrics) => `AUROC ${m.auroc?.toFixed(3) ?? '-'}  caught@20% ${m.caughtAt[1].caught?.toFixed(3) ?? '-'}`;
    out.push(`  ${sc.padEnd(14)} ${String(plain(sc).n).padStart(4)} points  model's columns: ${f(plain(sc))}   plus the gold count: ${f(informed(sc))}`);
    // How well each evidence the code computes tracks that size: Pearson r with log(1 + gold count).
    const rs = kept.filter((r) => r.features.scenario === sc);
    const size = rs.map((r) => Math.log1p(r.gold ?? 0));
    const corr = EVIDENCE_NAMES.map((e) => ({ e, r: pearson(rs.map((r) => designRow(r.features, columnsFor([e])).at(-1) ?? 0), size) }))
      .filter((c) => Number.isFinite(c.r)).sort((a, b) => Math.abs(b.r) - Math.abs(a.r) || a.e.localeCompare(b.e));
    out.push(`    r with log(1 + gold count): ${corr.map((c) => `${c.e} ${c.r.toFixed(2)}`).join(', ')}`);
  }
  return out.join('\n');
}

/**
 * D̂(q) against the gold on the validation records, per corpus and scenario, and pooled: recall
 * (gold symbols that are entries of D̂), precision (estimated entries that are gold, by count and
 * by Σ p), and of the gold the context lacks, the share that was not on D̂ at all.
 */
export function surfaceTable(reports: Pick<CorpusReport, 'name' | 'scenarios'>[]): string {
  const f3 = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '  -  ');
  const out = ['\nestimated surface D̂(q) on the validation records (gold symbols on D̂; estimated entries that are gold):',
    '  corpus                 scenario  tasks  recall  precision  p-weighted  entries/task  missed gold not on D̂  gate share of the median request'];
  const row = (label: string, sc: string, vs: Validation[]) => {
    const rs = vs.flatMap((v) => (v.surface ? [v.surface] : []));
    if (!rs.length) return;
    const m = surfaceRecallSummary(rs);
    out.push(`  ${label.padEnd(22)} ${sc.padEnd(9)} ${String(m.tasks).padStart(5)}  ${f3(m.recall)}   ${f3(m.precision)}      ${f3(m.massPrecision)}       ${m.meanEstimated.toFixed(1).padStart(5)}     ${f3(m.missedOffShare)}                 ${f3(gateShareOfMedian(vs))}`);
  };
  const of = (r: Pick<CorpusReport, 'scenarios'>, sc: string): Validation[] => r.scenarios[sc as keyof typeof r.scenarios]?.validation ?? [];
  for (const r of reports) for (const sc of ['new', 'partial', 'existing']) row(r.name, sc, of(r, sc));
  for (const sc of ['new', 'partial', 'existing']) row('pooled', sc, reports.flatMap((r) => of(r, sc)));
  return out.join('\n');
}

/**
 * What insufficient contexts lack, on the validation records (score.ts MissedGold): per scenario,
 * the missed gold symbols by where they are declared and their kind, whether D̂(q) held them (and
 * by which strongest route), and whether packing weighed them (and at what member-model p).
 */
export function missedGoldTable(reports: Pick<CorpusReport, 'name' | 'scenarios'>[]): string {
  const out = ['\nwhat insufficient contexts lack (validation records; gold symbols the context does not show):'];
  for (const sc of ['new', 'partial', 'existing'] as const) {
    const vs = reports.flatMap((r) => r.scenarios[sc]?.validation ?? []).filter((v) => v.missedGold);
    const missed = vs.flatMap((v) => v.missedGold!);
    const insufficient = vs.filter((v) => !v.sufficient).length;
    if (!missed.length) continue;
    const share = (f: (m: MissedGold) => boolean) => `${(100 * missed.filter(f).length / missed.length).toFixed(0)} %`;
    const count = (key: (m: MissedGold) => string) => {
      const c = new Map<string, number>();
      for (const m of missed) c.set(key(m), (c.get(key(m)) ?? 0) + 1);
      return [...c.entries()].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', ');
    };
    const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
    const cands = missed.filter((m) => m.candidate), onD = missed.filter((m) => m.onSurface);
    const ps = cands.map((m) => m.candidateP).sort((a, b) => a - b);
    out.push(`  ${sc}: ${missed.length} missed gold symbols in ${insufficient} insufficient of ${vs.length} contexts (${(missed.length / Math.max(1, insufficient)).toFixed(2)} each)`,
      `    declared: ${count((m) => `${m.where}${m.crossFile ? '' : ' (same file)'} ${m.kind}`)}`,
      `    on D̂(q): ${share((m) => m.onSurface)} (mean p ${mean(onD.map((m) => m.surfaceP)).toFixed(3)}); strongest route: ${count((m) => m.route ?? 'not on D̂')}`,
      `    weighed by packing: ${share((m) => m.candidate)} (member-model p median ${ps.length ? ps[ps.length >> 1].toFixed(3) : '-'}, mean ${mean(ps).toFixed(3)}); neither on D̂ nor weighed: ${share((m) => !m.onSurface && !m.candidate)}`);
  }
  return out.join('\n');
}

function round(x: number | null): number | null {
  return x === null || !Number.isFinite(x) ? null : Math.round(x * 1e4) / 1e4;
}

/** The reports' test splits under a model: per corpus and scenario, and pooled (reported, never fitted on). */
function rescoredTestTable(reports: Pick<CorpusReport, 'name' | 'scenarios'>[], model: GateModel): string {
  const f3 = (x: number | null) => (x === null || !Number.isFinite(x) ? '  -  ' : x.toFixed(3));
  const out = ['\ntest splits re-scored under the fitted model (features as recorded):',
    '  corpus                 scenario   tasks  suff   AUROC   ECE    ECE-floor  Brier  review  falseconf/tasks  caught@10/20/30%'];
  const row = (label: string, sc: JudgedScenario, pts: { confidence: number; sufficient: boolean; features?: GateFeatures }[]) => {
    const scored = pts.filter((p) => p.features).map((p) => {
      const c = calibratedConfidence(p.features!, model) ?? 0;
      return { confidence: c, sufficient: p.sufficient, review: c < model.threshold[sc] || !p.features!.judged };
    });
    const m = calibrationMetrics(scored);
    out.push(`  ${label.padEnd(22)} ${sc.padEnd(9)} ${String(m.n).padStart(5)}  ${f3(m.sufficientShare)}  ${f3(m.auroc)}  ${f3(m.ece)}  ${f3(eceNoiseFloor(scored.map((x) => x.confidence)).mean)}      ${f3(m.brier)}  ${f3(m.reviewOverhead)}  ${f3(m.falseConfidenceOfTasks)}          ${m.caughtAt.map((c) => f3(c.caught)).join('/')}`);
  };
  const key: Record<string, JudgedScenario> = { new: 'new-body', partial: 'partial-body', existing: 'existing-body' };
  // Records of this bench's own runs hold no test split: nothing to re-score.
  if (!reports.some((r) => Object.values(r.scenarios).some((rep) => rep?.test.length))) return '';
  for (const r of reports) for (const [sc, rep] of Object.entries(r.scenarios)) if (rep) row(r.name, key[sc], rep.test);
  for (const [sc, js] of Object.entries(key)) row('pooled', js, reports.flatMap((r) => r.scenarios[sc as keyof typeof r.scenarios]?.test ?? []));
  return out.join('\n');
}
