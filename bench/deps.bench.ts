// `npm run bench:deps`: the split-corpus benchmark of dependency jars (issue 15's "Proof").
// A benchmark: it prints figures, it never fails on a score.
//
// One development corpus; a set of its packages (SPLITS) leaves the workspace for a jar built
// with javac + jar, declared in a pom.xml of the remaining code and found in a temp local Maven
// repository (`needle.mavenRepositories`). Three arrangements of the same code, in one run:
//   workspace     everything as workspace sources (the reference);
//   jar+sources   the moved packages as a jar with a -sources.jar beside it;
//   jar           the jar alone (class files compiled without -parameters, as Maven does).
// Tasks are the masked-method tasks (bench/retrieval) of the remaining code whose gold has ≥ 1
// declaration in the moved packages. Reported per arrangement: rcl recall (all gold, and the gold
// in the jar; without sources a jar symbol counts when an item of its type's file shows its name),
// full coverage, median tokens, the gate (mean confidence, review rate, false confidence, AUROC);
// check_code on those real bodies (false "unknown API" findings) and on the bodies with one jar
// call renamed (bench/check/bodies.ts); cold index time and peak memory of a fresh server, and its
// warm start (same cache folder), as ratios to the workspace arrangement within this run.
//
//   node dist/bench/deps.bench.js [--corpus jsoup|commons-lang3] [--tasks N] [--validation M]
//     [--reps R] [--budget T] [--scenarios new,partial,existing] [--no-injected]
//
// Writes bench/out/deps-report.json. `npm run bench:org -- --cross` runs the same split with the
// moved packages in an org index instead of a jar (arrangement `org`; bench/out/org-cross-report.json).

import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { defaultDependencySettings } from '../server/src/deps/discover';
import { Indexer } from '../server/src/index/indexer';
import { openOrgDb } from '../server/src/org/db';
import { orgTypeLoader } from '../server/src/org/library';
import { publishRepository } from '../server/src/org/publish';
import { closeOrgConnections } from '../server/src/org/recall';
import { checkBodies, type BodyCheckFigures } from './check/bodies';
import { arg, corpusSourceRoot } from './cli';
import { DEBIAN_CORPORA } from './corpora/list.mjs';
import { startServer } from './retrieval/client';
import { runCorpus, type CorpusReport } from './retrieval/run';
import { median } from './retrieval/score';
import { eligibleTasks, loadOracle, sampleFrom, type BenchScenario, type OracleOutput, type Task } from './retrieval/tasks';

const ROOT = process.cwd();

/**
 * Per corpus: its root package, the sub-packages moved into the jar (chosen so that many tasks
 * have gold there), and what javac needs besides the JDK to compile the corpus.
 */
const SPLITS: Record<string, { rootPackage: string; moved: string[]; classpath: { jar: string; debian: string }[] }> = {
  jsoup: { rootPackage: 'org.jsoup', moved: ['helper', 'internal'], classpath: [{ jar: '/usr/share/java/jsr305.jar', debian: 'libjsr305-java' }] },
  'commons-lang3': { rootPackage: 'org.apache.commons.lang3', moved: ['builder', 'concurrent', 'function', 'mutable', 'text', 'text.translate', 'time', 'tuple'], classpath: [] },
};

const ARTIFACT = { artifactId: 'platform-core', version: '1.0-split' };

/**
 * `org`: no jar and no pom; the moved packages are published as repository `platform` to an org
 * index (PGlite in the temp folder) that the server reads (`needle.orgIndex`), so their types come
 * from the org index (org/library.ts). `npm run bench:org -- --cross` runs workspace against org.
 */
export type Arrangement = 'workspace' | 'jar+sources' | 'jar' | 'org';
const ARRANGEMENTS: Arrangement[] = ['workspace', 'jar+sources', 'jar'];
const PLATFORM_REPO = { name: 'platform', commit: 'split' };

const packageOf = (file: string) => file.split('/').slice(0, -1).join('.');

/** The corpus's split: which files move, the jars in two local repositories, the pom of the rest. */
interface Split {
  corpus: string;
  sourceRoot: string;
  oracle: OracleOutput;
  movedPackages: string[];
  isMoved: (file: string) => boolean;
  movedFiles: string[];
  /** Local repository with jar + -sources.jar, and one with the jar only. */
  repos: Record<'jar+sources' | 'jar', string>;
  /** The org index (a PGlite folder) the moved packages are published to, as repository PLATFORM_REPO. */
  orgDb: string;
  pom: string;
  tmp: string;
}

function run(cmd: string, argv: string[], cwd?: string): void {
  try { execFileSync(cmd, argv, { cwd, stdio: 'pipe', maxBuffer: 64 << 20 }); } catch (e) {
    const err = e as { code?: string; stderr?: Buffer };
    if (err.code === 'ENOENT') throw new Error(`${cmd} is needed (Debian package openjdk-17-jdk-headless)`);
    throw new Error(`${cmd} failed: ${err.stderr?.toString().slice(0, 2000) ?? (e as Error).message}`);
  }
}

/** Copies `files` (relative) from `from` into a fresh folder under `tmp` and returns it. */
function subtree(from: string, files: string[], to: string): string {
  for (const f of files) { mkdirSync(dirname(join(to, f)), { recursive: true }); cpSync(join(from, f), join(to, f)); }
  return to;
}

async function makeSplit(corpus: string, rootPackage: string, withOrg: boolean): Promise<Split> {
  const base = corpus.replace(/-injected$/, '');
  const spec = SPLITS[base];
  if (!spec) throw new Error(`${corpus}: no split defined (known: ${Object.keys(SPLITS).join(', ')})`);
  const sourceRoot = corpusSourceRoot(corpus, 'fail');
  const oracle = await loadOracle(ROOT, sourceRoot);
  const movedPackages = spec.moved.map((p) => `${rootPackage}.${p}`);
  const moved = new Set(movedPackages);
  const isMoved = (file: string) => moved.has(packageOf(file));
  const movedFiles = oracle.files.filter(isMoved);
  if (!movedFiles.length) throw new Error(`${corpus}: no file in ${movedPackages.join(', ')}`);
  for (const c of spec.classpath) if (!existsSync(c.jar)) throw new Error(`${c.jar} is needed to compile ${base} (Debian package ${c.debian})`);

  const tmp = mkdtempSync(join(tmpdir(), `needle-deps-${corpus}-`));
  // The whole corpus compiles together (the moved packages call back into the rest); the jar
  // holds only the moved packages' classes, as a platform library's jar would.
  const classes = join(tmp, 'classes');
  mkdirSync(classes);
  const list = join(tmp, 'sources.txt');
  writeFileSync(list, oracle.files.map((f) => join(sourceRoot, f)).join('\n'));
  const cp = spec.classpath.map((c) => c.jar);
  run('javac', ['-nowarn', '-proc:none', '-encoding', 'UTF-8', '-d', classes, ...(cp.length ? ['-cp', cp.join(delimiter)] : []), `@${list}`]);
  const jarClasses = join(tmp, 'jar-classes');
  for (const pkg of movedPackages) {
    const dir = pkg.split('.').join('/');
    const names = readdirSync(join(classes, dir)).filter((n) => n.endsWith('.class'));
    subtree(classes, names.map((n) => `${dir}/${n}`), jarClasses);
  }
  const jarSources = subtree(sourceRoot, movedFiles, join(tmp, 'jar-sources'));
  const groupId = rootPackage;
  const repos = { 'jar+sources': join(tmp, 'repo-with-sources'), jar: join(tmp, 'repo-without-sources') };
  for (const [kind, repo] of Object.entries(repos)) {
    const dir = join(repo, ...groupId.split('.'), ARTIFACT.artifactId, ARTIFACT.version);
    mkdirSync(dir, { recursive: true });
    const stem = join(dir, `${ARTIFACT.artifactId}-${ARTIFACT.version}`);
    writeFileSync(`${stem}.pom`, `<project><modelVersion>4.0.0</modelVersion><groupId>${groupId}</groupId><artifactId>${ARTIFACT.artifactId}</artifactId><version>${ARTIFACT.version}</version></project>\n`);
    run('jar', ['cf', `${stem}.jar`, '-C', jarClasses, '.']);
    if (kind === 'jar+sources') run('jar', ['cf', `${stem}-sources.jar`, '-C', jarSources, '.']);
  }
  // The remaining code's project shares the organisation prefix, so the jar is internal.
  const pom = `<project>
  <modelVersion>4.0.0</modelVersion>
  <groupId>${rootPackage.split('.').slice(0, 2).join('.')}</groupId>
  <artifactId>service</artifactId>
  <version>1.0</version>
  <dependencies>
    <dependency><groupId>${groupId}</groupId><artifactId>${ARTIFACT.artifactId}</artifactId><version>${ARTIFACT.version}</version></dependency>
  </dependencies>
</project>
`;
  const orgDb = join(tmp, 'org-index');
  if (withOrg) {
    const db = await openOrgDb(orgDb);
    try { await publishRepository(db, jarSources, { cacheDir: null, ...PLATFORM_REPO }); } finally { await db.close(); }
  }
  return { corpus, sourceRoot, oracle, movedPackages, isMoved, movedFiles, repos, orgDb, pom, tmp };
}

/** Removes the moved packages' files from a copy of the sources and adds the pom (none for `org`: no jar). */
function splitWorkspace(split: Split, ws: string, a: Arrangement): void {
  for (const f of split.movedFiles) rmSync(join(ws, f));
  if (a !== 'org') writeFileSync(join(ws, 'pom.xml'), split.pom);
}

/** The folders a server's dependency cache extracted jars into (`<cache>/deps/<hash>/{sources,classes}`). */
function libraryRoots(cacheDir: string): string[] {
  const deps = join(cacheDir, 'deps');
  if (!existsSync(deps)) return [];
  const org = join(deps, 'org');
  return [
    ...readdirSync(deps).filter((h) => h !== 'org' && statSync(join(deps, h)).isDirectory()).sort().flatMap((h) => [join(deps, h, 'sources'), join(deps, h, 'classes')]),
    ...(existsSync(org) ? readdirSync(org).sort().map((r) => join(org, r)) : []),
  ];
}

function settingsFor(split: Split, a: Arrangement): object {
  return a === 'workspace' ? {} : a === 'org' ? { orgIndex: split.orgDb } : { mavenRepositories: [split.repos[a]] };
}

interface RetrievalFigures {
  arrangement: Arrangement;
  tasks: number;
  recall: number;
  /** Recall of the gold declared in the moved packages only. */
  jarRecall: number;
  jarGold: number;
  fullCoverage: number;
  tokensMedian: number;
  confidenceMean: number;
  reviewRate: number;
  falseConfidenceRate: number | null;
  auroc: number | null;
  indexMs: number;
  filesInIndex: number;
  errors: number;
  /** rcl per test task: gold found and what was missed (to compare arrangements task by task). */
  perTask: { task: string; gold: number; found: number; missing: string[]; confidence: number; review: boolean }[];
}

function retrievalFigures(a: Arrangement, r: CorpusReport, split: Split, tasks: Task[]): RetrievalFigures {
  const rcl = r.modes.rcl;
  const test = new Map(tasks.filter((t) => t.split === 'test').map((t) => [t.id, t]));
  let jarGold = 0, jarFound = 0;
  const confidences: number[] = [];
  const perTask: RetrievalFigures['perTask'] = [];
  for (const row of r.perTask) {
    const t = test.get(row.task), s = row.scores.rcl;
    if (!t || !s) continue;
    confidences.push(s.confidence);
    perTask.push({ task: row.task, gold: s.gold, found: s.found, missing: s.missing, confidence: s.confidence, review: s.review });
    const missing = new Set(s.missing);
    for (const g of t.gold) if (split.isMoved(g.file)) { jarGold++; if (!missing.has(g.qualified)) jarFound++; }
  }
  return {
    arrangement: a, tasks: rcl.tasks, recall: rcl.recallMicro, jarRecall: jarGold ? jarFound / jarGold : NaN, jarGold,
    fullCoverage: rcl.fullCoverageRate, tokensMedian: rcl.tokensMedian,
    confidenceMean: confidences.reduce((x, y) => x + y, 0) / Math.max(1, confidences.length),
    reviewRate: r.gate.reviewOverhead, falseConfidenceRate: r.gate.falseConfidenceRate, auroc: r.gate.auroc,
    indexMs: r.indexMs, filesInIndex: r.files, errors: r.errors.length, perTask,
  };
}

interface CostFigures { arrangement: Arrangement; coldMs: number[]; warmMs: number[]; coldPeakMB: number[]; warmPeakMB: number[]; files: number; typesLoaded: number }

/** A fresh server (cold: empty cache folder), then a second one on the same cache folder (warm). */
async function measureCost(split: Split, arrangements: Arrangement[], reps: number, log: (m: string) => void): Promise<CostFigures[]> {
  const out = new Map<Arrangement, CostFigures>(arrangements.map((a) => [a, { arrangement: a, coldMs: [], warmMs: [], coldPeakMB: [], warmPeakMB: [], files: 0, typesLoaded: 0 }]));
  const serverJs = join(ROOT, 'dist/server.js');
  for (let rep = 0; rep < reps; rep++) {
    // Interleaved, so the machine's load drifts over all arrangements alike.
    for (const a of arrangements) {
      const ws = mkdtempSync(join(tmpdir(), `needle-deps-cost-`));
      const cacheDir = mkdtempSync(join(tmpdir(), `needle-deps-cache-`));
      try {
        cpSync(split.sourceRoot, ws, { recursive: true });
        if (a !== 'workspace') splitWorkspace(split, ws, a);
        const f = out.get(a)!;
        for (const phase of ['cold', 'warm'] as const) {
          const s = await startServer(serverJs, ws, { cacheDir, initializationOptions: settingsFor(split, a) });
          (phase === 'cold' ? f.coldMs : f.warmMs).push(s.readyMs);
          (phase === 'cold' ? f.coldPeakMB : f.warmPeakMB).push(s.peakRssMB() ?? NaN);
          f.files = s.status.files;
          f.typesLoaded = (s.status.dependencies ?? []).reduce((n, d) => n + d.typesLoaded, 0) + (s.status.org ?? []).reduce((n, o) => n + o.types, 0);
          await s.shutdown();
        }
        log(`  cost ${rep + 1}/${reps} ${a}: cold ${Math.round(f.coldMs.at(-1)!)} ms ${f.coldPeakMB.at(-1)} MB, warm ${Math.round(f.warmMs.at(-1)!)} ms`);
      } finally {
        rmSync(ws, { recursive: true, force: true });
        rmSync(cacheDir, { recursive: true, force: true });
      }
    }
  }
  return [...out.values()];
}

/** check_code on the tasks' real bodies, and with one call into the moved packages renamed. */
async function measureCheck(split: Split, tasks: Omit<Task, 'split'>[], a: Arrangement): Promise<BodyCheckFigures> {
  const ws = mkdtempSync(join(tmpdir(), `needle-deps-check-`));
  const cacheDir = mkdtempSync(join(tmpdir(), `needle-deps-cache-`));
  try {
    cpSync(split.sourceRoot, ws, { recursive: true });
    if (a !== 'workspace') splitWorkspace(split, ws, a);
    const settings = a === 'workspace' || a === 'org' ? defaultDependencySettings() : { ...defaultDependencySettings(), mavenRepositories: [split.repos[a]] };
    const indexer = new Indexer({ cacheDir, dependencies: settings, orgLibrary: a === 'org' ? orgTypeLoader(split.orgDb) : undefined });
    await indexer.addFolder(ws);
    // The PGlite folder has one user at a time: the servers of the next arrangements open it too.
    await closeOrgConnections();
    if (a === 'org' && !indexer.status().org?.[0]?.types) throw new Error(`org arrangement loaded no type: ${JSON.stringify(indexer.status().org)}`);
    // A renamed call must not land on any method of the corpus, loaded into the index or not.
    const methodNames = new Set(split.oracle.declarations.filter((d) => d.kind === 'method').map((d) => d.name));
    for (const f of indexer.index.allFiles()) for (const s of f.facts.symbols) if (s.kind === 'method') methodNames.add(s.name);
    return await checkBodies(indexer, split.oracle, tasks, { sourceRoot: ws, methodNames, renamable: (d) => split.isMoved(d.file) });
  } finally {
    rmSync(ws, { recursive: true, force: true });
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

interface CorpusResult {
  corpus: string;
  movedPackages: string[];
  movedFiles: number;
  eligibleTasks: number;
  retrieval: RetrievalFigures[];
  check: (BodyCheckFigures & { arrangement: Arrangement })[];
  cost: CostFigures[];
}

async function runSplit(corpus: string, rootPackage: string, opts: SplitOptions, log: (m: string) => void): Promise<CorpusResult> {
  const arrangements = opts.arrangements;
  const split = await makeSplit(corpus, rootPackage, arrangements.includes('org'));
  try {
    const eligible = eligibleTasks(split.oracle).filter((t) => !split.isMoved(t.file) && t.gold.some((g) => split.isMoved(g.file)));
    const tasks = sampleFrom(eligible, { test: opts.test, validation: opts.validation });
    log(`${corpus}: ${split.movedFiles.length} files of ${split.movedPackages.join(', ')} moved into the jar; ${eligible.length} tasks have gold there, ${tasks.length} sampled`);
    const retrieval: RetrievalFigures[] = [];
    for (const a of arrangements) {
      const cacheDir = mkdtempSync(join(tmpdir(), `needle-deps-cache-`));
      try {
        const r = await runCorpus({
          root: ROOT, name: `${corpus}-${a}`, sourceRoot: split.sourceRoot, test: opts.test, validation: opts.validation, budgetTokens: opts.budget,
          tasks, log, scenarios: opts.scenarios,
          prepareWorkspace: a === 'workspace' ? undefined : (ws) => splitWorkspace(split, ws, a),
          server: { cacheDir, initializationOptions: settingsFor(split, a) },
          libraryRoots: () => libraryRoots(cacheDir),
          byName: a === 'jar' ? (g) => split.isMoved(g.file) : undefined,
        }, split.oracle);
        retrieval.push(retrievalFigures(a, r, split, tasks));
      } finally {
        rmSync(cacheDir, { recursive: true, force: true });
      }
    }
    const check: CorpusResult['check'] = [];
    for (const a of arrangements) check.push({ arrangement: a, ...await measureCheck(split, eligible, a) });
    const cost = await measureCost(split, arrangements, opts.reps, log);
    return { corpus, movedPackages: split.movedPackages, movedFiles: split.movedFiles.length, eligibleTasks: eligible.length, retrieval, check, cost };
  } finally {
    rmSync(split.tmp, { recursive: true, force: true });
  }
}

const f2 = (x: number | null) => (x === null || Number.isNaN(x) ? '  n/a' : x.toFixed(2).padStart(5));
const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)} %` : 'n/a');

function report(r: CorpusResult): string {
  const ref = r.retrieval.find((x) => x.arrangement === 'workspace')!;
  const lines = [`\n${r.corpus}: ${r.movedFiles} files of ${r.movedPackages.join(', ')} in the jar; ${r.eligibleTasks} tasks with gold there`,
    'arrangement   tasks  recall  jar-recall (gold)  full-cov  tok-median  conf-mean  review  false-conf  auroc',
    ...r.retrieval.map((x) => `${x.arrangement.padEnd(12)}  ${String(x.tasks).padStart(5)}  ${f2(x.recall)}   ${f2(x.jarRecall)} (${String(x.jarGold).padStart(4)})   ${f2(x.fullCoverage)}     ${String(Math.round(x.tokensMedian)).padStart(6)}      ${f2(x.confidenceMean)}   ${f2(x.reviewRate)}       ${f2(x.falseConfidenceRate)}  ${f2(x.auroc)}${x.errors ? `  (${x.errors} errors)` : ''}`),
    ...r.retrieval.filter((x) => x !== ref).map((x) => `  ${x.arrangement} − workspace: recall ${((x.recall - ref.recall) * 100).toFixed(1)} pt, full coverage ${((x.fullCoverage - ref.fullCoverage) * 100).toFixed(1)} pt, confidence ${((x.confidenceMean - ref.confidenceMean) * 100).toFixed(1)} pt, review ${((x.reviewRate - ref.reviewRate) * 100).toFixed(1)} pt`),
    ...r.retrieval.filter((x) => x !== ref).flatMap((x) => {
      const before = new Map(ref.perTask.map((p) => [p.task, p]));
      return x.perTask.filter((p) => before.get(p.task)?.found !== p.found).map((p) => {
        const b = before.get(p.task)!;
        const lost = p.missing.filter((m) => !b.missing.includes(m)), gained = b.missing.filter((m) => !p.missing.includes(m));
        return `    ${x.arrangement}: ${p.task} ${b.found}→${p.found}/${p.gold}${lost.length ? `  lost ${lost.join(', ')}` : ''}${gained.length ? `  gained ${gained.join(', ')}` : ''}`;
      });
    }),
    '',
    'check_code    bodies  refs  false findings (bodies)  renamed jar calls  detected',
    ...r.check.map((c) => `${c.arrangement.padEnd(12)}  ${String(c.tasks).padStart(6)}  ${String(c.refs).padStart(4)}  ${`${c.falseFindings} (${c.falseTasks})`.padStart(23)}  ${String(c.mutated).padStart(17)}  ${pct(c.detected, c.mutated).padStart(8)}`),
  ];
  for (const c of r.check) {
    if (c.examples.length) lines.push(`  ${c.arrangement}: false findings (first ${c.examples.length})\n    ${c.examples.join('\n    ')}`);
    if (c.misses.length) lines.push(`  ${c.arrangement}: renamed calls not detected (first ${c.misses.length})\n    ${c.misses.join('\n    ')}`);
  }
  const wsCost = r.cost.find((c) => c.arrangement === 'workspace')!;
  lines.push('', `cost (median of ${wsCost.coldMs.length})  cold ms  peak MB  warm ms  files  jar types  cold×  peak×  warm×`);
  for (const c of r.cost) {
    lines.push(`${c.arrangement.padEnd(20)}  ${String(Math.round(median(c.coldMs))).padStart(7)}  ${String(median(c.coldPeakMB)).padStart(7)}  ${String(Math.round(median(c.warmMs))).padStart(7)}  ${String(c.files).padStart(5)}  ${String(c.typesLoaded).padStart(9)}  ${(median(c.coldMs) / median(wsCost.coldMs)).toFixed(2).padStart(5)}  ${(median(c.coldPeakMB) / median(wsCost.coldPeakMB)).toFixed(2).padStart(5)}  ${(median(c.warmMs) / median(wsCost.warmMs)).toFixed(2).padStart(5)}`);
  }
  return lines.join('\n');
}

export interface SplitOptions { test: number; validation: number; budget: number; reps: number; arrangements: Arrangement[]; scenarios?: BenchScenario[] }

/**
 * The split benchmark from the command line's flags (--corpus, --tasks, --validation, --budget,
 * --reps, --no-injected) over `arrangements`; prints the report and writes `bench/out/<out>`.
 */
export async function runSplitBench(arrangements: Arrangement[], out: string): Promise<void> {
  const corpus = arg('--corpus') ?? 'jsoup';
  if ((DEBIAN_CORPORA as Record<string, { heldOut?: boolean }>)[corpus]?.heldOut) throw new Error(`${corpus} is held out; the split benchmark runs on development corpora only`);
  if (!SPLITS[corpus]) throw new Error(`--corpus: one of ${Object.keys(SPLITS).join(', ')}`);
  const test = Number(arg('--tasks') ?? 30);
  // --scenarios new,partial,existing (default all): fewer scenarios, a shorter run.
  const scenarios = arg('--scenarios')?.split(',') as BenchScenario[] | undefined;
  const opts: SplitOptions = { test, validation: Number(arg('--validation') ?? Math.ceil(test / 3)), budget: Number(arg('--budget') ?? 4000), reps: Number(arg('--reps') ?? 3), arrangements, scenarios };
  if (!existsSync(join(ROOT, 'dist/server.js'))) throw new Error('dist/server.js missing: run `npm run build` first');
  const log = (m: string) => console.error(m);
  const results: CorpusResult[] = [await runSplit(corpus, SPLITS[corpus].rootPackage, opts, log)];
  console.log(report(results[0]));
  // The injected variant (bench/corpora/inject.mjs): the same code renamed into a private API.
  const injected = `${corpus}-injected`;
  const meta = join(ROOT, '.cache', 'corpora', injected, 'needle-injection.json');
  if (!process.argv.includes('--no-injected') && existsSync(meta)) {
    const rootPackage = (JSON.parse(readFileSync(meta, 'utf8')) as { rootPackage: { to: string } }).rootPackage.to;
    results.push(await runSplit(injected, rootPackage, { ...opts, reps: 1 }, log));
    console.log(report(results[1]));
  }
  const outDir = join(ROOT, 'bench', 'out');
  mkdirSync(outDir, { recursive: true });
  const json = join(outDir, out);
  writeFileSync(json, JSON.stringify({ generatedAt: new Date().toISOString(), options: opts, corpora: results }, null, 2));
  console.log(`\nwrote ${json}`);
}

// Run as `node dist/bench/deps.bench.js`; bench/org.bench.ts imports runSplitBench without running this.
if (/deps\.bench\.[jt]s$/.test(process.argv[1] ?? '')) {
  runSplitBench(ARRANGEMENTS, 'deps-report.json').catch((e) => { console.error(e); process.exit(1); });
}
