// `npm run bench:index`: the index against the Java compiler, and its speed on java.base.
//  1. Correctness: javac's Compiler Tree API (bench/oracle) resolves every reference in
//     commons-lang3 and jsoup; we compare our resolved internal edges per kind (precision/recall).
//  2. Speed and memory on the JDK's java.base: bare single-threaded tree-sitter parse time,
//     cold index, warm restart (cache), single-file update latency, peak RSS, and the cost of a
//     shape change (a public method added to a popular and to a rarely used type; `shape` runs only that).
//     A "floor" line puts the cold index in proportion to this machine: the same files parsed by two
//     worker threads (half each), and parsed plus walked once over every node (the least extraction
//     reads), against the single-threaded bare parse.
//     `speed --corpus jdk-all`: the same on the whole JDK source tree (issue 16), with `needle index`
//     run both without (--no-prepare) and with retrieval's workspace-wide structures prepared.
//  3. `resolve [--corpus NAME] [--repeat N] [--dump-edges FILE]`: the main thread's resolution
//     alone: the corpus is parsed once (reference sites kept), then resolveAll runs N more times and
//     its wall and CPU time are printed. --dump-edges writes every file's resolution (symbols, edges
//     and unresolved sites in the order resolution made them, external count, consulted names, member
//     lookups) as one JSON line per file, sorted by path: two dumps of the same corpus compare equal byte for byte when a change
//     to resolution keeps its results (`cmp old new`).
//  4. `cold [--corpus NAME] [--rounds N] [--variant ENV=VALUE,…] [--baseline CLI_JS] [--prepared]`:
//     where a cold `needle index` (cache written; --no-prepare unless --prepared) spends its time.
//     The bare single-threaded parse, then N rounds of the cold index, each printed as its ratio
//     against that parse, its CPU seconds (all threads, the child's getrusage via /usr/bin/time) and
//     its phases in wall/CPU ms (the workers' parse and, within it, the main thread's taking in of
//     their results; dependencies, resolution, the cache write). --variant also runs the CLI with
//     those environment variables set, --baseline another build's dist/cli.js (an older commit's),
//     interleaved round by round, so they are compared in one run.
// Prints figures; fails only if it cannot run.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { join, relative, sep } from 'node:path';
import { Indexer } from '../server/src/index/indexer';
import { discoverFiles } from '../server/src/index/files';
import { javaParser } from '../server/src/java/parser';
import { arg, corpusSourceRoot } from './cli';
import { SyntaxTree } from '../server/src/java/syntaxTree';
import type { EdgeKind } from '../server/src/java/resolve';

const ROOT = process.cwd();

const corpus = (name: string): string => corpusSourceRoot(name);

interface OracleDecl { kind: string; qualified: string; file: string; line: number }
interface OracleRef { kind: string; name: string; file: string; line: number; col: number; target: string }

async function runOracle(sourceRoot: string): Promise<{ declarations: OracleDecl[]; references: OracleRef[]; errors: number }> {
  const mod = await import(join(ROOT, 'bench/oracle/oracle.mjs'));
  const out: string = await mod.runOracle(sourceRoot, { quiet: true });
  return JSON.parse(readFileSync(out, 'utf8'));
}

const KINDS = ['call', 'new', 'field', 'type', 'ctorCall', 'methodRef'] as const;

async function correctness(name: string): Promise<void> {
  const root = corpus(name);
  const t0 = performance.now();
  const oracle = await runOracle(root);
  const oracleMs = performance.now() - t0;
  const declAt = new Map(oracle.declarations.map((d) => [d.qualified, `${d.file}:${d.line}`]));
  const truth = new Map<string, Map<string, string>>(KINDS.map((k) => [k, new Map()]));
  for (const r of oracle.references) {
    const target = declAt.get(r.target);
    if (target) truth.get(r.kind)?.set(`${r.file}:${r.line}:${r.col}`, target);
  }
  const indexer = new Indexer({ cacheDir: null });
  await indexer.addFolder(root);
  const ours = new Map<string, Map<string, string>>(KINDS.map((k) => [k, new Map()]));
  for (const f of indexer.index.allFiles()) {
    const rel = relative(root, f.path).split(sep).join('/');
    for (const e of f.resolution?.edges ?? []) {
      if (!(KINDS as readonly string[]).includes(e.kind)) continue;
      const t = indexer.index.symbol(e.to);
      if (!t) continue;
      const tRel = relative(root, t.file.path).split(sep).join('/');
      ours.get(e.kind as EdgeKind)?.set(`${rel}:${e.line}:${e.col}`, `${tRel}:${t.sym.nameSpan.sl}`);
    }
  }
  console.log(`\n${name}: ${indexer.index.stats().files} files; javac oracle ${oracle.references.length} internal references (${oracle.errors} compile errors from missing dependencies), ${Math.round(oracleMs)} ms`);
  console.log('  kind        oracle    ours   match  precision  recall');
  for (const k of KINDS) {
    const t = truth.get(k)!;
    const o = ours.get(k)!;
    let match = 0;
    for (const [site, target] of o) if (t.get(site) === target) match++;
    const p = o.size ? match / o.size : 1;
    const r = t.size ? match / t.size : 1;
    console.log(`  ${k.padEnd(10)} ${String(t.size).padStart(7)} ${String(o.size).padStart(7)} ${String(match).padStart(7)}     ${p.toFixed(3)}   ${r.toFixed(3)}`);
  }
  if (process.env.NEEDLE_BENCH_MISSES) {
    const k = process.env.NEEDLE_BENCH_MISSES;
    const t = truth.get(k)!, o = ours.get(k)!;
    let shown = 0;
    for (const [site, target] of t) if (o.get(site) !== target && shown++ < 40) console.log(`    miss ${site} -> ${target} (ours: ${o.get(site) ?? '-'})`);
    shown = 0;
    for (const [site, target] of o) if (!t.has(site) && shown++ < 20) console.log(`    extra ${site} -> ${target}`);
  }
}

interface CliReport { timeMs: number; cpuMs: number; peakRssMB: number; files: number; symbols: number; edges: number; resolvedShare: number; prepare: { name: string; ms: number }[]; phases: Record<string, number>; phasesCpu: Record<string, number> }

function cli(args: string[]): CliReport {
  const r = spawnSync(process.execPath, [join(ROOT, 'dist/cli.js'), 'index', ...args, '--json'], { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`needle index failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** The corpus of the speed figures (`--corpus`; jdk-all: the whole JDK), and where its java.base is (the shape changes' files). */
const SPEED_CORPUS = arg('--corpus') ?? 'jdk-java.base';
const javaBaseOf = (root: string) => (SPEED_CORPUS === 'jdk-all' ? join(root, 'java.base') : root);

/** The files of a corpus, read, and the wall time of parsing them all in this thread (trees discarded). */
async function bareParse(root: string): Promise<{ files: string[]; texts: string[]; bareMs: number }> {
  const files = discoverFiles(root).files;
  const texts = files.map((f) => readFileSync(f, 'utf8'));
  const parser = await javaParser();
  const t0 = performance.now();
  for (const t of texts) parser.parse(t)?.delete();
  return { files, texts, bareMs: performance.now() - t0 };
}

/** `cold`: the cold index against the bare parse, phase by phase (see the header). */
async function coldOnly(): Promise<void> {
  const root = corpus(SPEED_CORPUS);
  const rounds = Number(arg('--rounds') ?? 2);
  const variant = arg('--variant');
  const variantEnv = variant ? Object.fromEntries(variant.split(',').map((kv): [string, string] => {
    const eq = kv.indexOf('='); // the first '=' only: a value may hold more (NODE_OPTIONS=--x=1)
    if (eq <= 0) throw new Error(`--variant ${kv}: expected NAME=VALUE`);
    return [kv.slice(0, eq), kv.slice(eq + 1)];
  })) : undefined;
  const baseline = arg('--baseline');
  const prepared = process.argv.includes('--prepared');
  const runs: { label: string; env: NodeJS.ProcessEnv; cliJs?: string }[] = [{ label: 'cold', env: process.env }];
  if (variantEnv) runs.push({ label: `cold with ${variant}`, env: { ...process.env, ...variantEnv } });
  if (baseline) runs.push({ label: 'cold, baseline', env: process.env, cliJs: baseline });
  const { files, bareMs } = await bareParse(root);
  console.log(`${SPEED_CORPUS}: ${files.length} files; bare single-threaded parse ${Math.round(bareMs)} ms`);
  const line = (label: string, r: CliReport, cpuS: number) => {
    const p = r.phases, c = r.phasesCpu;
    const ms = (k: string) => `${p[k]}${k === 'takeIn' ? '' : `/${c[k]}`}`;
    console.log(`  ${label.padEnd(24)} ${String(r.timeMs).padStart(6)} ms = ${(r.timeMs / bareMs).toFixed(2)} × bare, cpu ${cpuS.toFixed(1)} s, peak ${r.peakRssMB} MB` +
      (p ? `; wall/cpu ms: discover ${ms('discover')}, parse ${ms('parse')} (main taking in ${ms('takeIn')}), dependencies ${ms('dependencies')}, resolve ${ms('resolve')}${prepared ? `, prepare ${ms('prepare')}` : ''}, save ${ms('save')}` : ''));
  };
  for (let i = 0; i < rounds; i++) {
    for (const run of runs) {
      const cacheDir = mkdtempSync(join(tmpdir(), 'needle-bench-cache-'));
      try {
        const r = spawnSync('/usr/bin/time', ['-f', '%U %S', process.execPath, run.cliJs ?? join(ROOT, 'dist/cli.js'), 'index', root, '--cache-dir', cacheDir, ...(prepared ? [] : ['--no-prepare']), '--json'], { encoding: 'utf8', maxBuffer: 64 << 20, env: run.env });
        if (r.status !== 0) throw new Error(`needle index failed: ${r.stderr}`);
        const [user, sys] = r.stderr.trim().split('\n').pop()!.split(' ').map(Number);
        line(run.label, JSON.parse(r.stdout), user + sys);
      } finally { rmSync(cacheDir, { recursive: true, force: true }); }
    }
  }
}

async function speed(): Promise<void> {
  const root = corpus(SPEED_CORPUS);
  const { files, texts, bareMs } = await bareParse(root);
  const lines = texts.reduce((n, t) => n + t.split('\n').length, 0);
  const floorParse = await floor(files, 'parse');
  const floorWalk = await floor(files, 'walk');

  const cacheDir = mkdtempSync(join(tmpdir(), 'needle-bench-cache-'));
  // The index alone (as before issue 16) and with retrieval's structures prepared, cold and warm.
  const cold = cli([root, '--cache-dir', cacheDir, '--no-prepare']);
  const warm = cli([root, '--cache-dir', cacheDir, '--no-prepare']);
  rmSync(cacheDir, { recursive: true, force: true });
  const coldPrepared = cli([root, '--cache-dir', cacheDir]);
  const warmPrepared = cli([root, '--cache-dir', cacheDir]);

  // Single-file updates: the latency from a didChange of one open file to the index reflecting it.
  const indexer = new Indexer({ cacheDir });
  await indexer.addFolder(root);
  // Files whose last top-level type is a class or interface, so an appended field is valid Java.
  const lastTypeKind = (f: string) => indexer.index.file(f)?.facts.symbols.filter((s) => s.parent < 0).pop()?.kind;
  const candidates = files.filter((f, i) => ['class', 'interface'].includes(lastTypeKind(f) ?? '') && texts[i].split('\n').length <= 2000);
  const step = Math.max(1, Math.floor(candidates.length / 60));
  const latencies: number[] = [];
  for (let i = 0; i < candidates.length && latencies.length < 60; i += step) {
    const path = candidates[i];
    const text = readFileSync(path, 'utf8');
    const end = text.lastIndexOf('}');
    const edited = `${text.slice(0, end)}    private static int needleBenchProbe${i} = 1;\n${text.slice(end)}`;
    await indexer.setDocument(path, text); // didOpen, then the measured didChange
    const s = performance.now();
    await indexer.setDocument(path, edited);
    latencies.push(performance.now() - s);
    if (!indexer.index.file(path)?.facts.symbols.some((x) => x.name === `needleBenchProbe${i}`) ) throw new Error(`update not reflected: ${path}`);
  }
  const shapes = await shapeChanges(indexer, javaBaseOf(root));
  latencies.sort((a, b) => a - b);
  const pct = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
  rmSync(cacheDir, { recursive: true, force: true });

  console.log(`\n${SPEED_CORPUS}: ${files.length} files, ${lines} lines; ${cold.symbols} symbols, ${cold.edges} edges, resolved share ${(cold.resolvedShare * 100).toFixed(1)} %`);
  console.log(`  bare single-threaded tree-sitter parse   ${Math.round(bareMs)} ms`);
  console.log(`  floor (availableParallelism ${availableParallelism()}): 2 workers, half the files each: bare parse ${Math.round(floorParse)} ms = ${(floorParse / bareMs).toFixed(2)} ×, parse + one walk over every node ${Math.round(floorWalk)} ms = ${(floorWalk / bareMs).toFixed(2)} × bare parse`);
  console.log(`  cold index (2 workers, resolve, cache)   ${cold.timeMs} ms  = ${(cold.timeMs / bareMs).toFixed(2)} × bare parse`);
  console.log(`  warm restart (cache)                     ${warm.timeMs} ms  = ${((warm.timeMs / cold.timeMs) * 100).toFixed(1)} % of cold`);
  console.log(`  single-file update (≤ 2,000 lines)       p50 ${pct(0.5).toFixed(1)} ms, p95 ${pct(0.95).toFixed(1)} ms over ${latencies.length} edits`);
  console.log(`  peak RSS                                 cold ${cold.peakRssMB} MB, warm ${warm.peakRssMB} MB`);
  const steps = (r: typeof coldPrepared) => r.prepare.map((p) => `${p.name} ${p.ms}`).join(', ');
  console.log(`  with retrieval prepared: cold ${coldPrepared.timeMs} ms = ${(coldPrepared.timeMs / bareMs).toFixed(2)} × bare parse, peak RSS ${coldPrepared.peakRssMB} MB (${steps(coldPrepared)})`);
  console.log(`                           warm ${warmPrepared.timeMs} ms, peak RSS ${warmPrepared.peakRssMB} MB (${steps(warmPrepared)})`);
  printShapeChanges(shapes);
}

/**
 * Types whose shape the bench changes, two that much of java.base uses and one that little does,
 * each with a method name its users call (an overload of it changes how those calls resolve).
 */
const SHAPE_TARGETS = [
  { file: 'java/lang/String.java', name: 'needleBenchShape' }, { file: 'java/lang/String.java', name: 'length' },
  { file: 'java/util/List.java', name: 'needleBenchShape' }, { file: 'java/util/List.java', name: 'size' },
  { file: 'java/util/zip/Adler32.java', name: 'needleBenchShape' }, { file: 'java/util/zip/Adler32.java', name: 'update' },
];

interface ShapeChange { file: string; name: string; ms: number; reresolved: number }

/**
 * A shape change: one public method `name(int)` added to a type (a new name, or an overload of a used
 * one). Files that may call it have to be re-resolved; the figure is the time until the index reflects
 * the edit and how many files that took.
 */
async function shapeChanges(indexer: Indexer, root: string): Promise<ShapeChange[]> {
  const out: ShapeChange[] = [];
  for (const { file: rel, name } of SHAPE_TARGETS) {
    const path = join(root, rel);
    const text = readFileSync(path, 'utf8');
    const end = text.lastIndexOf('}');
    const isInterface = indexer.index.file(path)?.facts.symbols.filter((s) => s.parent < 0).pop()?.kind === 'interface';
    const method = `    ${isInterface ? 'default' : 'public'} int ${name}(int needleBenchX) { return needleBenchX; }\n`;
    await indexer.setDocument(path, text);
    const before = indexer.index.resolutions;
    const s = performance.now();
    await indexer.setDocument(path, text.slice(0, end) + method + text.slice(end));
    out.push({ file: rel, name, ms: performance.now() - s, reresolved: indexer.index.resolutions - before });
    if (!indexer.index.file(path)?.facts.symbols.some((x) => x.params?.[0]?.name === 'needleBenchX')) throw new Error(`update not reflected: ${path}`);
    await indexer.setDocument(path, text); // back to the original, so later figures see java.base as it is
  }
  return out;
}

function printShapeChanges(shapes: ShapeChange[]): void {
  for (const c of shapes) {
    console.log(`  public ${`${c.name}(int)`.padEnd(21)} added to ${c.file.padEnd(27)} ${String(Math.round(c.ms)).padStart(6)} ms, ${c.reresolved} files re-resolved`);
  }
}

async function shapeOnly(): Promise<void> {
  const root = corpus('jdk-java.base');
  const cacheDir = mkdtempSync(join(tmpdir(), 'needle-bench-cache-'));
  const indexer = new Indexer({ cacheDir });
  await indexer.addFolder(root);
  const shapes = await shapeChanges(indexer, root);
  rmSync(cacheDir, { recursive: true, force: true });
  console.log(`\njava.base, shape changes (${indexer.index.stats().files} files):`);
  printShapeChanges(shapes);
}

/** `resolve`: resolveAll timed on its own, and optionally every file's resolution dumped (see the header). */
async function resolveOnly(): Promise<void> {
  const name = arg('--corpus') ?? 'jdk-java.base';
  const repeat = Number(arg('--repeat') ?? 3);
  const dump = arg('--dump-edges');
  const indexer = new Indexer({ cacheDir: null, dependencies: false });
  indexer.index.releaseRefs = false; // re-extracting released sites would be timed with resolution
  const t0 = performance.now();
  await indexer.addFolder(corpus(name));
  const coldMs = performance.now() - t0;
  const times: { wall: number; cpu: number }[] = [];
  for (let i = 0; i < repeat; i++) {
    const cpu = process.cpuUsage();
    const s = performance.now();
    indexer.index.resolveAll();
    const wall = performance.now() - s;
    const used = process.cpuUsage(cpu);
    times.push({ wall, cpu: (used.user + used.system) / 1000 });
  }
  const files = indexer.index.allFiles().sort((a, b) => (a.path < b.path ? -1 : 1));
  const st = indexer.index.stats();
  console.log(`${name}: ${files.length} files, ${st.edges} edges, ${st.unresolved} unresolved, ${st.external} external; cold index ${Math.round(coldMs)} ms`);
  for (const t of times) console.log(`  resolveAll  wall ${Math.round(t.wall)} ms, cpu ${Math.round(t.cpu)} ms`);
  if (!dump) return;
  // In the order resolution produced them, which is stricter than sorted: edgesFrom keeps source order.
  const lines = files.map((f) => {
    const r = f.resolution!;
    const edges = r.edges.toArray().map((e) => `${e.from}\t${e.line}:${e.col}\t${e.kind}\t${e.to}`);
    const unresolved = r.unresolved.map((u) => `${u.from}\t${u.line}:${u.col}\t${u.kind}\t${u.name}`);
    return JSON.stringify({ path: relative(corpus(name), f.path), symbols: f.facts.symbols.map((s) => s.id), edges, unresolved, external: r.external, consulted: r.consulted, memberLookups: [...r.memberLookups] });
  });
  writeFileSync(dump, lines.join('\n') + '\n');
  console.log(`  wrote ${dump}`);
}

type FloorWork = 'parse' | 'walk';

/**
 * Wall time of two worker threads each parsing half the files (texts read beforehand, as for the bare
 * parse), with `walk` also reading every node of each tree once, as SyntaxTree does for extraction.
 */
async function floor(files: string[], work: FloorWork): Promise<number> {
  const halves = [files.filter((_, i) => i % 2 === 0), files.filter((_, i) => i % 2 === 1)];
  const workers = halves.map((half) => new Worker(__filename, { workerData: { files: half, work } }));
  const message = (w: Worker) => new Promise<number>((resolve, reject) => { w.once('message', resolve); w.once('error', reject); });
  await Promise.all(workers.map(message)); // ready: grammar loaded, texts read
  const start = performance.now();
  const done = workers.map(message);
  for (const w of workers) w.postMessage('go');
  await Promise.all(done);
  const ms = performance.now() - start;
  await Promise.all(workers.map((w) => w.terminate()));
  return ms;
}

async function floorWorker(): Promise<void> {
  const { files, work } = workerData as { files: string[]; work: FloorWork };
  const texts = files.map((f) => readFileSync(f, 'utf8'));
  const parser = await javaParser();
  parentPort!.once('message', () => {
    for (const text of texts) {
      const tree = parser.parse(text);
      if (tree && work === 'walk') new SyntaxTree(tree, text);
      tree?.delete();
    }
    parentPort!.postMessage('done');
  });
  parentPort!.postMessage('ready');
}

if (!isMainThread) void floorWorker();
else (async () => {
  const only = process.argv[2];
  for (const name of ['commons-lang3', 'jsoup']) if (!only || only === name) await correctness(name);
  if (!only || only === 'speed') await speed();
  if (only === 'shape') await shapeOnly();
  if (only === 'resolve') await resolveOnly();
  if (only === 'cold') await coldOnly();
})().catch((e) => { console.error(e); process.exit(1); });
