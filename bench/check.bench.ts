// `node dist/bench/check.bench.js [--corpus NAME]... [--tasks N] [--examples K]`: checkCode on real code
// (every eligible task, or the seeded sample of N; default corpora: CHECKER_CORPORA, Guava included).
// A benchmark: it prints figures, it never fails on a score.
//
// Tasks are the retrieval benchmark's (bench/retrieval/tasks.ts: methods from the javac oracle whose
// bodies use ≥ 2 internal declarations); each real body is checked, then the body with one
// internal call renamed to a name no workspace method has (bench/check/bodies.ts).

import { Indexer } from '../server/src/index/indexer';
import { checkBodies, type BodyCheckFigures } from './check/bodies';
import { arg, args, corpusSourceRoot as corpusRoot } from './cli';
import { CHECKER_CORPORA } from './corpora/list.mjs';
import { eligibleTasks, loadOracle, sampleFrom, type OracleOutput, type Task } from './retrieval/tasks';

const ROOT = process.cwd();

type CorpusFigures = BodyCheckFigures & { corpus: string };

async function runCorpus(name: string, limit: number | undefined, examplesWanted: number): Promise<CorpusFigures> {
  const sourceRoot = corpusRoot(name);
  const oracle: OracleOutput = await loadOracle(ROOT, sourceRoot);
  // --tasks N: the retrieval benchmark's seeded sample (spread over the corpus), not the first N by name.
  let tasks: Omit<Task, 'split'>[] = eligibleTasks(oracle);
  if (limit !== undefined) tasks = sampleFrom(tasks, { test: limit, validation: 0 });
  const indexer = new Indexer({ cacheDir: null });
  await indexer.addFolder(sourceRoot);
  const methodNames = new Set<string>();
  for (const f of indexer.index.allFiles()) for (const s of f.facts.symbols) if (s.kind === 'method') methodNames.add(s.name);
  return { corpus: name, ...await checkBodies(indexer, oracle, tasks, { sourceRoot, methodNames, examples: examplesWanted }) };
}

async function main(): Promise<void> {
  const corpora = args('--corpus').length ? args('--corpus') : CHECKER_CORPORA;
  const limit = arg('--tasks') ? Number(arg('--tasks')) : undefined;
  const examples = arg('--examples') ? Number(arg('--examples')) : 5;
  const all: CorpusFigures[] = [];
  for (const c of corpora) all.push(await runCorpus(c, limit, examples));
  const pct = (a: number, b: number) => (b ? ((100 * a) / b).toFixed(1) + ' %' : 'n/a');
  console.log('corpus          tasks  refs   false-unknown(tasks)  false findings/1k refs  mutated  detected  ms/check');
  for (const f of [...all, all.reduce((s, f) => ({ ...s, tasks: s.tasks + f.tasks, refs: s.refs + f.refs, falseTasks: s.falseTasks + f.falseTasks, falseFindings: s.falseFindings + f.falseFindings, mutated: s.mutated + f.mutated, detected: s.detected + f.detected, ms: s.ms + f.ms }), { corpus: 'all', tasks: 0, refs: 0, falseTasks: 0, falseFindings: 0, mutated: 0, detected: 0, ms: 0, examples: [], misses: [] } as CorpusFigures)]) {
    console.log(`${f.corpus.padEnd(15)} ${String(f.tasks).padStart(5)}  ${String(f.refs).padStart(5)}  ${`${f.falseTasks} (${pct(f.falseTasks, f.tasks)})`.padStart(20)}  ${(f.refs ? (1000 * f.falseFindings) / f.refs : 0).toFixed(2).padStart(22)}  ${String(f.mutated).padStart(7)}  ${pct(f.detected, f.mutated).padStart(8)}  ${(f.ms / Math.max(1, f.tasks + f.mutated)).toFixed(1).padStart(8)}`);
  }
  for (const f of all) {
    if (f.examples.length) console.log(`\n${f.corpus}: false findings on real code (first ${f.examples.length})\n  ` + f.examples.join('\n  '));
    if (f.misses.length) console.log(`\n${f.corpus}: renamed calls not detected (first ${f.misses.length})\n  ` + f.misses.join('\n  '));
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
