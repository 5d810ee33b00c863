// check_code on real method bodies (shared by bench/check.bench.ts and bench/deps.bench.ts).
//   original  the method's real body is checked in place: every unknown-internal-api,
//             no-matching-overload or missing-import finding is false (the code compiles);
//   mutated   one internal call of the body (javac says which) is renamed to a plausible wrong
//             name that no known method has (verb swap, plural, typo); detected when a finding
//             sits on the renamed call.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Indexer } from '../../server/src/index/indexer';
import { checkCode, type CheckFinding } from '../../server/src/check/checkCode';
import { prng, type OracleDecl, type OracleOutput, type Task } from '../retrieval/tasks';

export const PROBLEMS = new Set(['unknown-internal-api', 'no-matching-overload', 'missing-import']);

const VERBS: [string, string][] = [['get', 'fetch'], ['set', 'update'], ['is', 'has'], ['has', 'is'], ['add', 'append'], ['append', 'add'], ['remove', 'delete'],
  ['create', 'make'], ['find', 'lookup'], ['to', 'as'], ['read', 'load'], ['write', 'store'], ['put', 'store'], ['contains', 'has'], ['parse', 'read'], ['new', 'create']];

/** Plausible wrong names for `name`, none of which is in `taken`. */
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

export interface BodyCheckFigures { tasks: number; refs: number; falseTasks: number; falseFindings: number; mutated: number; detected: number; ms: number; examples: string[]; misses: string[] }

export interface BodyCheckOptions {
  /** Folder holding the tasks' files as indexed (`task.file` is relative to it). */
  sourceRoot: string;
  /** Names a renamed call must not take (every method name the code could mean). */
  methodNames: Set<string>;
  /** Which of a body's calls may be renamed (default: any internal method). */
  renamable?: (target: OracleDecl) => boolean;
  examples?: number;
}

/** Checks each task's real body, then the body with one call renamed, against `indexer`'s index. */
export async function checkBodies(indexer: Indexer, oracle: OracleOutput, tasks: Omit<Task, 'split'>[], o: BodyCheckOptions): Promise<BodyCheckFigures> {
  const index = indexer.index;
  const textOf = (p: string) => indexer.textOf(p);
  const wanted = o.examples ?? 5;
  const decls = new Map(oracle.declarations.map((d) => [d.qualified, d]));
  const fig: BodyCheckFigures = { tasks: tasks.length, refs: 0, falseTasks: 0, falseFindings: 0, mutated: 0, detected: 0, ms: 0, examples: [], misses: [] };
  for (const task of tasks) {
    const path = join(o.sourceRoot, task.file);
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
      for (const f of wrong) if (fig.examples.length < wanted) fig.examples.push(`${task.id} +${f.range.start.line}: ${f.message}`);
    }
    // One internal call of the body, renamed.
    const calls = oracle.references.filter((x) => {
      if (x.kind !== 'call' || x.from !== task.qualified || x.file !== task.file || x.line < b.startLine || x.line > b.endLine) return false;
      const target = decls.get(x.target);
      return target?.kind === 'method' && (o.renamable ?? (() => true))(target);
    });
    if (!calls.length) continue;
    const rand = prng(task.id);
    const call = calls[Math.floor(rand() * calls.length)];
    const lineText = text.split('\n')[call.line] ?? '';
    const re = new RegExp(`\\b${call.name.replace(/\$/g, '\\$')}\\s*\\(`, 'g');
    re.lastIndex = Math.max(0, call.col);
    let m = re.exec(lineText);
    if (!m) { re.lastIndex = 0; m = re.exec(lineText); }
    if (!m) continue;
    const names = wrongNames(call.name, o.methodNames);
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
    else if (fig.misses.length < wanted) fig.misses.push(`${task.id}: ${call.name} -> ${wrongName} at +${pos.line}:${pos.character}`);
  }
  return fig;
}
