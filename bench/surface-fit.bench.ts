// `npm run fit:surface`: refits the gate's route table (server/src/gate/surface.ts ROUTE_BIAS /
// ROUTE_LOGIT) on the VALIDATION split of the retrieval benchmark only (bench/retrieval/tasks.ts
// sampling: the first --tasks methods are test and never read here), in process (no server).
// Prints the fitted table (--write writes it to server/data/surface-routes.json), and for the table in force and the refit
// (5-fold out-of-fold, by task, so the refit is not scored on what it was fitted on), raw and
// scaled per method as the gate does (surface.ts normalizedMass): surface
// recall, precision at p thresholds, log-loss and AUROC of p for "candidate is gold", and the
// AUROC of the gate's confidence replayed with no follow-up round; and the gate in force run with
// its follow-up rounds, as the retrieval benchmark runs it (its AUROC, on these validation tasks).
//
//   node dist/bench/surface-fit.bench.js [--tasks 40] [--validation 80] [--corpus NAME]... [--seed S] [--l2 1] [--folds 5] [--mass-rounds 3] [--misses N] [--json out.json] [--scenario new|partial] [--write]
//
// --scenario partial collects half-written bodies instead (gold = what is first used after the
// cut), to measure the surface there; the route table is fitted on emptied bodies (new), the default.

import { writeFileSync } from 'node:fs';
import { calibratedProbability } from '../server/src/gate/surface';
import { arg, args, corpusSourceRoot } from './cli';
import { DEVELOPMENT_CORPORA } from './corpora/list.mjs';
import { collectCorpus, MISS_CLASSES, type TaskRows } from './surface/collect';
import { auroc } from './retrieval/score';
import { crossValidated, fitTable, routeStats, routesOf, score, UNFITTED_ROUTES, type Scores } from './surface/fit';
import { join } from 'node:path';

const ROOT = process.cwd();


const f3 = (x: number | null) => (x === null || Number.isNaN(x) ? '  -  ' : x.toFixed(3));

function scoreLine(label: string, s: Scores): string {
  return `  ${label.padEnd(22)} tasks ${s.tasks} (fully covered ${s.fullyCovered})  candidates ${s.candidates}  gold ${s.gold}  ` +
    `candidate recall ${f3(s.candidateRecall)}  surface recall ${f3(s.surfaceRecall)}  log-loss ${f3(s.logLoss)}  AUROC(p) ${f3(s.auroc)}  ` +
    `task AUROC (no follow-up) ${f3(s.taskAuroc)}  mean Σp on surface ${s.meanSurfaceMass.toFixed(2)}\n` +
    `  ${''.padEnd(22)} precision/recall at p ≥ ` + s.precisionAt.map((x) => `${x.p}: ${f3(x.precision)}/${f3(x.recall)} (${x.entries})`).join('  ');
}

(async () => {
  const test = Number(arg('--tasks') ?? 40);
  const validation = Number(arg('--validation') ?? 80);
  const l2 = Number(arg('--l2') ?? 1);
  const folds = Number(arg('--folds') ?? 5);
  const showMisses = Number(arg('--misses') ?? 0);
  const names = args('--corpus').length ? args('--corpus') : DEVELOPMENT_CORPORA;
  const scenario = (arg('--scenario') ?? 'new') as 'new' | 'partial';
  const tasks: TaskRows[] = [];
  for (const name of names) {
    tasks.push(...await collectCorpus({ root: ROOT, name, sourceRoot: corpusSourceRoot(name, 'fail'), test, validation, seed: arg('--seed'), scenario, log: (m) => console.error(m) }));
  }
  console.log(`scenario: ${scenario}`);
  const ms = tasks.map((t) => t.ms).sort((a, b) => a - b);
  console.log(`validation split only: ${tasks.length} tasks (${names.join(', ')}; first ${test} of each corpus are test and skipped); surface candidates in ${ms[ms.length >> 1]?.toFixed(1)} ms median, ${ms[Math.floor(ms.length * 0.95)]?.toFixed(1)} ms p95`);

  console.log('\nroutes (all candidates): entries, precision, share of gold reached');
  for (const r of routeStats(tasks)) console.log(`  ${r.route.padEnd(20)} ${String(r.entries).padStart(6)}  ${f3(r.precision)}  ${f3(r.goldShare)}`);

  const routes = routesOf(tasks);
  const massRounds = Number(arg('--mass-rounds') ?? 3);
  const table = fitTable(tasks, routes, l2, massRounds);
  console.log(`\nrefit on all ${tasks.length} tasks (IRLS, L2 ${l2}, ${massRounds} per-method mass rounds, ${table.iterations} iterations${table.converged ? '' : ', NOT converged'}):`);
  // The data file holds the fitted routes only; the evidence routes are set in surface.ts.
  const fitted = Object.fromEntries(Object.entries(table.logit).filter(([k]) => !UNFITTED_ROUTES.includes(k)).sort(([a], [b]) => a.localeCompare(b)));
  const file = { command: `node dist/bench/surface-fit.bench.js ${process.argv.slice(2).join(' ')}`.trim(), bias: table.bias, logit: fitted };
  console.log(JSON.stringify(file, null, 1));
  if (process.argv.includes('--write')) {
    if (scenario !== 'new' || args('--corpus').length) throw new Error('--write fits the table in force: the new-body scenario over every development corpus');
    writeFileSync(join(ROOT, 'server/data/surface-routes.json'), JSON.stringify(file, null, 1) + '\n');
    console.log('written: server/data/surface-routes.json (rebuild, then refit the gate: npm run fit:gate)');
  }

  const oof = crossValidated(tasks, routes, l2, folds, massRounds);
  console.log('\nscores:');
  console.log(scoreLine('table in force, raw', score(tasks, (t, i) => calibratedProbability(t.rows[i].reasons), false)));
  console.log(scoreLine('table in force', score(tasks, (t, i) => calibratedProbability(t.rows[i].reasons))));
  console.log(scoreLine(`refit, ${folds}-fold OOF, raw`, score(tasks, (t, i) => oof.get(t)![i], false)));
  console.log(scoreLine(`refit, ${folds}-fold OOF`, score(tasks, (t, i) => oof.get(t)![i])));
  const gated = tasks.map((t) => ({ score: t.gate.confidence, label: t.gate.fullyCovered }));
  console.log(`  gate in force with follow-up rounds (as the retrieval benchmark): fully covered ${gated.filter((g) => g.label).length}/${tasks.length}, AUROC of confidence ${f3(auroc(gated))}, mean rounds ${(tasks.reduce((a, t) => a + t.gate.rounds, 0) / tasks.length).toFixed(2)}`);
  const onList = tasks.reduce((a, t) => a + t.rows.filter((r) => r.gold).length, 0);
  console.log(`  gold on the candidate list per task (SURFACE_MASS): ${(onList / tasks.length).toFixed(2)}`);

  const missed = tasks.flatMap((t) => t.missed.map((g) => ({ t, g })));
  const byKind = new Map<string, number>();
  for (const { g } of missed) byKind.set(`${g.kind}${g.crossFile ? ' cross-file' : ' same-file'}`, (byKind.get(`${g.kind}${g.crossFile ? ' cross-file' : ' same-file'}`) ?? 0) + 1);
  console.log(`\ngold never on the candidate list: ${missed.length} of ${tasks.reduce((a, t) => a + t.gold.length, 0)}: ` + [...byKind].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', '));
  const goldN = tasks.reduce((a, t) => a + t.gold.length, 0);
  console.log('  by relation to the target (share of all gold): ' + MISS_CLASSES.map((c) => [c, missed.filter((m) => m.g.why === c).length] as const)
    .filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1]).map(([c, n]) => `${c} ${n} (${(100 * n / goldN).toFixed(1)} %)`).join(', '));
  for (const { t, g } of missed.slice(0, showMisses)) console.log(`  ${t.task}  (${t.owner})  misses ${g.qualified}  [${g.why}]`);
  const out = arg('--json');
  if (out) writeFileSync(out, JSON.stringify(tasks));
})().catch((e) => { console.error(e); process.exit(1); });
