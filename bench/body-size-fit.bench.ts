// `npm run fit:body-size`: fits the gate's body size model (server/src/gate/bodySize.ts): a linear
// model of log(1 + the distinct declarations a method's real body references) over what is known
// at a new body's cursor (the bodies beside it, its namesakes', its class's; its declaration; its
// callers). Rows are the retrieval benchmark's eligible tasks of every development corpus that the
// test split does not take (the first --tasks N of the seeded order are skipped, as every fit does);
// the label is the javac oracle's count of internal declarations the body references (the gold of
// those tasks). Injected variants are the same code and are left out. Each corpus weighs the same.
//
//   node dist/bench/body-size-fit.bench.js [--tasks N] [--corpus NAME]... [--l2 L] [--write]
//
// It prints each column's correlation with the label per corpus, the fitted coefficients, and the
// correlation of predictions with the label on each corpus when that corpus is left out of the fit
// (the figure that says whether the model carries to unseen code). --write writes
// server/data/body-size-model.json; refit the gate after it (`npm run fit:gate`), whose records
// carry the model's prediction.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Indexer } from '../server/src/index/indexer';
import { ownerType } from '../server/src/retrieval/symbols';
import { isTypeKind } from '../server/src/java/symbols';
import { bodySizeInputs, bodySizeRow, BODY_SIZE_COLUMN_NAMES, type BodySizeModel } from '../server/src/gate/bodySize';
import type { Target } from '../server/src/retrieval/request';
import { arg, args, corpusSourceRoot } from './cli';
import { DEVELOPMENT_CORPORA } from './corpora/list.mjs';
import { eligibleTasks, loadOracle, sampleFrom } from './retrieval/tasks';
import { mean, pearson } from './retrieval/score';
import { solveSymmetric } from './surface/logistic';

const ROOT = process.cwd();
const OUT = join(ROOT, 'server/data/body-size-model.json');

interface Row { corpus: string; x: number[]; y: number }

/** Weighted ridge least squares: each row weighs `w`, the intercept (column 0) unpenalised. */
function fitLinear(rows: readonly { x: number[]; y: number; w: number }[], l2: number): number[] {
  const d = rows[0]?.x.length ?? 0;
  const a = Array.from({ length: d }, (_, i) => Array.from({ length: d }, (_, j) => (i === j && i > 0 ? l2 : 0)));
  const b = new Array<number>(d).fill(0);
  for (const r of rows) {
    for (let i = 0; i < d; i++) {
      if (r.x[i] === 0) continue;
      b[i] += r.w * r.x[i] * r.y;
      for (let j = 0; j < d; j++) a[i][j] += r.w * r.x[i] * r.x[j];
    }
  }
  return solveSymmetric(a, b);
}

/** Rows weighted so that every corpus sums to 1. */
function weighted(rows: readonly Row[]): { x: number[]; y: number; w: number }[] {
  const per = new Map<string, number>();
  for (const r of rows) per.set(r.corpus, (per.get(r.corpus) ?? 0) + 1);
  return rows.map((r) => ({ x: r.x, y: r.y, w: 1 / per.get(r.corpus)! }));
}

const predict = (beta: number[], x: number[]) => x.reduce((s, v, j) => s + v * beta[j], 0);

async function rowsOf(corpus: string, skipTest: number): Promise<Row[]> {
  const src = corpusSourceRoot(corpus);
  const oracle = await loadOracle(ROOT, src);
  const tasks = sampleFrom(eligibleTasks(oracle), { test: skipTest, validation: Number.MAX_SAFE_INTEGER }).filter((t) => t.split === 'validation');
  const indexer = new Indexer({ cacheDir: null });
  await indexer.addFolder(src);
  const index = indexer.index;
  const rows: Row[] = [];
  for (const t of tasks) {
    // The method whose body this is: the innermost symbol at its opening brace, walked out of local classes.
    let ref = index.enclosingSymbol(join(src, t.file), t.body.startLine, t.body.startCol + 1);
    while (ref && isTypeKind(ref.sym.kind) && ref.sym.parent >= 0) ref = { file: ref.file, index: ref.sym.parent, sym: ref.file.facts.symbols[ref.sym.parent] };
    if (!ref || ref.sym.kind !== 'method') continue;
    const target: Target = { ref, owner: ownerType(ref) };
    rows.push({ corpus, x: bodySizeRow(bodySizeInputs(index, target)), y: Math.log1p(t.gold.length) });
  }
  return rows;
}

(async () => {
  if (process.argv.includes('--help')) {
    console.log('node dist/bench/body-size-fit.bench.js [--tasks N] [--corpus NAME]... [--l2 L] [--write]\n(see the head of bench/body-size-fit.bench.ts)');
    return;
  }
  const skipTest = Number(arg('--tasks') ?? 40);
  const l2 = Number(arg('--l2') ?? 0.01);
  const corpora = args('--corpus').length ? args('--corpus') : DEVELOPMENT_CORPORA;
  const rows: Row[] = [];
  for (const c of corpora) {
    const rs = await rowsOf(c, skipTest);
    console.log(`${c}: ${rs.length} methods (the eligible tasks after the first ${skipTest})`);
    rows.push(...rs);
  }
  const names = ['intercept', ...BODY_SIZE_COLUMN_NAMES];
  console.log('\ncorrelation with log(1 + declarations referenced), per corpus');
  console.log('column'.padEnd(28) + corpora.map((c) => c.slice(0, 12).padStart(14)).join(''));
  for (let j = 1; j < names.length; j++) {
    console.log(names[j].padEnd(28) + corpora.map((c) => {
      const rs = rows.filter((r) => r.corpus === c);
      return pearson(rs.map((r) => r.x[j]), rs.map((r) => r.y)).toFixed(3).padStart(14);
    }).join(''));
  }
  const beta = fitLinear(weighted(rows), l2);
  console.log('\ncoefficients (all corpora)');
  names.forEach((n, j) => console.log(`  ${n.padEnd(28)} ${beta[j] >= 0 ? ' ' : ''}${beta[j].toFixed(4)}`));
  const inSample: Record<string, number> = {};
  const heldOut: Record<string, number> = {};
  for (const c of corpora) {
    const test = rows.filter((r) => r.corpus === c);
    const b = fitLinear(weighted(rows.filter((r) => r.corpus !== c)), l2);
    heldOut[c] = Math.round(pearson(test.map((r) => predict(b, r.x)), test.map((r) => r.y)) * 1000) / 1000;
    inSample[c] = Math.round(pearson(test.map((r) => predict(beta, r.x)), test.map((r) => r.y)) * 1000) / 1000;
  }
  console.log('\ncorrelation of prediction and label, per corpus: in sample / that corpus left out of the fit');
  for (const c of corpora) console.log(`  ${c.padEnd(22)} ${inSample[c].toFixed(3)} / ${heldOut[c].toFixed(3)}`);
  console.log(`  ${'mean'.padEnd(22)} ${mean(Object.values(inSample)).toFixed(3)} / ${mean(Object.values(heldOut)).toFixed(3)}`);
  if (!process.argv.includes('--write')) { console.log('\n(not written: --write writes server/data/body-size-model.json)'); return; }
  const model: BodySizeModel & Record<string, unknown> = {
    about: 'The gate\'s body size model (server/src/gate/bodySize.ts): intercept and coefficients of log(1 + distinct declarations the body references) over BODY_SIZE_COLUMNS. Generated by `npm run fit:body-size -- --write` (bench/body-size-fit.bench.ts) from non-test tasks only; do not edit by hand.',
    fittedOn: { corpora, methods: Object.fromEntries(corpora.map((c) => [c, rows.filter((r) => r.corpus === c).length])), skippedTestTasks: skipTest, l2, correlationHeldOut: heldOut },
    columns: BODY_SIZE_COLUMN_NAMES,
    beta: beta.map((b) => Math.round(b * 1e6) / 1e6),
  };
  writeFileSync(OUT, JSON.stringify(model, null, 2) + '\n');
  console.log(`\nwrote ${OUT}`);
})().catch((e) => { console.error(e); process.exit(1); });
