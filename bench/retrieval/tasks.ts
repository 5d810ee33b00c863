// Retrieval benchmark tasks from the javac oracle (bench/oracle): "implement this method" tasks.
// A task is a method whose body (≥ MIN_BODY_LINES lines, braces included) references ≥ 2 distinct
// internal declarations, ≥ 1 of them declared in another file. The body is emptied (signature and
// Javadoc kept); the gold set is what the original body referenced. By default the imports that
// only the hidden code used are blanked with it (ImportProtocol), since in an editor an import
// mostly arrives with the code that uses it.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { lexJava } from '../../server/src/java/lexer';

export interface OracleBody { startLine: number; startCol: number; endLine: number; endCol: number; startOffset: number; endOffset: number }
export interface OracleDecl { kind: string; name: string; owner?: string; qualified: string; file: string; line: number; col: number; body?: OracleBody }
export interface OracleRef { kind: string; name: string; file: string; line: number; col: number; from: string; target: string }
export interface OracleOutput { sourceRoot: string; errors: number; files: string[]; declarations: OracleDecl[]; references: OracleRef[] }

export type GoldKind = 'method' | 'constructor' | 'field' | 'type';

export interface GoldSymbol {
  qualified: string;
  /** The name the item text must contain (a constructor's is its class name). */
  name: string;
  kind: GoldKind;
  /** Relative path (with '/') of the declaring file. */
  file: string;
  /** 0-based line of the declaration's name in the original file. */
  line: number;
  /** 0-based line of the name in the masked workspace (same-file declarations after the body shift). */
  maskedLine: number;
  crossFile: boolean;
  /** The declaration's name line, trimmed (for the strict criterion: the item shows that very line). */
  lineText: string;
  /** 0-based line of the body's first reference to it (the partial scenario's cut). */
  firstUseLine: number;
}

export interface Task {
  id: string;
  qualified: string;
  file: string;
  split: 'test' | 'validation';
  body: OracleBody;
  gold: GoldSymbol[];
  /** Cursor inside the emptied body (0-based, LSP). */
  cursor: { line: number; character: number };
}

export const MIN_BODY_LINES = 3;
export const MASKED_BODY = '{\n    \n}';

/** Runs (or reuses) the javac oracle on a source root. `root` is the repository root. */
export async function loadOracle(root: string, sourceRoot: string): Promise<OracleOutput> {
  const mod = await import(pathToFileURL(join(root, 'bench/oracle/oracle.mjs')).href);
  const out: string = await mod.runOracle(sourceRoot, { cacheDir: join(root, '.cache'), quiet: true });
  return JSON.parse(readFileSync(out, 'utf8')) as OracleOutput;
}

export function goldKind(declKind: string): GoldKind | undefined {
  switch (declKind) {
    case 'method': return 'method';
    case 'constructor': return 'constructor';
    case 'field': case 'enumConstant': case 'recordComponent': return 'field';
    case 'class': case 'interface': case 'enum': case 'record': case 'annotation': return 'type';
    default: return undefined;
  }
}

/** The name a declaration shows in code: a constructor `org.x.A#A(int)` is named `A`. */
function declName(d: OracleDecl): string {
  return d.name;
}

function inside(b: OracleBody, line: number, col: number): boolean {
  if (line < b.startLine || line > b.endLine) return false;
  if (line === b.startLine && col < b.startCol) return false;
  if (line === b.endLine && col >= b.endCol) return false;
  return true;
}

/** The shared seeded PRNG (string seed). */
export { prngFromString as prng } from '../../scripts/lib/prng.mjs';
import { prngFromString as prng } from '../../scripts/lib/prng.mjs';

export interface TaskOptions { test: number; validation: number; seed?: string; imports?: ImportProtocol }

/** Every eligible method, sorted by qualified name (before sampling). */
export function eligibleTasks(o: OracleOutput): Omit<Task, 'split'>[] {
  const lines = new Map<string, string[]>();
  const lineOf = (file: string, line: number): string => {
    let l = lines.get(file);
    if (!l) {
      try { l = readFileSync(join(o.sourceRoot, file), 'utf8').split(/\r?\n/); } catch { l = []; }
      lines.set(file, l);
    }
    return (l[line] ?? '').trim();
  };
  const decls = new Map<string, OracleDecl>();
  for (const d of o.declarations) decls.set(d.qualified, d);
  const refsFrom = new Map<string, OracleRef[]>();
  for (const r of o.references) {
    let l = refsFrom.get(r.from);
    if (!l) refsFrom.set(r.from, (l = []));
    l.push(r);
  }
  const out: Omit<Task, 'split'>[] = [];
  for (const m of o.declarations) {
    if (m.kind !== 'method' || !m.body) continue;
    const b = m.body;
    if (b.endLine - b.startLine + 1 < MIN_BODY_LINES) continue;
    const delta = b.endLine - b.startLine - 2; // lines removed by masking
    const gold = new Map<string, GoldSymbol>();
    for (const r of refsFrom.get(m.qualified) ?? []) {
      if (r.file !== m.file || !inside(b, r.line, r.col)) continue;
      if (r.target === m.qualified) continue;
      const seen = gold.get(r.target);
      if (seen) { seen.firstUseLine = Math.min(seen.firstUseLine, r.line); continue; }
      const t = decls.get(r.target);
      const kind = t && goldKind(t.kind);
      if (!t || !kind) continue;
      // a declaration inside the masked body would vanish with it (not expected: local classes are transparent)
      if (t.file === m.file && inside(b, t.line, t.col)) continue;
      const maskedLine = t.file === m.file && t.line > b.endLine ? t.line - delta : t.line;
      gold.set(r.target, { qualified: t.qualified, name: declName(t), kind, file: t.file, line: t.line, maskedLine, crossFile: t.file !== m.file, lineText: '', firstUseLine: r.line });
    }
    const g = [...gold.values()].sort((x, y) => (x.qualified < y.qualified ? -1 : x.qualified > y.qualified ? 1 : 0));
    if (g.length < 2 || !g.some((x) => x.crossFile)) continue;
    for (const x of g) x.lineText = lineOf(x.file, x.line);
    out.push({ id: m.qualified, qualified: m.qualified, file: m.file, body: b, gold: g, cursor: { line: b.startLine + 1, character: 4 } });
  }
  return out.sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
}

/** The test split every reported figure uses (`--tasks 40`): fits and tuning take their tasks after it. */
export const REPORTED_TEST_SPLIT = 40;

/**
 * A warning when a run's validation tasks would be tasks of the reported test split (`--tasks 0
 * --validation 40` runs the test split's first 40 as "validation"), else undefined.
 */
export function testSplitOverlap(opts: Pick<TaskOptions, 'test' | 'validation'>): string | undefined {
  if (opts.test >= REPORTED_TEST_SPLIT || opts.validation <= 0) return undefined;
  const last = Math.min(opts.test + opts.validation, REPORTED_TEST_SPLIT);
  return `note: validation tasks ${opts.test + 1}-${last} are tasks of the ${REPORTED_TEST_SPLIT}-task test split the reported figures use; pass --tasks ${REPORTED_TEST_SPLIT} to keep tuning off them`;
}

/** Fixed-seed sample: shuffle the sorted eligible tasks, first `test` are test, next `validation` validation. */
export function sampleTasks(o: OracleOutput, opts: TaskOptions): Task[] {
  return sampleFrom(eligibleTasks(o), opts);
}

/** sampleTasks over a chosen subset of the eligible tasks (sorted as eligibleTasks returns them). */
export function sampleFrom(eligible: Omit<Task, 'split'>[], opts: TaskOptions): Task[] {
  const all = [...eligible];
  const rand = prng(opts.seed ?? 'needle-retrieval-bench');
  for (let i = all.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [all[i], all[j]] = [all[j], all[i]];
  }
  const test = all.slice(0, opts.test).map((t) => ({ ...t, split: 'test' as const }));
  const val = all.slice(opts.test, opts.test + opts.validation).map((t) => ({ ...t, split: 'validation' as const }));
  return [...test, ...val];
}

/**
 * How masking treats the file's imports.
 *  masked (the default): a single-type or static single-member import whose simple name only the
 *          hidden code uses is blanked with that code; wildcard imports and imports anything left
 *          in the file uses stay. Kept imports would otherwise point straight at the hidden body's
 *          needs, while in an editor an import mostly arrives with the code that uses it.
 *  kept:   every import stays (the protocol up to session 8; for comparison).
 * Either way every line keeps its number: a blanked import leaves an empty line.
 */
export type ImportProtocol = 'masked' | 'kept';
export const IMPORT_PROTOCOLS: readonly ImportProtocol[] = ['masked', 'kept'];
export const DEFAULT_IMPORT_PROTOCOL: ImportProtocol = 'masked';

/** One import declaration of a file: its character span, the simple name it imports (undefined for a wildcard). */
export interface ImportDeclaration { start: number; end: number; simpleName?: string }

/** Skips whitespace and comments from `i`; returns the next code position. */
function skipTrivia(text: string, i: number): number {
  for (;;) {
    while (i < text.length && /\s/.test(text[i])) i++;
    if (text.startsWith('//', i)) { const nl = text.indexOf('\n', i); i = nl < 0 ? text.length : nl; continue; }
    if (text.startsWith('/*', i)) { const close = text.indexOf('*/', i + 2); i = close < 0 ? text.length : close + 2; continue; }
    return i;
  }
}

/** The file's import declarations, read from the top: after the package declaration, up to the first other declaration. */
export function importDeclarations(text: string): ImportDeclaration[] {
  const out: ImportDeclaration[] = [];
  let i = skipTrivia(text, 0);
  // A package declaration may carry annotations (package-info.java): skip to its semicolon.
  if (/^(@|package\b)/.test(text.slice(i, i + 8))) {
    const semi = text.indexOf(';', i);
    if (semi < 0 || !/\bpackage\b/.test(text.slice(i, semi))) return out;
    i = skipTrivia(text, semi + 1);
  }
  for (;;) {
    if (text[i] === ';') { i = skipTrivia(text, i + 1); continue; }
    if (!/^import\b/.test(text.slice(i, i + 7))) return out;
    const semi = text.indexOf(';', i);
    if (semi < 0) return out;
    const path = text.slice(i + 'import'.length, semi).replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, ' ').replace(/\s+/g, '').replace(/^static(?=[\w$])/, '');
    const simpleName = path.endsWith('.*') ? undefined : path.slice(path.lastIndexOf('.') + 1);
    out.push({ start: i, end: semi + 1, simpleName });
    i = skipTrivia(text, semi + 1);
  }
}

/**
 * Simple names a text uses as a name an import could supply: identifiers outside string and
 * character literals not preceded by `.` (a qualified name needs no import). Comments count: a
 * Javadoc's `{@link Type}` is a reason to keep the import.
 */
export function namesUsed(text: string): Set<string> {
  const out = new Set<string>();
  // The server's lexer, so an apostrophe in a comment (`Can't`) is no character literal.
  const kept = lexJava(text).map((seg) => seg.kind === 'code' || seg.kind === 'line-comment' || seg.kind === 'block-comment' ? text.slice(seg.start, seg.end) : ' ""').join('');
  for (const m of kept.matchAll(/(\.\s*)?([A-Za-z_$][\w$]*)/g)) if (!m[1]) out.add(m[2]);
  return out;
}

/**
 * `masked` (the file with some code hidden) with the single-name imports blanked whose simple name
 * `hidden` uses and nothing after the imports in `masked` does. Each blanked declaration keeps its
 * line breaks, so every line keeps its number.
 */
export function blankImportsOnlyUsedBy(masked: string, hidden: string): string {
  const imports = importDeclarations(masked);
  if (!imports.length) return masked;
  const usedByHidden = namesUsed(hidden);
  const usedElsewhere = namesUsed(masked.slice(imports[imports.length - 1].end));
  let out = '', from = 0;
  for (const d of imports) {
    if (!d.simpleName || !usedByHidden.has(d.simpleName) || usedElsewhere.has(d.simpleName)) continue;
    out += masked.slice(from, d.start) + masked.slice(d.start, d.end).replace(/[^\n]/g, '');
    from = d.end;
  }
  return out + masked.slice(from);
}

/**
 * The file with the task's body emptied: everything between `{` and `}` gone, signature and Javadoc
 * kept; with `imports` masked (the default), the imports only the body used blanked too.
 */
export function maskText(original: string, b: OracleBody, imports: ImportProtocol = DEFAULT_IMPORT_PROTOCOL): string {
  if (original[b.startOffset] !== '{' || original[b.endOffset - 1] !== '}') {
    throw new Error(`body offsets ${b.startOffset}-${b.endOffset} do not delimit a block`);
  }
  const masked = original.slice(0, b.startOffset) + MASKED_BODY + original.slice(b.endOffset);
  return imports === 'kept' ? masked : blankImportsOnlyUsedBy(masked, original.slice(b.startOffset, b.endOffset));
}

// ---- Scenarios: the same tasks with the body empty, half written, or complete -------------------

export type BenchScenario = 'new' | 'partial' | 'existing';
export const BENCH_SCENARIOS: BenchScenario[] = ['new', 'partial', 'existing'];

/** One task as one scenario sees it: the workspace text, the cursor, and the gold still to be found. */
export interface ScenarioTask extends Task {
  scenario: BenchScenario;
  text: string;
  /** Partial bodies: the symbols the kept half already uses (not gold), located in `text` as gold is. */
  written?: GoldSymbol[];
}

/** Whether a kept prefix of body lines ends between statements: brackets closed except blocks, last line ends a statement. */
function statementBoundary(kept: string[]): { ok: boolean; openBlocks: number } {
  const code = kept.join('\n').replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/\/\/[^\n]*/g, ' ').replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g, '""');
  let paren = 0, bracket = 0, brace = 0;
  for (const c of code) {
    if (c === '(') paren++; else if (c === ')') paren--;
    else if (c === '[') bracket++; else if (c === ']') bracket--;
    else if (c === '{') brace++; else if (c === '}') brace--;
    if (paren < 0 || bracket < 0 || brace < 0) return { ok: false, openBlocks: 0 };
  }
  const last = code.split('\n').map((l) => l.trim()).filter(Boolean).pop() ?? '';
  return { ok: paren === 0 && bracket === 0 && /[;{}]$/.test(last), openBlocks: brace };
}

/**
 * The task as a scenario sees it.
 *  new:      the body emptied (maskText); gold = every internal symbol the body used.
 *  partial:  the first half of the body's lines kept (moved back to the last statement boundary,
 *            open blocks closed after the cursor as an editor's auto-close does), the cursor on a
 *            blank line below them; gold = the symbols whose first use lies after the cut.
 *  existing: nothing masked, the cursor on the first statement; gold = every symbol of the body.
 * Throws when the scenario cannot be made from this body (the caller skips the task).
 */
export function scenarioTask(original: string, task: Task, scenario: BenchScenario, imports: ImportProtocol = DEFAULT_IMPORT_PROTOCOL): ScenarioTask {
  const b = task.body;
  if (scenario === 'new') return { ...task, scenario, text: maskText(original, task.body, imports) };
  const lines = original.split('\n');
  const inner = lines.slice(b.startLine + 1, b.endLine);
  const firstCode = inner.findIndex((l) => l.trim() !== '');
  if (firstCode < 0) throw new Error('empty body');
  const indentOf = (l: string) => /^\s*/.exec(l)![0];
  if (scenario === 'existing') {
    const line = b.startLine + 1 + firstCode;
    return { ...task, scenario, text: original, cursor: { line, character: indentOf(inner[firstCode]).length }, gold: task.gold.map((g) => ({ ...g, maskedLine: g.line })) };
  }
  if (original[b.startOffset] !== '{' || original[b.endOffset - 1] !== '}') throw new Error(`body offsets ${b.startOffset}-${b.endOffset} do not delimit a block`);
  const afterOpen = original.slice(b.startOffset + 1, original.indexOf('\n', b.startOffset));
  const beforeClose = original.slice(original.lastIndexOf('\n', b.endOffset - 1) + 1, b.endOffset - 1);
  if (afterOpen.trim() !== '' || beforeClose.trim() !== '') throw new Error('body braces share a line with code');
  let keep = Math.floor(inner.length / 2);
  let boundary = statementBoundary(inner.slice(0, keep));
  while (keep > 0 && !boundary.ok) boundary = statementBoundary(inner.slice(0, --keep));
  if (keep === 0) throw new Error('no statement boundary in the first half of the body');
  const indent = indentOf(inner[firstCode]);
  const closers = Array.from({ length: boundary.openBlocks }, (_, i) => `${indent}${'  '.repeat(Math.max(0, boundary.openBlocks - 1 - i))}}`);
  const cursorIndent = indent + '  '.repeat(boundary.openBlocks);
  const bodyLines = ['{', ...inner.slice(0, keep), cursorIndent, ...closers];
  const cutText = original.slice(0, b.startOffset) + bodyLines.join('\n') + '\n' + beforeClose + original.slice(b.endOffset - 1);
  const text = imports === 'kept' ? cutText : blankImportsOnlyUsedBy(cutText, inner.slice(keep).join('\n'));
  const cut = b.startLine + 1 + keep; // first original line not kept
  const delta = (b.endLine - b.startLine + 1) - (bodyLines.length + 1);
  const located = (g: GoldSymbol): GoldSymbol => ({ ...g, maskedLine: g.file === task.file && g.line > b.endLine ? g.line - delta : g.line });
  const gold = task.gold.filter((g) => g.firstUseLine >= cut).map(located);
  const written = task.gold.filter((g) => g.firstUseLine < cut).map(located);
  return { ...task, scenario, text, cursor: { line: b.startLine + 1 + keep, character: cursorIndent.length }, gold, written };
}
