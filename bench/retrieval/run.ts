// One corpus through the real server: sample tasks from the oracle, copy the sources into a temp
// workspace once, start the server once, and for each task mask the body (disk + didOpen), ask
// every mode, restore. Returns per-task scores and per-mode metrics.

import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { encode } from 'gpt-tokenizer';
import type { GateFeatures, RetrievalMode, RetrievalResult, StatusResult } from '../../shared/protocol';
import { calibrateThreshold, type Calibration } from '../../server/src/gate/sufficiency';
import { startServer, type StartOptions } from './client';
import { BENCH_SCENARIOS, eligibleTasks, loadOracle, maskText, sampleTasks, scenarioTask, type BenchScenario, type GoldSymbol, type ImportProtocol, type OracleOutput, type ScenarioTask, type Task } from './tasks';
import { calibrationMetrics, type CalibrationMetrics } from './calibration';
import { diskTextOf, goldRegions } from './attribution';
import { gateMetrics, mean, median, modeMetrics, sameResult, scoreResponse, type GateMetrics, type MissedGold, type ModeMetrics, type SurfaceRecall, type TaskScore } from './score';

export const MODES: RetrievalMode[] = ['similarity', 'fixedK', 'structural', 'rcl'];
/** Budgets of the recall–tokens sweep (issue #14 §2); the main budget is reported in full besides. */
export const SWEEP_BUDGETS = [500, 1000, 1500, 2500, 4000];

export interface RunOptions {
  /** Repository root (for bench/oracle and dist/server.js). */
  root: string;
  name: string;
  sourceRoot: string;
  test: number;
  validation: number;
  seed?: string;
  budgetTokens?: number;
  /** Budgets of the recall–tokens sweep: every mode on the test split, rcl on the validation split. */
  budgets?: number[];
  /** Pause after disk writes so the server's file watcher has seen them (ms). */
  settleMs?: number;
  log?: (m: string) => void;
  serverJs?: string;
  /** Scenarios to run (default all): new = emptied body, partial = first half kept, existing = nothing masked. */
  scenarios?: BenchScenario[];
  /** How masking treats the file's imports (tasks.ts ImportProtocol; default masked: those only the hidden code used are blanked). */
  imports?: ImportProtocol;
  /** These tasks instead of the seeded sample (e.g. only those whose gold lives in given packages). */
  tasks?: Task[];
  /** Changes the temp copy of the sources before the server starts (e.g. moves packages into a jar). */
  prepareWorkspace?: (ws: string) => void;
  /** Server cache folder and settings (client.ts). */
  server?: Omit<StartOptions, 'readyTimeoutMs'>;
  /** Folders besides the workspace where gold files may be (a dependency's extracted sources), asked once the server is ready. */
  libraryRoots?: () => string[];
  /** Gold symbols scored by file and name only (scoreResponse). */
  byName?: (g: GoldSymbol) => boolean;
}

/** One scenario's figures: rcl on the test split, and the validation records the gate model is fitted on. */
export interface ScenarioReport {
  tasks: { test: number; validation: number; skipped: number };
  rcl: ModeMetrics | null;
  gate: CalibrationMetrics;
  /** Coverage reported by the gate vs measured recall (test). */
  coverageMAE: number;
  judged: Record<string, number>;
  validation: { confidence: number; sufficient: boolean; features?: GateFeatures; surface?: SurfaceRecall; missedGold?: MissedGold[]; gateMs?: number; serverMs?: number }[];
  /** `gateMs` and `serverMs`: the gate stage's and the whole request's server time (timingsMs). */
  test: { confidence: number; sufficient: boolean; review: boolean; features?: GateFeatures; surface?: SurfaceRecall; gateMs?: number; serverMs?: number }[];
}

export interface CalibrationReport {
  source: 'calibrateThreshold' | 'sweep';
  points: number;
  tau: number;
  curve: { tau: number; falseReviewRate: number; falseConfidenceRate: number; reviewRate: number }[];
}

export interface CorpusReport {
  name: string;
  sourceRoot: string;
  oracleErrors: number;
  eligibleTasks: number;
  tasks: { test: number; validation: number; skipped: { task: string; reason: string }[] };
  budgetTokens: number;
  indexMs: number;
  serverIndexMs?: number;
  files: number;
  symbols: number;
  peakRssMB?: number;
  /** Set when the server had to be started with other client capabilities than `{}`. */
  serverWorkaround?: string;
  modes: Record<string, ModeMetrics>;
  /** The budget sweep: metrics per split, mode and budget (the main budget's entry equals `modes` on test). */
  sweep: SweepPoint[];
  /** Test tasks whose rcl answer used follow-up rounds, re-run with maxRounds 0 (RCL §7.2). */
  followup: { triggered: number; recallWithout: number; recallWith: number; tokensWithout: number; tokensWith: number };
  oracle: { tokensMean: number; tokensMedian: number; goldMean: number };
  /** rcl, test split, the server's own review flag (τ in force). */
  gate: GateMetrics & { threshold: number };
  /** rcl, test split, review iff confidence < the τ calibrated on this corpus's validation split. */
  gateCalibrated: GateMetrics & { tau: number };
  calibration: CalibrationReport;
  /** `differing`: for each non-identical repeat, the top-level result fields that differed. */
  determinism: { share: number; checked: number; differing: { task: string; fields: string[] }[] };
  errors: { task: string; mode: string; message: string }[];
  perTask: { task: string; split: string; gold: string[]; scores: Record<string, Omit<TaskScore, 'task' | 'split'>> }[];
  /** Validation-split rcl scores (for pooled calibration). */
  validationPoints: { confidence: number; sufficient: boolean }[];
  /** Per scenario (new = the emptied-body figures above, rcl only). */
  scenarios: Partial<Record<BenchScenario, ScenarioReport>>;
}

export interface SweepPoint { split: 'test' | 'validation'; mode: RetrievalMode; budget: number; metrics: ModeMetrics }

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Token cost of the gold declarations alone: their name (signature) lines, gpt-tokenizer `encode`. */
export function oracleTokens(task: Task, sourceRoot: string, cache = new Map<string, string[]>()): number {
  let n = 0;
  for (const g of task.gold) {
    let lines = cache.get(g.file);
    if (!lines) cache.set(g.file, (lines = readFileSync(join(sourceRoot, g.file), 'utf8').split(/\r?\n/)));
    n += encode((lines[g.line] ?? '').trim()).length;
  }
  return n;
}

export function calibrate(points: { confidence: number; sufficient: boolean }[]): CalibrationReport {
  let cal: Calibration | undefined;
  if (typeof calibrateThreshold === 'function') cal = calibrateThreshold(points, { step: 0.05 });
  if (cal) {
    return { source: 'calibrateThreshold', points: points.length, tau: cal.tau, curve: cal.curve.map(({ tau, falseReviewRate, falseConfidenceRate, reviewRate }) => ({ tau, falseReviewRate, falseConfidenceRate, reviewRate })) };
  }
  // fallback sweep: review iff confidence < τ; minimise false-review + false-confidence
  const suff = points.filter((p) => p.sufficient).length, insuff = points.length - suff;
  const curve: CalibrationReport['curve'] = [];
  for (let i = 0; i <= 20; i++) {
    const tau = Math.round(i * 5) / 100;
    const fr = points.filter((p) => p.sufficient && p.confidence < tau).length;
    const fc = points.filter((p) => !p.sufficient && p.confidence >= tau).length;
    curve.push({ tau, falseReviewRate: suff ? fr / suff : 0, falseConfidenceRate: insuff ? fc / insuff : 0, reviewRate: points.length ? points.filter((p) => p.confidence < tau).length / points.length : 0 });
  }
  const cost = (c: (typeof curve)[number]) => c.falseReviewRate + c.falseConfidenceRate;
  const min = Math.min(...curve.map(cost));
  const best = curve.filter((c) => cost(c) <= min + 1e-12);
  return { source: 'sweep', points: points.length, tau: best[Math.floor((best.length - 1) / 2)].tau, curve };
}

function diffFields(a: RetrievalResult, b: RetrievalResult): string[] {
  const ra = a as unknown as Record<string, unknown>, rb = b as unknown as Record<string, unknown>;
  return [...new Set([...Object.keys(ra), ...Object.keys(rb)])].filter((k) => k !== 'timingsMs' && JSON.stringify(ra[k]) !== JSON.stringify(rb[k])).sort();
}

export async function runCorpus(opts: RunOptions, oracleIn?: OracleOutput): Promise<CorpusReport> {
  const log = opts.log ?? (() => undefined);
  const budget = opts.budgetTokens ?? 4000;
  const settle = opts.settleMs ?? 150;
  const oracle = oracleIn ?? await loadOracle(opts.root, opts.sourceRoot);
  const eligible = eligibleTasks(oracle).length;
  const tasks = opts.tasks ?? sampleTasks(oracle, { test: opts.test, validation: opts.validation, seed: opts.seed });
  log(`${opts.name}: ${eligible} eligible methods, ${tasks.filter((t) => t.split === 'test').length} test + ${tasks.filter((t) => t.split === 'validation').length} validation tasks`);

  const ws = mkdtempSync(join(tmpdir(), `needle-retrieval-${opts.name}-`));
  cpSync(opts.sourceRoot, ws, { recursive: true });
  opts.prepareWorkspace?.(ws);
  const server = await startServer(opts.serverJs ?? join(opts.root, 'dist/server.js'), ws, opts.server);
  const roots = [ws, ...(opts.libraryRoots?.() ?? [])];
  log(`${opts.name}: server ready in ${Math.round(server.readyMs)} ms (${server.status.files} files, ${server.status.symbols} symbols)`);

  const scores = new Map<string, TaskScore[]>(MODES.map((m) => [m, []]));
  const sweepBudgets = [...new Set(opts.budgets ?? [])].filter((b) => b !== budget).sort((a, b) => a - b);
  const swept = new Map<string, TaskScore[]>();
  const perTask: CorpusReport['perTask'] = [];
  const errors: CorpusReport['errors'] = [];
  const skipped: CorpusReport['tasks']['skipped'] = [];
  let detSame = 0, detChecked = 0, serverThreshold = NaN;
  const detDiffs: { task: string; fields: string[] }[] = [];
  const scenarios = opts.scenarios ?? BENCH_SCENARIOS;
  const scenarioRuns = Object.fromEntries(BENCH_SCENARIOS.map((sc) => [sc, { scores: [] as TaskScore[], skipped: [] as { task: string; reason: string }[] }])) as Record<BenchScenario, { scores: TaskScore[]; skipped: { task: string; reason: string }[] }>;
  const triggered: { gold: number; withFollowup: number; without: number; tokensWith: number; tokensWithout: number }[] = [];
  const tokCache = new Map<string, string[]>();
  const oracleTok: number[] = [];
  const status = server.status;
  let peak: number | undefined;
  let finalStatus: StatusResult = status;
  try {
    for (const [i, task] of tasks.entries()) {
      const path = join(ws, task.file);
      const original = readFileSync(path, 'utf8');
      // The other scenarios first (rcl only, one request each), then the emptied body with every mode.
      const sceneLog: string[] = [];
      for (const sc of scenarios.filter((x) => x !== 'new')) {
        let st: ScenarioTask;
        try { st = scenarioTask(original, task, sc, opts.imports); } catch (e) { scenarioRuns[sc].skipped.push({ task: task.id, reason: (e as Error).message }); continue; }
        writeFileSync(path, st.text);
        await sleep(settle);
        await server.open(path, st.text);
        try {
          const { result, ms } = await server.retrieve({ textDocument: { uri: pathToFileURL(path).href }, position: st.cursor, budgetTokens: budget, mode: 'rcl', explain: task.split === 'validation' });
          const s = scoreResponse(st, result, roots, ms, undefined, opts.byName);
          scenarioRuns[sc].scores.push(s);
          sceneLog.push(`  ${sc} ${s.found}/${s.gold} ${result.scenario ?? '?'} conf ${s.confidence.toFixed(2)}${s.review ? ' review' : ''}`);
        } catch (e) {
          errors.push({ task: task.id, mode: `rcl-${sc}`, message: (e as Error).message });
        } finally {
          writeFileSync(path, original);
          await server.close(path);
          await sleep(settle);
        }
      }
      if (!scenarios.includes('new')) { log(`  [${i + 1}/${tasks.length}] ${task.split === 'test' ? 'T' : 'V'} ${task.id}${sceneLog.join('')}`); continue; }
      let masked: string;
      try { masked = maskText(original, task.body, opts.imports); } catch (e) { skipped.push({ task: task.id, reason: (e as Error).message }); continue; }
      const row: CorpusReport['perTask'][number] = { task: task.id, split: task.split, gold: task.gold.map((g) => g.qualified), scores: {} };
      if (task.split === 'test') oracleTok.push(oracleTokens(task, opts.sourceRoot, tokCache));
      writeFileSync(path, masked);
      await sleep(settle);
      await server.open(path, masked);
      const textOf = diskTextOf(ws);
      const lines = { regions: await goldRegions(task.gold, textOf), textOf };
      try {
        const modes = task.split === 'test' ? MODES : (['rcl'] as RetrievalMode[]);
        // Validation records carry the weighed candidates, for the diagnosis of what the context lacks (score.ts missedGold).
        const explain = task.split === 'validation';
        let firstRcl: RetrievalResult | undefined;
        for (const mode of modes) {
          try {
            const { result, ms } = await server.retrieve({ textDocument: { uri: pathToFileURL(path).href }, position: task.cursor, budgetTokens: budget, mode, ...(explain ? { explain } : {}) });
            const s = scoreResponse(task, result, roots, ms, lines, opts.byName);
            scores.get(mode)!.push(s);
            const { task: _t, split: _s, ...rest } = s;
            row.scores[mode] = rest;
            if (mode === 'rcl') { firstRcl = result; serverThreshold = result.threshold; scenarioRuns.new.scores.push(s); }
            // RCL §7.2's triggered-only comparison: the same request without follow-up rounds.
            if (mode === 'rcl' && task.split === 'test' && result.rounds > 0) {
              const base = await server.retrieve({ textDocument: { uri: pathToFileURL(path).href }, position: task.cursor, budgetTokens: budget, mode, maxRounds: 0 });
              const b = scoreResponse(task, base.result, roots, base.ms, undefined, opts.byName);
              triggered.push({ gold: s.gold, withFollowup: s.found, without: b.found, tokensWith: result.tokens, tokensWithout: base.result.tokens });
            }
          } catch (e) {
            errors.push({ task: task.id, mode, message: (e as Error).message });
          }
        }
        for (const b of sweepBudgets) {
          for (const mode of modes) {
            try {
              const { result, ms } = await server.retrieve({ textDocument: { uri: pathToFileURL(path).href }, position: task.cursor, budgetTokens: b, mode });
              const key = `${task.split} ${mode} ${b}`;
              swept.set(key, [...(swept.get(key) ?? []), scoreResponse(task, result, roots, ms, lines, opts.byName)]);
            } catch (e) {
              errors.push({ task: task.id, mode: `${mode}@${b}`, message: (e as Error).message });
            }
          }
        }
        if (firstRcl) {
          try {
            const again = await server.retrieve({ textDocument: { uri: pathToFileURL(path).href }, position: task.cursor, budgetTokens: budget, mode: 'rcl', ...(explain ? { explain } : {}) });
            detChecked++;
            if (sameResult(firstRcl, again.result)) detSame++;
            else detDiffs.push({ task: task.id, fields: diffFields(firstRcl, again.result) });
          } catch (e) { errors.push({ task: task.id, mode: 'rcl-repeat', message: (e as Error).message }); }
        }
      } finally {
        writeFileSync(path, original);
        await server.close(path);
        await sleep(settle);
      }
      perTask.push(row);
      const r = row.scores.rcl;
      log(`  [${i + 1}/${tasks.length}] ${task.split === 'test' ? 'T' : 'V'} ${task.id}  gold ${task.gold.length}` +
        MODES.filter((m) => row.scores[m]).map((m) => `  ${m} ${row.scores[m].found}/${row.scores[m].gold}`).join('') +
        (r ? `  conf ${r.confidence.toFixed(2)}${r.review ? ' review' : ''}` : '') + sceneLog.join(''));
    }
  } finally {
    peak = server.peakRssMB();
    finalStatus = await server.conn.sendRequest<StatusResult>('needle/status', {}).catch(() => server.status);
    await server.shutdown();
    rmSync(ws, { recursive: true, force: true });
  }

  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const goldTriggered = sum(triggered.map((t) => t.gold));
  const followup = {
    triggered: triggered.length,
    recallWithout: goldTriggered ? sum(triggered.map((t) => t.without)) / goldTriggered : NaN,
    recallWith: goldTriggered ? sum(triggered.map((t) => t.withFollowup)) / goldTriggered : NaN,
    tokensWithout: mean(triggered.map((t) => t.tokensWithout)),
    tokensWith: mean(triggered.map((t) => t.tokensWith)),
  };
  const test = (m: string) => scores.get(m)!.filter((s) => s.split === 'test');
  const modes = Object.fromEntries(MODES.map((m) => [m, modeMetrics(test(m))]));
  const sweep: SweepPoint[] = [];
  for (const split of ['test', 'validation'] as const) {
    for (const mode of MODES) {
      const main = scores.get(mode)!.filter((s) => s.split === split);
      const points = [...sweepBudgets.map((b) => ({ b, s: swept.get(`${split} ${mode} ${b}`) ?? [] })), { b: budget, s: main }];
      if (sweepBudgets.length) for (const p of points.sort((x, y) => x.b - y.b)) if (p.s.length) sweep.push({ split, mode, budget: p.b, metrics: modeMetrics(p.s) });
    }
  }
  const rclTest = test('rcl');
  const validationPoints = scores.get('rcl')!.filter((s) => s.split === 'validation').map((s) => ({ confidence: s.confidence, sufficient: s.fullyCovered }));
  const calibration = calibrate(validationPoints);
  return {
    name: opts.name, sourceRoot: opts.sourceRoot, oracleErrors: oracle.errors, eligibleTasks: eligible,
    tasks: { test: tasks.filter((t) => t.split === 'test').length, validation: tasks.filter((t) => t.split === 'validation').length, skipped },
    budgetTokens: budget,
    indexMs: Math.round(server.readyMs), serverIndexMs: status.indexMs ?? finalStatus.indexMs,
    files: status.files, symbols: status.symbols, peakRssMB: peak, serverWorkaround: server.workaround,
    modes, sweep,
    oracle: { tokensMean: mean(oracleTok), tokensMedian: median(oracleTok), goldMean: mean(tasks.filter((t) => t.split === 'test').map((t) => t.gold.length)) },
    gate: { ...gateMetrics(rclTest), threshold: serverThreshold },
    followup,
    gateCalibrated: { ...gateMetrics(rclTest, (s) => s.confidence < calibration.tau), tau: calibration.tau },
    calibration,
    determinism: { share: detChecked ? detSame / detChecked : NaN, checked: detChecked, differing: detDiffs },
    errors, perTask, validationPoints,
    scenarios: Object.fromEntries(scenarios.map((sc) => [sc, scenarioReport(scenarioRuns[sc].scores, scenarioRuns[sc].skipped.length)])),
  };
}

export function scenarioReport(scores: TaskScore[], skipped: number): ScenarioReport {
  const test = scores.filter((s) => s.split === 'test');
  const validation = scores.filter((s) => s.split === 'validation');
  const judged: Record<string, number> = {};
  for (const s of test) judged[s.judgedScenario ?? '?'] = (judged[s.judgedScenario ?? '?'] ?? 0) + 1;
  return {
    tasks: { test: test.length, validation: validation.length, skipped },
    rcl: test.length ? modeMetrics(test) : null,
    gate: calibrationMetrics(test.map((s) => ({ confidence: s.confidence, sufficient: s.fullyCovered, review: s.review }))),
    coverageMAE: mean(test.map((s) => Math.abs(s.coverage - s.recall))),
    judged,
    validation: validation.map((s) => ({ confidence: s.confidence, sufficient: s.fullyCovered, features: s.features, surface: s.surface, missedGold: s.missedGold, gateMs: s.gateMs, serverMs: s.serverTotalMs })),
    test: test.map((s) => ({ confidence: s.confidence, sufficient: s.fullyCovered, review: s.review, features: s.features, surface: s.surface, gateMs: s.gateMs, serverMs: s.serverTotalMs })),
  };
}
