// `npm run fit:retrieval`: fits the pipeline's packing constants (server/src/retrieval/fitted.ts)
// on the VALIDATION splits of every development corpus and its injected variant, pooled (the
// first --tasks methods of each corpus are its test split and are never read here), in process
// (no server). For each point of a grid of (kneeTokens, minScore) it runs rcl at budget 4,000 with
// the gate's follow-up rounds, as served, and scores recall, full coverage, median tokens,
// line-attributed noise and the share of gold declarations shown with their Javadoc. The
// selection constants are those of the knee (Kneedle) of the Pareto frontier of pooled recall
// against median tokens: past it, tokens buy little recall. Which shown declarations carry their
// Javadoc (docShare) is then chosen at those constants by contract recall, which counts a gold
// declaration's Javadoc as a needed unit beside the declaration (score.ts), as line-attributed
// noise counts its lines as signal, among the docShare values that keep recall within one
// standard error of the knee's: recall alone gives a shown Javadoc no value, so a fit on it hides
// every one. --write rewrites fitted.ts.
//
//   node dist/bench/retrieval-fit.bench.js [--tasks 40] [--validation 40] [--corpus NAME]...
//        [--knee 800,1100,1500,2000] [--min-share 0.06,0.15] [--doc-share 0,0.5] [--min-score 0.3]
//        [--min-own 0,0.5] [--seed S] [--json FILE] [--write]

import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { defaultSettings, retrieveAt } from '../server/src/service';
import { PACKING, type Packing } from '../server/src/retrieval/fitted';
import { arg, args } from './cli';
import { DEVELOPMENT_CORPORA, INJECTED_CORPORA } from './corpora/list.mjs';
import { kneeOf } from './retrieval/report';
import { median, modeMetrics, scoreResponse, type TaskScore } from './retrieval/score';
import { forEachValidationTask } from './retrieval/validationTasks';

const ROOT = process.cwd();
const numbers = (s: string | undefined, d: number[]) => (s ? s.split(',').map(Number) : d);

interface Point { packing: Packing; scores: Map<string, TaskScore[]> }

(async () => {
  const test = Number(arg('--tasks') ?? 40);
  const validation = Number(arg('--validation') ?? 40);
  const seed = arg('--seed');
  // The default grid: below 1,200 tokens pooled recall falls fast (700: 0.71, 1,000: 0.75 on 84
  // validation tasks), and minShare 0.15 or minScore above 0.3 bought nothing there.
  const knees = numbers(arg('--knee'), [1200, 1400, 1700, 2000]);
  const minShares = numbers(arg('--min-share'), [0.06]);
  const minScores = numbers(arg('--min-score'), [0.3]);
  const docShares = numbers(arg('--doc-share'), [0.5, 1, 2, Infinity]);
  const minOwns = numbers(arg('--min-own'), [0]);
  const names = args('--corpus').length ? args('--corpus') : [...DEVELOPMENT_CORPORA, ...INJECTED_CORPORA];
  const grid: Point[] = knees.flatMap((kneeTokens) => minShares.flatMap((minShare) => minScores.flatMap((minScore) => docShares.flatMap((docShare) => minOwns.map((minOwn) => ({ packing: { kneeTokens, minShare, minScore, docShare, minOwn }, scores: new Map<string, TaskScore[]>() }))))));
  const label = (p: Packing) => `${p.kneeTokens}/${p.minShare}/${p.minScore}/${p.docShare}/${p.minOwn}`;
  const used: string[] = [];
  for (const name of names) {
    const t0 = performance.now();
    const count = await forEachValidationTask(ROOT, name, { test, validation, seed }, async ({ task, src, indexer, uri, textOf, regions }) => {
      const lines = { regions, textOf };
      for (const p of grid) {
        const t = performance.now();
        const res = await retrieveAt(indexer, { textDocument: { uri }, position: task.cursor, budgetTokens: 4000, mode: 'rcl' }, { ...defaultSettings(), packing: p.packing });
        const s = scoreResponse(task, res, src, performance.now() - t, lines);
        p.scores.set(name, [...(p.scores.get(name) ?? []), s]);
      }
    });
    if (count === undefined) { console.log(`${name}: not present (node bench/corpora/inject.mjs ${name.replace(/-injected$/, '')}); skipped`); continue; }
    used.push(name);
    console.error(`${name}: ${count} validation tasks × ${grid.length} settings in ${Math.round((performance.now() - t0) / 1000)} s, indexing included`);
  }

  const rows = grid.map((p) => {
    const all = [...p.scores.values()].flat();
    const m = modeMetrics(all);
    const per = used.map((n) => modeMetrics(p.scores.get(n) ?? []).recallMicro).filter(Number.isFinite);
    return { p, m, spread: Math.max(...per) - Math.min(...per), per };
  });
  console.log(`\nrcl, budget 4000, validation splits pooled over ${used.join(', ')} (${rows[0]?.m.tasks ?? 0} tasks)`);
  console.log('  knee  minShare  minScore  docShare  minOwn   recall  full   docs   contract  tok-med  tok-mean  lnoise  spread   per-corpus recall');
  for (const r of rows) {
    console.log(`  ${String(r.p.packing.kneeTokens).padStart(4)}  ${r.p.packing.minShare.toFixed(2).padStart(8)}  ${r.p.packing.minScore.toFixed(2).padStart(8)}  ${r.p.packing.docShare.toFixed(2).padStart(8)}  ${r.p.packing.minOwn.toFixed(2).padStart(6)}   ${r.m.recallMicro.toFixed(3)}  ${r.m.fullCoverageRate.toFixed(3)}  ${r.m.docRecall.toFixed(3)}  ${r.m.contractRecall.toFixed(3)}   ${String(Math.round(r.m.tokensMedian)).padStart(7)}  ${String(Math.round(r.m.tokensMean)).padStart(8)}  ${r.m.lineNoiseRatio.toFixed(3)}  ${r.spread.toFixed(3)}   ${r.per.map((x) => x.toFixed(3)).join(' ')}`);
  }
  const json = arg('--json');
  if (json) writeFileSync(json, JSON.stringify({ corpora: used, rows: rows.map((r) => ({ packing: r.p.packing, metrics: r.m, spread: r.spread, perCorpusRecall: Object.fromEntries(used.map((n, i) => [n, r.per[i]])) })) }, null, 2));
  // Pareto frontier: no other point has at least the recall for fewer tokens.
  // (Of equal points the first in grid order stands for them.)
  const frontier = rows.filter((r, i) => !rows.some((o, j) => o !== r && o.m.recallMicro >= r.m.recallMicro && o.m.tokensMedian <= r.m.tokensMedian && (o.m.recallMicro > r.m.recallMicro || o.m.tokensMedian < r.m.tokensMedian || j < i)))
    .sort((a, b) => a.m.tokensMedian - b.m.tokensMedian || a.m.recallMicro - b.m.recallMicro);
  console.log(`\nPareto frontier (median tokens → recall): ${frontier.map((r) => `${Math.round(r.m.tokensMedian)}→${r.m.recallMicro.toFixed(3)} (${label(r.p.packing)})`).join('  ')}`);
  const k = kneeOf(frontier.map((r) => ({ tokens: r.m.tokensMedian, recall: r.m.recallMicro })));
  const knee = k === undefined ? frontier[frontier.length - 1] : frontier[k];
  if (!knee) { console.log('no point scored'); return; }
  // Which shown declarations carry their Javadoc: among the points with the knee's selection
  // constants (differing in docShare alone, so the same soft limit bounds their tokens), the one
  // of highest contract recall whose recall is not lower than the knee's by more than one
  // standard error of the paired per-task difference. Recall alone gives a shown Javadoc no
  // value, so the knee by itself would hide every one.
  const perTask = (r: (typeof rows)[number]) => used.flatMap((n) => r.p.scores.get(n) ?? []).map((t) => t.recall);
  const base = perTask(knee);
  const sameSelection = rows.filter((r) => r.p.packing.kneeTokens === knee.p.packing.kneeTokens && r.p.packing.minShare === knee.p.packing.minShare && r.p.packing.minScore === knee.p.packing.minScore && r.p.packing.minOwn === knee.p.packing.minOwn);
  const recallHeld = (r: (typeof rows)[number]) => {
    const d = perTask(r).map((x, i) => x - base[i]);
    const mean = d.reduce((a, b) => a + b, 0) / d.length;
    const se = Math.sqrt(d.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, d.length - 1) / d.length);
    return mean >= -se;
  };
  const chosen = sameSelection.filter(recallHeld).sort((a, b) => b.m.contractRecall - a.m.contractRecall || a.m.tokensMedian - b.m.tokensMedian)[0] ?? knee;
  console.log(`recall knee: ${label(knee.p.packing)}; Javadocs by contract recall at its selection: ${sameSelection.map((r) => `docShare ${r.p.packing.docShare} → ${r.m.contractRecall.toFixed(3)}${recallHeld(r) ? '' : ' (recall lower)'}`).join(', ')}`);
  if (!chosen) { console.log('no point scored'); return; }
  console.log(`chosen: knee/minShare/minScore/docShare/minOwn ${label(chosen.p.packing)}: recall ${chosen.m.recallMicro.toFixed(3)}, full ${chosen.m.fullCoverageRate.toFixed(3)}, Javadocs ${chosen.m.docRecall.toFixed(3)}, contract ${chosen.m.contractRecall.toFixed(3)}, median tokens ${Math.round(chosen.m.tokensMedian)}, line noise ${chosen.m.lineNoiseRatio.toFixed(3)} (in force: ${label(PACKING)})`);
  if (process.argv.includes('--write')) {
    const file = join(ROOT, 'server/src/retrieval/fitted.ts');
    const m = chosen.m;
    const header = [
      '// Packing constants of the pipeline fitted on validation splits pooled across every development',
      '// corpus (and its injected variant), never on a test split. Written by `npm run fit:retrieval`',
      '// (bench/retrieval-fit.bench.ts), which prints the grid it searched; regenerate, do not hand-edit.',
      '//',
      `// Fitted by: npm run fit:retrieval -- --tasks ${test} --validation ${validation}${seed ? ` --seed ${seed}` : ''} --knee ${knees.join(',')}`,
      `//   --min-share ${minShares.join(',')} --min-score ${minScores.join(',')} --doc-share ${docShares.join(',')} --min-own ${minOwns.join(',')}`,
      `// ${m.tasks} validation tasks (${used.length} corpora: ${used.join(', ')});`,
      '// rcl at budget 4,000 with the gate\'s follow-up rounds. The selection constants are the knee of',
      '// pooled recall against median tokens; docShare is chosen there by contract recall (a needed',
      '// declaration and its Javadoc each a unit) where recall holds within one standard error. Scores:',
      `// recall ${m.recallMicro.toFixed(3)}, full coverage ${m.fullCoverageRate.toFixed(3)}, needed declarations' Javadocs shown ${m.docRecall.toFixed(3)},`,
      `// contract recall ${m.contractRecall.toFixed(3)}, ${Math.round(m.tokensMedian)} median tokens, line noise ${m.lineNoiseRatio.toFixed(3)}.`,
      '',
    ].join('\n');
    const text = readFileSync(file, 'utf8')
      .replace(/^[\s\S]*?(?=export interface Packing)/, header)
      .replace(/export const PACKING: Packing = \{[\s\S]*?\};/, `export const PACKING: Packing = {\n  kneeTokens: ${chosen.p.packing.kneeTokens},\n  minShare: ${chosen.p.packing.minShare},\n  minScore: ${chosen.p.packing.minScore},\n  docShare: ${chosen.p.packing.docShare},\n  minOwn: ${chosen.p.packing.minOwn},\n};`);
    writeFileSync(file, text);
    console.log(`wrote ${relative(ROOT, file)} (validation: ${chosen.m.tasks} tasks over ${used.length} corpora, median ${median(chosen.per).toFixed(3)} per-corpus recall)`);
  }
  process.exit(0);
})().catch((e) => { console.error(e); process.exit(1); });
