// `npm run fit:retrieval`: fits one of packing's member models and its two prices
// (server/data/packing.json, read by server/src/retrieval/fitted.ts) on the VALIDATION splits of
// every development corpus and its injected variant, pooled (the first --tasks methods of each
// corpus are its test split and are never read here), in process (no server). Two passes:
//  1. Every ranked candidate packing weighs (memberModel.ts MEMBER_COLUMNS, the pipeline's own
//     structured evidence) is a row, labelled needed when it declares a gold symbol of the task.
//     An L2-penalised logistic regression (IRLS from zero, a fixed iteration cap: deterministic,
//     bench/surface/logistic.ts) gives P(needed). Printed: pooled and leave-one-corpus-out AUROC
//     (a corpus left out with its injected variant); of the penalties --l2 lists, the one with the
//     best mean AUROC leaving one corpus out is used. --model-only stops here.
//  2. With that model, rcl at budget 4,000 with the gate's follow-up rounds, as served, for a grid
//     of `value` (tokens a needed declaration is worth: shown when p × value > its tokens) and
//     `docValue` (tokens its Javadoc sentence is worth: kept when p × docValue > the tokens the
//     sentence adds). `value` is the knee (Kneedle) of the Pareto frontier of pooled recall against
//     median tokens, with docValue held at the grid's first; docValue is then chosen at that value,
//     among the docValues that keep recall within one standard error of the knee's: by default
//     (--doc-objective target) the best contract recall (a gold declaration's Javadoc counts as a
//     needed unit beside it) among those within the token target (--token-target, 1,200 median
//     tokens, the issue's), else the one with the fewest median tokens: sentences are bought only
//     with tokens the target leaves; with --doc-objective contract, at the knee of contract recall
//     against median tokens (with fewer than three such docValues: the best contract recall).
//     --objective floor takes the knee over the weakest corpus's recall instead of the pooled recall.
//     --value-objective target takes, instead of the knee, the frontier point of highest recall whose
//     median tokens stay within the token target (#14's recall at ≤ 1,200 median tokens), the knee
//     when no point does.
// --for new-body|written-body (default new-body): which model is fitted and, with --write, rewritten
// in packing.json (the other entry is kept as it is). --inputs linear|products: the model's inputs,
// the base inputs alone or with their pairwise products (memberModel.ts); by default those of the
// entry in force. Rows always hold every input, so one --rows file serves both.
// --write records the command, the penalty λ chosen, the scores and the frontier in the entry.
// --rows FILE keeps pass 1's rows (read back when the file exists).
// --row-scenarios new,partial: pass 1 also takes rows from the same tasks with the first half of the
// body written (tasks.ts scenarioTask; the candidates the written half already uses are left out),
// so the model is fitted where the gate reads it too; pass 2 scores new bodies only.
//
//   node dist/bench/retrieval-fit.bench.js [--for new-body|written-body] [--inputs linear|products] [--tasks 40] [--validation 12] [--corpus NAME]...
//        [--value 500,1000,2000,3000] [--doc-value 300,100,1000] [--l2 1,3,10,30,100] [--rows FILE] [--budget 4000] [--seed S]
//        [--objective pooled|floor] [--value-objective knee|target] [--doc-objective target|contract] [--token-target 1200] [--model-only] [--json FILE] [--write] [--imports masked|kept]
//        [--row-scenarios new|new,partial] [--with-current]   (the model and prices in force scored on the same tasks, beside the grid, never chosen)
//
// --imports masked|kept: masked (default) blanks the imports only the hidden code used, as an editor
// would not have them yet (bench/retrieval/tasks.ts ImportProtocol); kept is the old protocol, for comparison.

import { closeSync, createReadStream, existsSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createInterface } from 'node:readline';
import { defaultSettings, retrieveAt } from '../server/src/service';
import { PACKING_KINDS, PACKINGS, type FittedPacking, type PackingFile, type PackingKind } from '../server/src/retrieval/fitted';
import { inputsOf, MEMBER_COLUMNS, MEMBER_INPUTS, type MemberInputs, type MemberRow, type Packing } from '../server/src/retrieval/memberModel';
import { arg, args, importProtocolArg } from './cli';
import { DEVELOPMENT_CORPORA, INJECTED_CORPORA } from './corpora/list.mjs';
import { kneeOf } from './retrieval/report';
import { auroc, median, modeMetrics, scoreResponse, type TaskScore } from './retrieval/score';
import type { BenchScenario, GoldSymbol } from './retrieval/tasks';
import { forEachValidationTask } from './retrieval/validationTasks';
import { fitLogistic, sigmoid } from './surface/logistic';

const ROOT = process.cwd();
const numbers = (s: string | undefined, d: number[]) => (s ? s.split(',').map(Number) : d);
const MAX_ITERATIONS = 50;

/** A weighed candidate with its label: does it declare one of the task's gold symbols? */
interface Row { corpus: string; task: string; scenario: BenchScenario; x: number[]; y: number }

/** Whether a weighed candidate declares one of `symbols`: same file, the symbol's name line within its first line … name line. */
function declaresOne(r: MemberRow, symbols: readonly GoldSymbol[], src: string): boolean {
  const rel = relative(src, r.path).split('\\').join('/');
  return symbols.some((g) => g.file === rel && r.startLine <= g.maskedLine && g.maskedLine <= r.nameLine);
}

interface Point { packing: Packing; scores: Map<string, TaskScore[]> }

// --rows FILE holds one row per line: a pass over 1,500 tasks makes more text than one string can.
function writeRows(file: string, rows: Row[]): void {
  const fd = openSync(file, 'w');
  try { for (let i = 0; i < rows.length; i += 1000) writeSync(fd, rows.slice(i, i + 1000).map((r) => JSON.stringify(r) + '\n').join('')); } finally { closeSync(fd); }
}
async function readRows(file: string): Promise<Row[]> {
  const rows: Row[] = [];
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) if (line) rows.push(JSON.parse(line) as Row);
  return rows;
}

(async () => {
  const test = Number(arg('--tasks') ?? 40);
  const validation = Number(arg('--validation') ?? 12);
  const seed = arg('--seed');
  const values = numbers(arg('--value'), [500, 1000, 2000, 3000]);
  const kind = (arg('--for') ?? 'new-body') as PackingKind;
  if (!PACKING_KINDS.includes(kind)) throw new Error(`--for ${PACKING_KINDS.join('|')}`);
  const inForce = PACKINGS[kind];
  const inputs = (arg('--inputs') ?? inputsOf(inForce) ?? 'products') as MemberInputs;
  if (!(inputs in MEMBER_INPUTS)) throw new Error('--inputs linear|products');
  const columns = MEMBER_COLUMNS.slice(0, MEMBER_INPUTS[inputs]);
  const docValues = numbers(arg('--doc-value'), [inForce.docValue, 100, 1000]);
  const l2s = numbers(arg('--l2'), [1]);
  const budget = Number(arg('--budget') ?? 4000);
  const rowsFile = arg('--rows');
  const objective = arg('--objective') ?? 'pooled';
  if (!['pooled', 'floor'].includes(objective)) throw new Error('--objective pooled|floor');
  const valueObjective = arg('--value-objective') ?? 'knee';
  if (!['knee', 'target'].includes(valueObjective)) throw new Error('--value-objective knee|target');
  const docObjective = arg('--doc-objective') ?? 'target';
  if (!['target', 'contract'].includes(docObjective)) throw new Error('--doc-objective target|contract');
  const tokenTarget = Number(arg('--token-target') ?? 1200);
  const names = args('--corpus').length ? args('--corpus') : [...DEVELOPMENT_CORPORA, ...INJECTED_CORPORA];
  const rowScenarios = (arg('--row-scenarios') ?? 'new').split(',') as BenchScenario[];
  if (!rowScenarios.length || rowScenarios.some((sc) => sc !== 'new' && sc !== 'partial')) throw new Error('--row-scenarios new[,partial]');
  const imports = importProtocolArg();
  const opts = { test, validation, seed, imports };

  // Pass 1: training rows. The rows' inputs do not depend on the coefficients, so a packing.json
  // made stale by a change of MEMBER_COLUMNS is stood in for by a zero model (every p = ½).
  const stale = !inputsOf(inForce);
  const collecting: Packing = stale ? { ...inForce, columns: [...MEMBER_COLUMNS], beta: MEMBER_COLUMNS.map(() => 0) } : inForce;
  let rows: Row[] = [];
  if (rowsFile && existsSync(rowsFile)) rows = await readRows(rowsFile);
  else {
    for (const name of names) {
      const t0 = performance.now();
      const count = await forEachValidationTask(ROOT, name, opts, async ({ task, src, indexer, uri }) => {
        let seen: MemberRow[] = [];
        await retrieveAt(indexer, { textDocument: { uri }, position: task.cursor, budgetTokens: 4000, mode: 'rcl' }, { ...defaultSettings(), packing: collecting, observeMembers: (r) => { seen = r; } });
        for (const r of seen) {
          // What a partial body's written half already uses is in the text at the cursor, and not
          // gold; labelled 0 it would teach the model that a body's own references are not needed,
          // which an existing body contradicts. It is left out of the rows.
          if (task.written && declaresOne(r, task.written, src)) continue;
          rows.push({ corpus: name, task: task.id, scenario: task.scenario, x: r.x, y: declaresOne(r, task.gold, src) ? 1 : 0 });
        }
      }, rowScenarios);
      if (count === undefined) { console.log(`${name}: not present (node bench/corpora/inject.mjs ${name.replace(/-injected$/, '')}); skipped`); continue; }
      console.error(`${name}: ${count} validation tasks (${rowScenarios.join(' and ')} bodies), rows collected in ${Math.round((performance.now() - t0) / 1000)} s, indexing included`);
    }
    if (rowsFile) writeRows(rowsFile, rows);
  }
  if (rows.some((r) => r.x.length !== MEMBER_COLUMNS.length)) throw new Error(`${rowsFile}: rows of another MEMBER_COLUMNS (${rows.find((r) => r.x.length !== MEMBER_COLUMNS.length)?.x.length} inputs, not ${MEMBER_COLUMNS.length}); delete it to collect them again`);
  const corpora = [...new Set(rows.map((r) => r.corpus))];
  const fit = (rs: Row[], l2: number) => fitLogistic(rs.map((r) => r.x.slice(0, columns.length)), rs.map((r) => r.y), { l2, unpenalised: [0], maxIterations: MAX_ITERATIONS });
  const score = (beta: number[], r: Row) => sigmoid(beta.reduce((s, b, j) => s + b * r.x[j], 0));
  // Leaving one corpus out leaves its injected variant out too: the same code base with a few
  // changed lines would otherwise stand in the training rows for the corpus held out.
  const family = (c: string) => c.replace(/-injected$/, '');
  // Each family's rows scored by a fit on the others; AUROC per corpus (and, with partial rows, per scenario).
  const heldOut = (l2: number) => {
    const predicted = new Map<Row, number>();
    for (const f of [...new Set(corpora.map(family))]) {
      const m = fit(rows.filter((r) => family(r.corpus) !== f), l2);
      for (const r of rows) if (family(r.corpus) === f) predicted.set(r, score(m.beta, r));
    }
    const aucOf = (rs: Row[]) => auroc(rs.map((r) => ({ score: predicted.get(r)!, label: r.y === 1 })));
    const byScenario = rowScenarios.map((sc) => ({ scenario: sc, auc: aucOf(rows.filter((r) => (r.scenario ?? 'new') === sc)) }));
    return Object.assign(corpora.map((c) => ({ c, auc: aucOf(rows.filter((r) => r.corpus === c)) })), { byScenario });
  };
  // The penalty: the one of --l2's list with the best mean AUROC leaving one corpus out.
  const meanAuc = (h: { auc?: number | null }[]) => h.reduce((s, x) => s + (x.auc ?? 0), 0) / Math.max(1, h.length);
  const penalties = l2s.map((l2) => ({ l2, held: heldOut(l2) }));
  if (penalties.length > 1) console.log(`\npenalty by mean AUROC leaving one corpus out: ${penalties.map((p) => `λ ${p.l2} → ${meanAuc(p.held).toFixed(3)}`).join(', ')}`);
  const { l2, held } = penalties.reduce((a, b) => (meanAuc(b.held) > meanAuc(a.held) + 1e-12 ? b : a));
  const model = fit(rows, l2);
  const pooled = auroc(rows.map((r) => ({ score: score(model.beta, r), label: r.y === 1 })));
  console.log(`\n${kind} member model (${inputs} inputs, ${columns.length} columns): ${rows.length} weighed candidates (${rows.filter((r) => r.y).length} needed) from ${new Set(rows.map((r) => r.corpus + r.task)).size} tasks; IRLS ${model.iterations} iterations${model.converged ? '' : ' (not converged)'}, λ ${l2}`);
  const byScore = auroc(rows.map((r) => ({ score: r.x[MEMBER_COLUMNS.indexOf('log score')], label: r.y === 1 })));
  console.log(`  AUROC pooled ${pooled?.toFixed(3)} (the recall score alone: ${byScore?.toFixed(3)}); leave one corpus out: ${held.map((h) => `${h.c} ${h.auc?.toFixed(3)}`).join(', ')}`);
  if (rowScenarios.length > 1) console.log(`  leave one corpus out, by scenario: ${held.byScenario.map((h) => `${h.scenario} ${h.auc?.toFixed(3)} (${rows.filter((r) => (r.scenario ?? 'new') === h.scenario).length} rows)`).join(', ')}`);
  for (let j = 0; j < columns.length; j++) console.log(`  ${columns[j].padEnd(24)} ${model.beta[j].toFixed(4).padStart(9)}`);
  const beta = model.beta.map((b) => Math.round(b * 1e4) / 1e4);
  if (process.argv.includes('--model-only')) process.exit(0);

  // Pass 2: the prices, with the model in force.
  const grid: Point[] = values.flatMap((value) => docValues.map((docValue) => ({ packing: { value, docValue, columns, beta }, scores: new Map<string, TaskScore[]>() })));
  const label = (p: Packing) => `value ${p.value} / docValue ${p.docValue}`;
  // --with-current: the model and prices in force (packing.json) scored on the same tasks, beside the grid, never chosen.
  const current: Point | undefined = process.argv.includes('--with-current') && !stale ? { packing: inForce, scores: new Map() } : undefined;
  const used: string[] = [];
  for (const name of corpora) {
    const t0 = performance.now();
    await forEachValidationTask(ROOT, name, opts, async ({ task, src, indexer, uri, textOf, regions }) => {
      const lines = { regions, textOf };
      for (const p of current ? [...grid, current] : grid) {
        const t = performance.now();
        const res = await retrieveAt(indexer, { textDocument: { uri }, position: task.cursor, budgetTokens: budget, mode: 'rcl' }, { ...defaultSettings(), packing: p.packing });
        const s = scoreResponse(task, res, src, performance.now() - t, lines);
        p.scores.set(name, [...(p.scores.get(name) ?? []), s]);
      }
    });
    used.push(name);
    console.error(`${name}: ${grid.length} settings in ${Math.round((performance.now() - t0) / 1000)} s, indexing included`);
  }

  const rowOf = (p: Point) => {
    const all = [...p.scores.values()].flat();
    const m = modeMetrics(all);
    const per = used.map((n) => modeMetrics(p.scores.get(n) ?? []).recallMicro).filter(Number.isFinite);
    return { p, m, spread: Math.max(...per) - Math.min(...per), per };
  };
  const table = grid.map(rowOf);
  console.log(`\nrcl, budget ${budget}, validation splits pooled over ${used.join(', ')} (${table[0]?.m.tasks ?? 0} tasks)`);
  console.log('  value  docVal  recall  full   docs   contract  tok-med  tok-mean  lnoise  spread   per-corpus recall');
  for (const r of table) {
    console.log(`  ${String(r.p.packing.value).padStart(5)}  ${String(r.p.packing.docValue).padStart(6)}  ${r.m.recallMicro.toFixed(3)}  ${r.m.fullCoverageRate.toFixed(3)}  ${r.m.docRecall.toFixed(3)}  ${r.m.contractRecall.toFixed(3)}   ${String(Math.round(r.m.tokensMedian)).padStart(7)}  ${String(Math.round(r.m.tokensMean)).padStart(8)}  ${r.m.lineNoiseRatio.toFixed(3)}  ${r.spread.toFixed(3)}   ${r.per.map((x) => x.toFixed(3)).join(' ')}`);
  }
  if (current) {
    const r = rowOf(current);
    console.log(`  in force (packing.json ${kind}, ${label(inForce)}): recall ${r.m.recallMicro.toFixed(3)}, full ${r.m.fullCoverageRate.toFixed(3)}, contract ${r.m.contractRecall.toFixed(3)}, median tokens ${Math.round(r.m.tokensMedian)}, line noise ${r.m.lineNoiseRatio.toFixed(3)}, spread ${r.spread.toFixed(3)}; per corpus ${r.per.map((x) => x.toFixed(3)).join(' ')}`);
  }
  const json = arg('--json');
  if (json) writeFileSync(json, JSON.stringify({ corpora: used, model: { kind, columns, beta, auroc: pooled, leaveOneCorpusOut: held }, rows: table.map((r) => ({ packing: { value: r.p.packing.value, docValue: r.p.packing.docValue }, metrics: r.m, spread: r.spread, perCorpusRecall: Object.fromEntries(used.map((n, i) => [n, r.per[i]])) })) }, null, 2));
  // The value is chosen with the Javadoc decision held at the first docValue of the grid, so the
  // frontier traces selection alone; docValue is chosen afterwards at that value.
  // --objective floor: the recall axis is the weakest corpus's recall, so the value is bought
  // where it lifts the corpus that falls behind, not where it lifts the pool.
  const recallOf = (r: (typeof table)[number]) => (objective === 'floor' ? Math.min(...r.per) : r.m.recallMicro);
  const selection = table.filter((r) => r.p.packing.docValue === docValues[0]);
  const frontier = selection.filter((r, i) => !selection.some((o, j) => o !== r && recallOf(o) >= recallOf(r) && o.m.tokensMedian <= r.m.tokensMedian && (recallOf(o) > recallOf(r) || o.m.tokensMedian < r.m.tokensMedian || j < i)))
    .sort((a, b) => a.m.tokensMedian - b.m.tokensMedian || recallOf(a) - recallOf(b));
  const frontierText = frontier.map((r) => `${Math.round(r.m.tokensMedian)}→${recallOf(r).toFixed(3)} (value ${r.p.packing.value})`).join('  ');
  console.log(`\nPareto frontier (median tokens → ${objective === 'floor' ? 'weakest corpus\'s' : 'pooled'} recall): ${frontierText}`);
  for (const r of frontier) console.log(`  value ${String(r.p.packing.value).padStart(5)}: recall ${r.m.recallMicro.toFixed(3)}, full coverage ${r.m.fullCoverageRate.toFixed(3)}, median tokens ${Math.round(r.m.tokensMedian)}, line noise ${r.m.lineNoiseRatio.toFixed(3)}`);
  const k = kneeOf(frontier.map((r) => ({ tokens: r.m.tokensMedian, recall: recallOf(r) })));
  const recallKnee = k === undefined ? frontier[frontier.length - 1] : frontier[k];
  const withinTokens = frontier.filter((r) => r.m.tokensMedian <= tokenTarget);
  // The point whose value is taken: the knee, or with --value-objective target the best recall within the token target.
  const valuePoint = valueObjective === 'target' && withinTokens.length ? withinTokens[withinTokens.length - 1] : recallKnee;
  if (!valuePoint) { console.log('no point scored'); return; }
  if (valuePoint !== recallKnee) console.log(`recall knee: value ${recallKnee.p.packing.value}; within ${tokenTarget} median tokens the best recall is at value ${valuePoint.p.packing.value}`);
  // Recall alone gives a shown Javadoc no value, so the knee by itself would hide every one.
  const perTask = (r: (typeof table)[number]) => used.flatMap((n) => r.p.scores.get(n) ?? []).map((t) => t.recall);
  const base = perTask(valuePoint);
  const sameValue = table.filter((r) => r.p.packing.value === valuePoint.p.packing.value);
  const recallHeld = (r: (typeof table)[number]) => {
    const d = perTask(r).map((x, i) => x - base[i]);
    const mean = d.reduce((a, b) => a + b, 0) / d.length;
    const se = Math.sqrt(d.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, d.length - 1) / d.length);
    return mean >= -se;
  };
  const keeping = sameValue.filter(recallHeld).sort((a, b) => a.m.tokensMedian - b.m.tokensMedian || a.m.contractRecall - b.m.contractRecall);
  // --doc-objective contract: the knee of contract recall against median tokens, so a Javadoc
  // sentence is bought where it still buys contract recall. target: sentences only with the
  // tokens the token target leaves (the best contract recall within it), else the cheapest.
  const docFrontier = keeping.filter((r) => !keeping.some((o) => o !== r && o.m.contractRecall >= r.m.contractRecall && o.m.tokensMedian <= r.m.tokensMedian && (o.m.contractRecall > r.m.contractRecall || o.m.tokensMedian < r.m.tokensMedian)));
  const docKnee = kneeOf(docFrontier.map((r) => ({ tokens: r.m.tokensMedian, recall: r.m.contractRecall })));
  const byContract = docKnee !== undefined ? docFrontier[docKnee] : [...keeping].sort((a, b) => b.m.contractRecall - a.m.contractRecall || a.m.tokensMedian - b.m.tokensMedian)[0];
  const withinTarget = keeping.filter((r) => r.m.tokensMedian <= tokenTarget).sort((a, b) => b.m.contractRecall - a.m.contractRecall || a.m.tokensMedian - b.m.tokensMedian);
  const chosen = (docObjective === 'target' ? withinTarget[0] ?? keeping[0] : byContract) ?? valuePoint;
  console.log(`value ${valuePoint.p.packing.value}; Javadocs there (contract recall / median tokens): ${sameValue.map((r) => `docValue ${r.p.packing.docValue} → ${r.m.contractRecall.toFixed(3)} / ${Math.round(r.m.tokensMedian)}${recallHeld(r) ? '' : ' (recall lower)'}`).join(', ')}`);
  const m = chosen.m;
  console.log(`chosen: ${label(chosen.p.packing)}: recall ${m.recallMicro.toFixed(3)}, full ${m.fullCoverageRate.toFixed(3)}, Javadocs ${m.docRecall.toFixed(3)}, contract ${m.contractRecall.toFixed(3)}, median tokens ${Math.round(m.tokensMedian)}, line noise ${m.lineNoiseRatio.toFixed(3)} (in force: ${label(inForce)})`);
  console.log(`per corpus at the chosen point (recall / full coverage / median tokens / line noise): ${used.map((n) => { const c = modeMetrics(chosen.p.scores.get(n) ?? []); return `${n} ${c.recallMicro.toFixed(3)} / ${c.fullCoverageRate.toFixed(2)} / ${Math.round(c.tokensMedian)} / ${c.lineNoiseRatio.toFixed(3)}`; }).join('; ')}`);
  if (process.argv.includes('--write')) {
    const file = join(ROOT, 'server/data/packing.json');
    if (![chosen.p.packing.value, chosen.p.packing.docValue].every(Number.isFinite)) throw new Error('packing.json holds finite prices only');
    const r3 = (x: number | null | undefined) => Math.round((x ?? NaN) * 1000) / 1000;
    const aucs = held.map((h) => h.auc ?? NaN);
    const entry: FittedPacking = {
      fittedBy: `npm run fit:retrieval -- --for ${kind} --inputs ${inputs} --tasks ${test} --validation ${validation}${seed ? ` --seed ${seed}` : ''} --value ${values.join(',')} --doc-value ${docValues.join(',')} --l2 ${l2s.join(',')}${objective !== 'pooled' ? ` --objective ${objective}` : ''}${valueObjective !== 'knee' ? ` --value-objective ${valueObjective}` : ''}${docObjective !== 'target' ? ` --doc-objective ${docObjective}` : ''}${tokenTarget !== 1200 ? ` --token-target ${tokenTarget}` : ''}${rowScenarios.join(',') !== 'new' ? ` --row-scenarios ${rowScenarios.join(',')}` : ''} --imports ${imports}`,
      fittedOn: { tasks: m.tasks, corpora: used, rows: rows.length, needed: rows.filter((r) => r.y).length },
      penalty: { l2, of: l2s },
      auroc: { pooled: r3(pooled), leaveOneCorpusOut: { min: r3(Math.min(...aucs)), max: r3(Math.max(...aucs)) } },
      valueRule: valueObjective === 'target'
        ? `the best ${objective === 'floor' ? 'weakest-corpus' : 'pooled'} recall within ${tokenTarget} median tokens on the frontier of recall against median tokens`
        : `the knee of ${objective === 'floor' ? 'the weakest corpus\'s' : 'pooled'} recall against median tokens`,
      docValueRule: `where recall holds within one standard error, ${docObjective === 'target' ? `the best contract recall within ${tokenTarget} median tokens, else the cheapest` : 'at the knee of contract recall against median tokens'}`,
      scoredOn: 'new bodies of the same validation tasks (rcl, budget 4,000, follow-up as served)',
      scores: { recall: r3(m.recallMicro), fullCoverage: r3(m.fullCoverageRate), docRecall: r3(m.docRecall), contractRecall: r3(m.contractRecall), medianTokens: Math.round(m.tokensMedian), lineNoise: r3(m.lineNoiseRatio) },
      frontier: frontier.map((r) => ({ value: r.p.packing.value, medianTokens: Math.round(r.m.tokensMedian), recall: r3(recallOf(r)) })),
      value: chosen.p.packing.value,
      docValue: chosen.p.packing.docValue,
      columns: [...columns],
      beta,
    };
    // Only this kind's entry changes; the other model stays as it was fitted.
    const data = JSON.parse(readFileSync(file, 'utf8')) as PackingFile;
    data.models[kind] = entry;
    writeFileSync(file, JSON.stringify(data, null, 2) + '\n');
    console.log(`wrote ${kind} in ${relative(ROOT, file)} (validation: ${m.tasks} tasks over ${used.length} corpora, median ${median(chosen.per).toFixed(3)} per-corpus recall)`);
  }
  process.exit(0);
})().catch((e) => { console.error(e); process.exit(1); });
