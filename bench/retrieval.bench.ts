// `npm run bench:retrieval`: needle/retrieveContext against the javac oracle, through the real
// language server (dist/server.js --stdio), on commons-lang3, jsoup and their "-injected" variants
// (bench/corpora/inject.mjs, RCL §5) when present.
//
// Task: an internal method with its body emptied (signature and Javadoc kept); gold = the internal
// declarations its original body referenced. Modes similarity, fixedK and rcl answer the same
// tasks in the same run. Reports recall, tokens, noise, latency, the gate's quality, determinism,
// and calibrates τ on a validation split. A benchmark: it reports, it never fails on a score.
//
//   node dist/bench/retrieval.bench.js [--tasks N] [--validation M] [--corpus NAME]... [--scenario new|partial|existing]... [--seed S] [--budget T]
//                                      [--budgets 500,1000,1500,2500,4000 | --budgets none] [--settle MS] [--list-tasks] [--imports masked|kept]
//
// The gate's figures (AUROC, ECE, review, false confidence per scenario) are reported with
// `--tasks 40 --validation 0 --budgets none`: 40 test tasks per corpus, 280 new and 280 existing
// bodies over the 7 corpora, 223 partial ones (bodies too short to cut are skipped). At 20 per corpus (140) a
// perfectly calibrated predictor's ECE is 0.057-0.064 by chance, so ECE ≤ 0.05 cannot be checked
// there. The test split is the first N of one seeded order, so --tasks 20 is a prefix of --tasks 40,
// and the fits' validation tasks (gate-fit, surface-fit: after the first 40) share none of them.
// --list-tasks prints each corpus's task ids per split and how many each scenario can run, and
// exits: no server, no scores.
//
// Scenarios (same tasks and splits): new = the body emptied (gold: what it used); partial = the
// first half of its lines kept (gold: symbols first used after the cut); existing = nothing masked,
// the cursor on the first statement (gold: every symbol of the body).
//
// Imports (--imports): masked, the default, also blanks every single-type and static single-member
// import whose simple name only the hidden code (the emptied body, or the partial body's cut half)
// uses; wildcard imports and imports the rest of the file uses stay, and every line keeps its
// number. In an editor an import mostly arrives with the code that uses it, so a kept one would
// point straight at the hidden body's needs. kept is the protocol up to session 8, for comparison.
// The existing scenario masks nothing either way.
//
// --budgets: the recall–tokens sweep (every mode on the test split, rcl on the validation split, at
// each budget besides the main one); the knee of the pooled validation curve is printed. Writes bench/out/retrieval-report.json, bench/out/retrieval.svg and
// bench/out/retrieval-curves.svg (+ .png of both when a converter exists).

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { arg, args, corpusSourceRoot, importProtocolArg } from './cli';
import { DEVELOPMENT_CORPORA, INJECTED_CORPORA } from './corpora/list.mjs';
import { calibrate, runCorpus, SWEEP_BUDGETS, type CorpusReport } from './retrieval/run';
import { calibrationTable, corpusTable, kneeOf, pooledCurve, scenarioTable, spreadTable, svgReport, sweepSvg, sweepTable } from './retrieval/report';
import { calibrationMetrics, reliabilitySvg } from './retrieval/calibration';
import { BENCH_SCENARIOS, loadOracle, sampleTasks, scenarioTask, testSplitOverlap, type BenchScenario } from './retrieval/tasks';

const ROOT = process.cwd();

/** Main source root of a corpus; fetches the base corpora when missing; undefined for an absent injected variant. */
function corpusRoot(name: string): string | undefined {
  return name.endsWith('-injected') ? corpusSourceRoot(name, 'skip') : corpusSourceRoot(name);
}

function toPng(svgPath: string, pngPath: string): string | undefined {
  // A headless browser's screenshot is the window: size it to the drawing (its root's width and height).
  const size = /<svg[^>]*\swidth="(\d+)"[^>]*\sheight="(\d+)"/.exec(readFileSync(svgPath, 'utf8'));
  const windowSize = size ? `${size[1]},${size[2]}` : '1000,460';
  const tries: [string, string[]][] = [
    ['/usr/bin/convert', [svgPath, pngPath]],
    ['rsvg-convert', ['-o', pngPath, svgPath]],
    ...['chromium', 'chromium-browser', 'google-chrome'].map((c): [string, string[]] => [c, ['--headless', '--disable-gpu', '--no-sandbox', `--screenshot=${pngPath}`, `--window-size=${windowSize}`, `file://${svgPath}`]]),
  ];
  for (const [cmd, a] of tries) {
    const r = spawnSync(cmd, a, { stdio: 'ignore', timeout: 60_000 });
    if (!r.error && r.status === 0 && existsSync(pngPath)) return cmd;
  }
  return undefined;
}

/** The tasks a run would take, per corpus and split, and how many of them each scenario can run: ids and counts only. */
async function listTasks(names: string[], opts: { test: number; validation: number; seed?: string }, scenarios: BenchScenario[]): Promise<void> {
  const pooled = new Map<BenchScenario, { test: number; validation: number }>(scenarios.map((sc) => [sc, { test: 0, validation: 0 }]));
  for (const name of names) {
    const src = corpusRoot(name);
    if (!src || !existsSync(src)) { console.log(`${name}: not present; skipped`); continue; }
    const tasks = sampleTasks(await loadOracle(ROOT, src), opts);
    const counts: string[] = [];
    for (const sc of scenarios) {
      const runs = tasks.filter((t) => { try { scenarioTask(readFileSync(join(src, t.file), 'utf8'), t, sc); return true; } catch { return false; } });
      const n = { test: runs.filter((t) => t.split === 'test').length, validation: runs.filter((t) => t.split === 'validation').length };
      pooled.get(sc)!.test += n.test;
      pooled.get(sc)!.validation += n.validation;
      counts.push(`${sc} ${n.test} test / ${n.validation} validation`);
    }
    console.log(`${name}: ${counts.join(', ')}`);
    for (const t of tasks) console.log(`  ${t.split === 'test' ? 'T' : 'V'} ${t.id}`);
  }
  console.log(`all corpora: ${[...pooled].map(([sc, n]) => `${sc} ${n.test} test / ${n.validation} validation`).join(', ')}`);
}

(async () => {
  const test = Number(arg('--tasks') ?? 40);
  const validation = Number(arg('--validation') ?? (arg('--tasks') ? Math.ceil(test / 2) : 20));
  const overlap = testSplitOverlap({ test, validation });
  if (overlap) console.error(overlap);
  const budget = Number(arg('--budget') ?? 4000);
  const seed = arg('--seed');
  const imports = importProtocolArg();
  const settleMs = arg('--settle') ? Number(arg('--settle')) : undefined;
  const budgetsArg = arg('--budgets');
  const budgets = budgetsArg === 'none' ? [] : budgetsArg ? budgetsArg.split(',').map(Number) : SWEEP_BUDGETS;
  if (budgets.some((b) => !Number.isInteger(b) || b <= 0)) throw new Error(`--budgets: positive integers separated by commas, or none (got ${budgetsArg})`);
  const wanted = args('--corpus');
  const scenarioArgs = args('--scenario') as BenchScenario[];
  for (const s of scenarioArgs) if (!BENCH_SCENARIOS.includes(s)) throw new Error(`--scenario ${s}: expected one of ${BENCH_SCENARIOS.join(', ')}`);
  const scenarios = scenarioArgs.length ? scenarioArgs : BENCH_SCENARIOS;
  const names = wanted.length ? wanted : [...DEVELOPMENT_CORPORA, ...INJECTED_CORPORA];
  if (!existsSync(join(ROOT, 'dist/server.js'))) throw new Error('dist/server.js missing: run `npm run build` first');

  if (process.argv.includes('--list-tasks')) { await listTasks(names, { test, validation, seed }, scenarios); return; }

  const reports: CorpusReport[] = [];
  const missing: string[] = [];
  for (const name of names) {
    const src = corpusRoot(name);
    if (!src || !existsSync(src)) { missing.push(name); console.log(`\n${name}: not present (run \`node bench/corpora/inject.mjs ${name.replace(/-injected$/, '')}\`); skipped`); continue; }
    const r = await runCorpus({ root: ROOT, name, sourceRoot: src, test, validation, seed, budgetTokens: budget, budgets, settleMs, scenarios, imports, log: (m) => console.error(m) });
    reports.push(r);
    console.log(corpusTable(r));
    console.log(scenarioTable(name, r.scenarios));
    console.log(sweepTable(r, 'test'));
    console.log(calibrationTable(name, r.calibration));
  }
  if (reports.length > 1) console.log(spreadTable(reports));
  const curve = pooledCurve(reports, 'validation', 'rcl');
  if (curve.length) {
    console.log('\nrcl pooled validation curve (all corpora): budget  recall  full  mean-tokens  median-of-corpus-medians');
    for (const p of curve) console.log(`  ${String(p.budget).padStart(5)}  ${p.recall.toFixed(3)}  ${p.fullCoverage.toFixed(3)}  ${Math.round(p.tokensMean).toString().padStart(6)}  ${Math.round(p.tokensMedianOfCorpora).toString().padStart(6)}`);
    const k = kneeOf(curve.map((p) => ({ tokens: p.tokensMean, recall: p.recall })));
    if (k !== undefined) console.log(`  knee (Kneedle on mean tokens): budget ${curve[k].budget}, recall ${curve[k].recall.toFixed(3)} at ${Math.round(curve[k].tokensMean)} mean tokens`);
  }
  const pooled = calibrate(reports.flatMap((r) => r.validationPoints));
  if (reports.length > 1) console.log(calibrationTable('pooled', pooled));

  const outDir = join(ROOT, 'bench', 'out');
  mkdirSync(outDir, { recursive: true });
  const json = join(outDir, 'retrieval-report.json');
  writeFileSync(json, JSON.stringify({
    generatedAt: new Date().toISOString(), options: { test, validation, budget, seed: seed ?? 'needle-retrieval-bench', imports },
    missingCorpora: missing, pooledCalibration: pooled, corpora: reports,
  }, null, 2));
  // Reliability diagrams: every corpus's test split pooled, one panel per scenario.
  const pooledScenarios = scenarios.map((sc) => ({
    label: sc, metrics: calibrationMetrics(reports.flatMap((r) => r.scenarios[sc]?.test ?? [])),
  }));
  if (reports.length > 1) {
    console.log(scenarioTable('all corpora pooled', Object.fromEntries(scenarios.map((sc) => {
      const parts = reports.map((r) => r.scenarios[sc]).filter((x) => !!x);
      const testPts = parts.flatMap((x) => x!.test);
      return [sc, { ...parts[0]!, test: testPts, tasks: { test: testPts.length, validation: 0, skipped: parts.reduce((a, x) => a + x!.tasks.skipped, 0) }, rcl: null, gate: calibrationMetrics(testPts), coverageMAE: NaN, judged: {} }];
    }))));
  }
  const reliability = join(outDir, 'reliability.svg');
  writeFileSync(reliability, reliabilitySvg(`Needle gate reliability (test split; ${reports.map((r) => r.name).join(', ')})`, pooledScenarios));
  const reliabilityPng = toPng(reliability, join(outDir, 'reliability.png'));
  console.log(`wrote ${reliability}${reliabilityPng ? ` and reliability.png (${reliabilityPng})` : ''}`);
  const svg = join(outDir, 'retrieval.svg');
  writeFileSync(svg, svgReport(reports, reports.length > 1 ? pooled : undefined));
  const png = toPng(svg, join(outDir, 'retrieval.png'));
  console.log(`\nwrote ${json}\nwrote ${svg}${png ? `\nwrote ${join(outDir, 'retrieval.png')} (${png})` : ' (no SVG→PNG converter found; PNG skipped)'}`);
  if (reports.some((r) => r.sweep.length)) {
    const curves = join(outDir, 'retrieval-curves.svg');
    writeFileSync(curves, sweepSvg(reports));
    const cpng = toPng(curves, join(outDir, 'retrieval-curves.png'));
    console.log(`wrote ${curves}${cpng ? `\nwrote ${join(outDir, 'retrieval-curves.png')} (${cpng})` : ''}`);
  }
  if (missing.length) console.log(`missing corpora: ${missing.join(', ')}`);
})().catch((e) => { console.error(e); process.exit(1); });
