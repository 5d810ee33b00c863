// `node dist/bench/check.bench.js [--corpus NAME]... [--tasks N] [--examples K]`: checkCode on real code.
// A benchmark: it prints figures, it never fails on a score.
//
// Tasks are the retrieval benchmark's (bench/retrieval/tasks.ts: methods from the javac oracle whose
// bodies use ≥ 2 internal declarations). For each task:
//   original  the method's real body is checked in place: every unknown-internal-api,
//             no-matching-overload or missing-import finding is false (the code compiles);
//   mutated   one internal call of the body (javac says which) is renamed to a plausible wrong
//             name that no workspace method has (verb swap, plural, typo); detected when a
//             finding sits on the renamed call.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Indexer } from '../server/src/index/indexer';
import { checkCode, type CheckFinding } from '../server/src/check/checkCode';
import { arg, args, corpusSourceRoot as corpusRoot } from './cli';
import { DEVELOPMENT_CORPORA } from './corpora/list.mjs';
import { eligibleTasks, loadOracle, prng, type OracleOutput } from './retrieval/tasks';

const ROOT = process.cwd();
const PROBLEMS = new Set(['unknown-internal-api', 'no-matching-overload', 'missing-import']);


const VERBS: [string, string][] = [['get', 'fetch'], ['set', 'update'], ['is', 'has'], ['has', 'is'], ['add', 'append'], ['append', 'add'], ['remove', 'delete'],
  ['create', 'make'], ['find', 'lookup'], ['to', 'as'], ['read', 'load'], ['write', 'store'], ['put', 'store'], ['contains', 'has'], ['parse', 'read'], ['new', 'create']];

/** Plausible wrong names for `name`, none of which is a method name anywhere in the workspace. */
export function wrongNames(name: string, taken: Set<string>): string[] {
  const out: string[] = [];
  for (const [a, b] of VERBS) if (name.startsWith(a) && (name.length === a.length || /[A-Z]/.test(name[a.length]))) out.push(b + name.slice(a.length));
  out.push(name.endsWith('s') ? name.slice(0, -1) : name + 's');
  const vowel = [...name.slice(1)].findIndex((c) => 'aeiou'.includes(c));
  if (vowel >= 0 && name.length > 4) out.push(name.slice(0, vowel + 1) + name.slice(vowel + 2));
  out.push(name + 'Value');
  return [...new Set(out)].filter((n) => n !== name && !taken.has(n) && /^[a-z_$][\w$]*$/i.test(n));
}

function offsetOf(text: string, line: number, col: number): number {
  let off = 0;
  for (let l = 0; l < line; l++) off = text.indexOf('\n', off) + 1;
  return off + col;
}

interface CorpusFigures { corpus: string; tasks: number; refs: number; falseTasks: number; falseFindings: number; mutated: number; detected: number; ms: number; examples: string[]; misses: string[] }

async function runCorpus(name: string, limit: number | undefined, examplesWanted: number): Promise<CorpusFigures> {
  const sourceRoot = corpusRoot(name);
  const oracle: OracleOutput = await loadOracle(ROOT, sourceRoot);
  let tasks = eligibleTasks(oracle);
  if (limit !== undefined) tasks = tasks.slice(0, limit);
  const indexer = new Indexer({ cacheDir: null });
  await indexer.addFolder(sourceRoot);
  const index = indexer.index;
  const textOf = (p: string) => indexer.textOf(p);
  const methodNames = new Set<string>();
  for (const f of index.allFiles()) for (const s of f.facts.symbols) if (s.kind === 'method') methodNames.add(s.name);
  const decls = new Map(oracle.declarations.map((d) => [d.qualified, d]));
  const fig: CorpusFigures = { corpus: name, tasks: tasks.length, refs: 0, falseTasks: 0, falseFindings: 0, mutated: 0, detected: 0, ms: 0, examples: [], misses: [] };
  for (const task of tasks) {
    const path = join(sourceRoot, task.file);
    const text = readFileSync(path, 'utf8');
    const b = task.body;
    const code = text.slice(b.startOffset, b.endOffset);
    const start = text.slice(0, b.startOffset).split('\n');
    const end = text.slice(0, b.endOffset).split('\n');
    const range = { start: { line: start.length - 1, character: start[start.length - 1].length }, end: { line: end.length - 1, character: end[end.length - 1].length } };
    const t0 = performance.now();
    const r = await checkCode(index, textOf, { path, code, range });
    fig.ms += performance.now() - t0;
    fig.refs += r.references;
    const wrong = r.findings.filter((f) => PROBLEMS.has(f.code));
    if (wrong.length) {
      fig.falseTasks++;
      fig.falseFindings += wrong.length;
      for (const f of wrong) if (fig.examples.length < examplesWanted) fig.examples.push(`${task.id} +${f.range.start.line}: ${f.message}`);
    }
    // One internal call of the body, renamed.
    const calls = oracle.references.filter((x) => x.kind === 'call' && x.from === task.qualified && x.file === task.file
      && decls.get(x.target)?.kind === 'method' && x.line >= b.startLine && x.line <= b.endLine);
    if (!calls.length) continue;
    const rand = prng(task.id);
    const call = calls[Math.floor(rand() * calls.length)];
    const lineText = text.split('\n')[call.line] ?? '';
    const re = new RegExp(`\\b${call.name.replace(/\$/g, '\\$')}\\s*\\(`, 'g');
    re.lastIndex = Math.max(0, call.col);
    let m = re.exec(lineText);
    if (!m) { re.lastIndex = 0; m = re.exec(lineText); }
    if (!m) continue;
    const names = wrongNames(call.name, methodNames);
    if (!names.length) continue;
    const wrongName = names[Math.floor(rand() * names.length)];
    const at = offsetOf(text, call.line, m.index) - b.startOffset;
    if (at < 0 || at >= code.length) continue;
    const mutated = code.slice(0, at) + wrongName + code.slice(at + call.name.length);
    const pos = { line: call.line - range.start.line, character: call.line === range.start.line ? m.index - range.start.character : m.index };
    const t1 = performance.now();
    const rm = await checkCode(index, textOf, { path, code: mutated, range });
    fig.ms += performance.now() - t1;
    fig.mutated++;
    const hit = rm.findings.some((f: CheckFinding) => PROBLEMS.has(f.code) && f.range.start.line === pos.line && f.range.start.character === pos.character);
    if (hit) fig.detected++;
    else if (fig.misses.length < examplesWanted) fig.misses.push(`${task.id}: ${call.name} -> ${wrongName} at +${pos.line}:${pos.character}`);
  }
  return fig;
}

async function main(): Promise<void> {
  const corpora = args('--corpus').length ? args('--corpus') : DEVELOPMENT_CORPORA;
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
