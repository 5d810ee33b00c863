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
//   node dist/bench/surface-fit.bench.js [--tasks 40] [--validation 80] [--corpus NAME]... [--seed S] [--l2 1] [--folds 5] [--mass-rounds 3] [--misses N] [--json out.json] [--from rows.json] [--scenario new|partial]... [--prior] [--candidates-only] [--without-routes R,…] [--write] [--imports masked|kept]
//
// One table per scenario (surface.ts ROUTE_TABLES): new = the body emptied (gold: what it used),
// partial = the first half of its lines kept (gold: what is first used after the cut; what is
// written is certain and not fitted). Both by default; --write needs both, over every development
// corpus. Besides the k-fold figures, with two or more corpora each scenario is also scored
// leave-one-corpus-out (each corpus by a table fitted on the others). --from refits and scores the
// rows a --json run saved, without collecting (the same code's rows: a route change needs a new run).
// --candidates-only skips retrieval (no coverage, no gate figures): the rows, and so the fitted tables, are the same
// (checked on jsoup's 40 validation tasks: every row identical), so it may --write too.
// --without-routes R,… scores the same rows with those routes' hints removed (before/after a route on one collection; with --from).
// --prior fits the partial table as a difference from the new-body one (L2 on the difference)
// instead of from zero: on validation it made no difference to D̂ recall (leave-one-corpus-out
// 0.764 either way, 5-fold 0.779 vs 0.781), so the table in force is fitted from zero.
// --imports masked|kept: masked (default) blanks the imports only the hidden code used, as an editor
// would not have them yet (bench/retrieval/tasks.ts ImportProtocol); kept is the old protocol, for comparison.

import { readFileSync, writeFileSync } from 'node:fs';
import { calibratedProbability, ROUTE_TABLES, type RouteScenario } from '../server/src/gate/surface';
import { arg, args, corpusSourceRoot, importProtocolArg } from './cli';
import { DEVELOPMENT_CORPORA } from './corpora/list.mjs';
import { collectCorpus, MISS_CLASSES, RELATIONS, routeScenarioOf, type TaskRows } from './surface/collect';
import { auroc } from './retrieval/score';
import { boundedRows, crossValidated, fitTable, recallOfMissed, routeStats, routesOf, score, UNFITTED_ROUTES, type Scores } from './surface/fit';
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
  // new first: with --prior the partial table is fitted as a difference from the new-body one.
  const scenarios = (['new', 'partial'] as const).filter((sc) => !args('--scenario').length || args('--scenario').includes(sc));
  const massRounds = Number(arg('--mass-rounds') ?? 3);
  const write = process.argv.includes('--write');
  if (write && (args('--corpus').length || !scenarios.includes('new') || !scenarios.includes('partial'))) {
    throw new Error('--write fits the tables in force: both scenarios (new, partial) over every development corpus');
  }
  const tables: Partial<Record<RouteScenario, { bias: number; logit: Record<string, readonly [number, number]> }>> = {};
  const dump: TaskRows[] = [];
  let newTasks: TaskRows[] = [];
  const from = arg('--from');
  const saved: TaskRows[] | undefined = from ? JSON.parse(readFileSync(from, 'utf8')) : undefined;
  if (write && args('--without-routes').length) throw new Error('--write fits every route this code has');
  if (saved && write) throw new Error('--write collects afresh: the table in force is fitted on what this code collects');
  for (const scenario of scenarios) {
    const tasks: TaskRows[] = [];
    for (const name of names) {
      if (saved) { tasks.push(...saved.filter((t) => t.corpus === name && t.scenario === routeScenarioOf(scenario))); continue; }
      tasks.push(...await collectCorpus({ root: ROOT, name, sourceRoot: corpusSourceRoot(name, 'fail'), test, validation, seed: arg('--seed'), scenario, candidatesOnly: process.argv.includes('--candidates-only'), imports: importProtocolArg(), log: (m) => console.error(m) }));
    }
    dump.push(...tasks); // saved whole: --without-routes below filters copies, so a later --from sees every route
    // --without-routes: score the same rows as if those routes did not exist (a candidate only they reach is no candidate).
    const without = new Set(args('--without-routes').flatMap((x) => x.split(',')));
    if (without.size) tasks.splice(0, tasks.length, ...tasks.map((t) => ({ ...t, rows: t.rows.map((r) => ({ ...r, reasons: r.reasons.filter((h) => !without.has(h.route)) })).filter((r) => r.reasons.length) })));
    const sc = routeScenarioOf(scenario);
    console.log(`\n==== scenario: ${scenario} (table ${sc}) ====`);
    const ms = tasks.map((t) => t.ms).sort((a, b) => a - b);
    console.log(`validation split only: ${tasks.length} tasks (${names.join(', ')}; first ${test} of each corpus are test and skipped); surface candidates in ${ms[ms.length >> 1]?.toFixed(1)} ms median, ${ms[Math.floor(ms.length * 0.95)]?.toFixed(1)} ms p95`);

    console.log('\nroutes (all candidates): entries, precision, share of gold reached');
    for (const r of routeStats(tasks)) console.log(`  ${r.route.padEnd(20)} ${String(r.entries).padStart(6)}  ${f3(r.precision)}  ${f3(r.goldShare)}`);

    const routes = routesOf(tasks);
    // With --prior the partial table is fitted as a difference from the new-body one (fitted first,
    // or in force); per fold the prior is refitted without the held-out methods' new-body rows.
    const usePrior = sc === 'partial-body' && process.argv.includes('--prior');
    const prior = usePrior ? (newTasks.length ? fitTable(newTasks, routesOf(newTasks), l2, massRounds) : ROUTE_TABLES['new-body']) : undefined;
    const priorFor = usePrior && newTasks.length
      ? (heldOut: TaskRows[]) => { const ids = new Set(heldOut.map((t) => `${t.corpus}/${t.task}`)); const rest = newTasks.filter((t) => !ids.has(`${t.corpus}/${t.task}`)); return fitTable(rest, routesOf(rest), l2, massRounds); }
      : prior ? () => prior : undefined;
    const table = fitTable(tasks, routes, l2, massRounds, prior);
    if (sc === 'new-body') newTasks = tasks;
    console.log(`\nrefit on all ${tasks.length} tasks (IRLS, L2 ${l2}, ${massRounds} per-method mass rounds, ${table.iterations} iterations${table.converged ? '' : ', NOT converged'}):`);
    // The data file holds the fitted routes only; the evidence routes are set in surface.ts.
    const fitted = Object.fromEntries(Object.entries(table.logit).filter(([k]) => !UNFITTED_ROUTES.includes(k)).sort(([a], [b]) => a.localeCompare(b)));
    tables[sc] = { bias: table.bias, logit: fitted };
    console.log(JSON.stringify(tables[sc]));

    const oof = crossValidated(tasks, routes, l2, folds, massRounds, priorFor);
    console.log('\nscores (surface recall = D̂ recall: share of the gold on the bounded surface):');
    console.log(scoreLine('table in force, raw', score(tasks, (t, i) => calibratedProbability(t.rows[i].reasons, sc), false)));
    console.log(scoreLine('table in force', score(tasks, (t, i) => calibratedProbability(t.rows[i].reasons, sc))));
    console.log(scoreLine(`refit, ${folds}-fold OOF`, score(tasks, (t, i) => oof.get(t)![i])));
    // The gold the table in force leaves off D̂ (candidates only: gold no route reaches is no row), and how much of it the refit holds.
    const inForce = (t: TaskRows, i: number) => calibratedProbability(t.rows[i].reasons, sc);
    const allGold = tasks.reduce((a, t) => a + t.gold.length, 0), onDhat = tasks.reduce((a, t) => a + boundedRows(t, inForce).order.filter((i) => t.rows[i].gold).length, 0);
    const rm = recallOfMissed(tasks, inForce, (t, i) => oof.get(t)![i]);
    console.log(`  gold off D̂ under the table in force: ${allGold - onDhat} of ${allGold} (${rm.missed} of them candidates); the ${folds}-fold refit's D̂ holds ${rm.reached} of those candidates (${f3(rm.missed ? rm.reached / rm.missed : NaN)} of them, ${f3((rm.reached) / Math.max(1, allGold - onDhat))} of all gold off D̂)`);
    if (new Set(tasks.map((t) => t.corpus)).size > 1) {
      const loco = crossValidated(tasks, routes, l2, 'corpus', massRounds, priorFor);
      console.log(scoreLine('refit, leave-1-corpus-out', score(tasks, (t, i) => loco.get(t)![i])));
      const rl = recallOfMissed(tasks, inForce, (t, i) => loco.get(t)![i]);
      console.log(`  of the gold candidates off D̂ under the table in force, the leave-1-corpus-out refit's D̂ holds ${rl.reached} of ${rl.missed}`);
      for (const name of names) {
        const mine = tasks.filter((t) => t.corpus === name);
        if (!mine.length) continue;
        const a = score(mine, (t, i) => calibratedProbability(t.rows[i].reasons, sc)), b = score(mine, (t, i) => loco.get(t)![i]);
        console.log(`    ${name.padEnd(22)} tasks ${mine.length}  surface recall in force ${f3(a.surfaceRecall)}  held out ${f3(b.surfaceRecall)}  candidate recall ${f3(a.candidateRecall)}`);
      }
    }
    const gated = tasks.map((t) => ({ score: t.gate.confidence, label: t.gate.fullyCovered }));
    console.log(`  gate in force with follow-up rounds (as the retrieval benchmark): fully covered ${gated.filter((g) => g.label).length}/${tasks.length}, AUROC of confidence ${f3(auroc(gated))}, mean rounds ${(tasks.reduce((a, t) => a + t.gate.rounds, 0) / tasks.length).toFixed(2)}`);
    const tok = tasks.map((t) => t.gate.tokens ?? 0).sort((a, b) => a - b);
    const goldAll = tasks.reduce((a, t) => a + t.gold.length, 0);
    const passedShort = tasks.filter((t) => t.gate.review === false && !t.gate.fullyCovered).length;
    console.log(`  gate in force, validation: recall ${f3(tasks.reduce((a, t) => a + (t.gate.goldInItems ?? 0), 0) / goldAll)}  full coverage ${f3(tasks.filter((t) => t.gate.fullyCovered).length / tasks.length)}  ` +
      `median tokens ${tok[tok.length >> 1]}  median gate ms ${(() => { const g = tasks.map((t) => t.gate.gateMs ?? NaN).filter(Number.isFinite).sort((a, b) => a - b); return g.length ? g[g.length >> 1].toFixed(1) : '-'; })()}  rounds ${(tasks.reduce((a, t) => a + t.gate.rounds, 0) / tasks.length).toFixed(2)}  review ${f3(tasks.filter((t) => t.gate.review).length / tasks.length)}  false confidence (passed, insufficient) ${f3(passedShort / tasks.length)}`);
    // The gold the bounded surface in force leaves out, by how it relates to the target (collect.ts RELATIONS: first that holds; "any" = every one that holds).
    const dm = tasks.flatMap((t) => t.dhatMissed ?? []);
    console.log(`\ngold the bounded D̂ in force misses: ${dm.length} of ${goldAll} (${dm.filter((m) => m.candidate).length} candidates below the bound or MIN_WEIGHT, ${dm.filter((m) => !m.candidate).length} never candidates)`);
    console.log('  relation                    first  (candidate / not)   any');
    for (const rel of RELATIONS) {
      const first = dm.filter((m) => m.why === rel), any = dm.filter((m) => m.also.includes(rel)).length;
      if (!first.length && !any) continue;
      console.log(`  ${rel.padEnd(26)} ${String(first.length).padStart(5)}  (${first.filter((m) => m.candidate).length} / ${first.filter((m) => !m.candidate).length})  ${String(any).padStart(8)}`);
    }
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
  }
  const file = { command: `node dist/bench/surface-fit.bench.js ${process.argv.slice(2).join(' ')}`.trim(), scenarios: tables };
  if (write) {
    writeFileSync(join(ROOT, 'server/data/surface-routes.json'), JSON.stringify(file, null, 1) + '\n');
    console.log('\nwritten: server/data/surface-routes.json (rebuild, then refit the gate: npm run fit:gate)');
  }
  const out = arg('--json');
  if (out) writeFileSync(out, JSON.stringify(dump));
})().catch((e) => { console.error(e); process.exit(1); });
