// Shared pieces of the robustness tests, the fuzz run and the load bench: a seeded PRNG, the
// mutators that turn real Java into broken Java, workspace copies and small timing helpers.
// Everything is seeded: a failure message carries the seed and the case number to replay it.

import { cpSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/tempDir';

export type Rng = () => number;

export { mulberry32 as prng } from '../../scripts/lib/prng.mjs';

export const int = (r: Rng, n: number) => Math.floor(r() * n);
export const choose = <T>(r: Rng, xs: readonly T[]): T => xs[int(r, xs.length)];

/** The repository root, whether we run from dist/test/robustness or from the sources. */
export function repoRoot(): string {
  for (let d = __dirname; ; d = join(d, '..')) {
    if (existsSync(join(d, 'package.json')) && existsSync(join(d, 'examples'))) return d;
    if (d === join(d, '..')) return process.cwd();
  }
}

export const ACME = () => join(repoRoot(), 'examples', 'acme-shop');

export function javaFilesUnder(dir: string, limit = Infinity): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      if (out.length >= limit) return;
      const full = join(d, name);
      const st = statSync(full, { throwIfNoEntry: false });
      if (!st) continue;
      if (st.isDirectory()) walk(full);
      else if (name.endsWith('.java')) out.push(full);
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

/** A private copy of a workspace in a temporary folder (tests edit, delete and break files in it). */
export function copyWorkspace(src: string, prefix = 'needle-robust-'): string {
  const dst = tempDir(prefix);
  cpSync(src, dst, { recursive: true });
  return dst;
}

// ---- mutators: real Java in, broken Java out ----

const JAVA_TOKENS = ['{', '}', '(', ')', '[', ']', ';', ',', '.', '<', '>', '@', '"', "'", '/*', '*/', '//', '\\u',
  'class', 'interface', 'enum', 'record', 'extends', 'implements', 'new', 'return', 'if', 'else', 'for', 'switch',
  'case', '->', '::', 'var', 'sealed', 'permits', 'yield', 'static', 'final', 'void', 'int', 'String', 'this', 'super',
  'import', 'package', '"""', '\n', '\t', '\u00e9', '\ud83d\ude00', '\ud800', '\u0000', '\r'];

export type MutationKind = 'truncate' | 'bytes' | 'tokens' | 'splice' | 'pathological';

export function truncate(r: Rng, text: string): string {
  return text.slice(0, int(r, text.length + 1));
}

/** Flips, inserts, deletes and duplicates raw bytes, then decodes as the indexer would (invalid UTF-8 → U+FFFD). */
export function mutateBytes(r: Rng, text: string): string {
  let buf = Buffer.from(text, 'utf8');
  const ops = 1 + int(r, 8);
  for (let i = 0; i < ops; i++) {
    const at = int(r, buf.length + 1);
    const op = int(r, 5);
    if (op === 0 && buf.length) buf[Math.min(at, buf.length - 1)] ^= 1 << int(r, 8);
    else if (op === 1) buf = Buffer.concat([buf.subarray(0, at), Buffer.from([int(r, 256)]), buf.subarray(at)]);
    else if (op === 2) buf = Buffer.concat([buf.subarray(0, at), buf.subarray(Math.min(buf.length, at + 1 + int(r, 200)))]);
    else if (op === 3) { const end = Math.min(buf.length, at + int(r, 300)); buf = Buffer.concat([buf.subarray(0, end), buf.subarray(at, end), buf.subarray(end)]); }
    else buf = Buffer.concat([buf.subarray(0, at), Buffer.from([0xf0 + int(r, 16), 0x80 + int(r, 64)]), buf.subarray(at)]);
  }
  return buf.toString('utf8');
}

/** Deletes, duplicates, swaps and inserts lexical tokens, keeping most of the file intact. */
export function mutateTokens(r: Rng, text: string): string {
  const toks = text.match(/[A-Za-z_$][\w$]*|\d+|\s+|\/\*|\*\/|\/\/|->|::|./gsu) ?? [];
  const ops = 1 + int(r, 10);
  for (let i = 0; i < ops; i++) {
    const at = int(r, toks.length + 1);
    const op = int(r, 5);
    if (op === 0 && toks.length) toks.splice(at, 1 + int(r, 3));
    else if (op === 1 && toks.length) toks.splice(at, 0, ...toks.slice(at, at + 1 + int(r, 20)));
    else if (op === 2 && toks.length > 1) { const j = int(r, toks.length); const k = Math.min(at, toks.length - 1); [toks[j], toks[k]] = [toks[k], toks[j]]; }
    else if (op === 3) toks.splice(at, 0, choose(r, JAVA_TOKENS));
    else if (toks.length) toks[Math.min(at, toks.length - 1)] = choose(r, JAVA_TOKENS);
  }
  return toks.join('');
}

/** A piece of one file dropped into another at a random point (copy-paste gone wrong). */
export function splice(r: Rng, text: string, other: string): string {
  const a = int(r, other.length + 1);
  const piece = other.slice(a, a + int(r, 2000));
  const at = int(r, text.length + 1);
  return text.slice(0, at) + piece + text.slice(at + int(r, 200));
}

/** Inputs that stress a parser: deep nesting, unterminated constructs, huge lines, odd characters. */
export function pathological(r: Rng, text: string): string {
  const n = 200 + int(r, 3000);
  const at = int(r, text.length + 1);
  const insert = choose(r, [
    () => '('.repeat(n),
    () => '{'.repeat(n),
    // Capped: resolution is cubic in the length of a dotted chain (known issue, see known-issues.test.ts).
    () => 'a.'.repeat(Math.min(n, Number(process.env.NEEDLE_FUZZ_MAX_CHAIN ?? 120))) + 'b();',
    () => 'x' + '[0]'.repeat(n) + ';',
    () => 'List<'.repeat(Math.min(n, 500)) + 'X' + '>'.repeat(Math.min(n, 500)) + ' f;',
    () => 'if (a) '.repeat(n) + ';',
    () => '"' + 'unterminated string '.repeat(50),
    () => '/* unterminated comment ' + 'x'.repeat(n),
    () => '"""\n' + 'text block\n'.repeat(100),
    // Capped in the normal run: retrieval is quadratic in a very long word (known issue, see known-issues.test.ts).
    () => 'int ' + 'z'.repeat(Number(process.env.NEEDLE_FUZZ_MAX_WORD ?? 4000)) + ' = 1;',
    () => '\\u0022\\u005c\\uD800\\uuuu0041'.repeat(50),
    () => '\0'.repeat(100),
    () => '@A('.repeat(Math.min(n, 800)),
    () => 'class C { ' + 'void m() { '.repeat(Math.min(n, 800)),
    () => ' + 1'.repeat(n),
    () => '\r'.repeat(100) + '\u2028\u2029\ufeff',
  ])();
  return text.slice(0, at) + insert + text.slice(at);
}

export function mutate(r: Rng, kind: MutationKind, text: string, other: string): string {
  switch (kind) {
    case 'truncate': return truncate(r, text);
    case 'bytes': return mutateBytes(r, text);
    case 'tokens': return mutateTokens(r, text);
    case 'splice': return splice(r, text, other);
    case 'pathological': return pathological(r, text);
  }
}

export const KINDS: MutationKind[] = ['truncate', 'bytes', 'tokens', 'splice', 'pathological'];

/** A position inside the text (line, character), as an editor could send it. */
export function randomPosition(r: Rng, text: string): { line: number; character: number } {
  const lines = text.split('\n');
  const line = int(r, lines.length);
  return { line, character: int(r, lines[line].length + 1) };
}

export function readText(path: string): string {
  return readFileSync(path, 'utf8');
}

/** Rejects when a promise takes longer than `ms`: a hang becomes a failure with a name. */
export async function within<T>(ms: number, what: string, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([p, new Promise<T>((_, reject) => { timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms); })]);
  } finally {
    clearTimeout(timer);
  }
}

export function percentile(xs: number[], p: number): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Resident set size of a process in bytes (Linux /proc), or undefined elsewhere. */
/**
 * CPU time a process has used so far, in ms: its own threads, and its waited-for children (the
 * server's ripgrep runs); undefined where /proc is missing. Assumes the usual 100 clock ticks per second.
 */
export function cpuMsOf(pid: number): { own: number; children: number } | undefined {
  try {
    // Fields after the command name (which may hold spaces): utime is the 12th, cutime the 14th.
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ').map(Number);
    return { own: (f[11] + f[12]) * 10, children: (f[13] + f[14]) * 10 };
  } catch { return undefined; }
}

export function rssOf(pid: number): number | undefined {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : undefined;
  } catch { return undefined; }
}
