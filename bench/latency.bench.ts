// `npm run bench:latency`: needle/retrieveContext latency on the JDK's java.base with a warm
// index (issue 4 target: p50 ≤ 50 ms, p95 ≤ 150 ms), and the time to a first answer (issue 16):
// from a start (cold, and warm from the index cache) to the first retrieval answered, with
// retrieval's workspace-wide structures built lazily by that first request (as before) and built
// as indexing's prepare phase (retrieval/prepare.ts), in one run.
//   node dist/bench/latency.bench.js [requests] [--corpus jdk-java.base|jdk-all] [--no-startup] [--warm-only] [--edits N] [--slowest N] [--dump FILE]
// --slowest N: the N slowest warm requests: their stages, collection pauses, CPU time and page faults.
// --allocations: what the warm requests allocated (V8's sampling heap profiler, one sample per
// 16 KB on average): the total, per request, and the functions that allocated most themselves.
// --dump FILE: every request's answer, before the edits and after each (target, tokens, each item's uri, tokens and
// text), one JSON line each, to compare the rendered contexts of two builds byte for byte.

import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { constants as perfConstants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { arg, corpusSourceRoot } from './cli';
import { Indexer } from '../server/src/index/indexer';
import { defaultSettings, prepareIndexer, retrieveAt, uriOfPath } from '../server/src/service';
import type { PreparedStep } from '../server/src/retrieval/prepare';
import { SAVED_DESCRIPTION_TABLE } from '../server/src/retrieval/recall/descriptions';
import { boundHeapGrowth } from '../server/src/platform/heapGrowth';
import { tempDir } from '../test/helpers/tempDir'; // removed at exit: each holds an index cache (the JDK's: 143 MB)

/** A sampling heap profile's nodes: what each function allocated itself, and the callees. */
interface SamplingHeapNode { callFrame: { functionName: string; url: string; lineNumber: number }; selfSize: number; children: SamplingHeapNode[] }
interface SamplingHeapProfile { head: SamplingHeapNode }

/** The total a sampling heap profile saw allocated, and by function (name, file:line) the most first. */
function allocatedBy(profile: SamplingHeapProfile): { total: number; top: [string, number][] } {
  const by = new Map<string, number>();
  let total = 0;
  const walk = (n: SamplingHeapNode) => {
    total += n.selfSize;
    if (n.selfSize) {
      const f = `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber + 1}`;
      by.set(f, (by.get(f) ?? 0) + n.selfSize);
    }
    n.children.forEach(walk);
  };
  walk(profile.head);
  return { total, top: [...by].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)) };
}

type Target = { path: string; line: number };
type Answer = Awaited<ReturnType<typeof retrieveAt>>;
/** One answer as --dump writes it (`edit`: the edit it followed). */
const answerLine = (t: Target, r: Answer, edit?: string) =>
  JSON.stringify({ path: t.path, line: t.line, ...(edit ? { edit } : {}), tokens: r.tokens, items: r.items.map((it) => ({ uri: it.uri, tokens: it.tokens, text: it.text })) });
const ask = (ix: Indexer, t: Target) => retrieveAt(ix, { textDocument: { uri: uriOfPath(t.path) }, position: { line: t.line, character: 0 } }, defaultSettings());

interface Startup { label: string; readyMs: number; prepareMs?: number; firstMs: number; nextMs: number; steps?: PreparedStep[]; firstStages: Record<string, number>; cpuMs: number }

/**
 * One start: an Indexer on `cacheDir` (warm when it holds this folder's cache), `prepare` or not;
 * the time until the folder is ready, the first request after that, and the median of the next
 * three (the usual latency the first should match).
 */
async function start(label: string, root: string, cacheDir: string, prepare: boolean, targets: Target[], ignoreSaved?: string[]): Promise<Startup> {
  let steps: PreparedStep[] | undefined;
  const ix = new Indexer({ cacheDir, prepare: prepare ? prepareIndexer({ done: (s) => { steps = s; }, ignoreSaved }) : undefined });
  const t0 = performance.now(), cpu0 = process.cpuUsage();
  await ix.addFolder(root);
  const readyMs = performance.now() - t0;
  const t1 = performance.now();
  const first = await ask(ix, targets[0]);
  const firstMs = performance.now() - t1;
  const cpu = process.cpuUsage(cpu0);
  const next: number[] = [];
  for (const t of targets.slice(1, 4)) { const s = performance.now(); await ask(ix, t); next.push(performance.now() - s); }
  return { label, readyMs, prepareMs: ix.prepareMs, firstMs, nextMs: next.sort((a, b) => a - b)[1], steps, firstStages: first.timingsMs, cpuMs: (cpu.user + cpu.system) / 1000 };
}


(async () => {
  // As the server and the CLI run (platform/heapGrowth.ts; NEEDLE_HEAP_GROWING_PERCENT=0: V8's own).
  const growth = boundHeapGrowth();
  console.log(`heap growing percent: ${Number.isNaN(growth) ? 'from the command line' : growth || "V8's own"}`);
  const corpus = arg('--corpus') ?? 'jdk-java.base';
  const root = corpusSourceRoot(corpus);
  const count = Number(/^\d+$/.test(process.argv[2] ?? '') ? process.argv[2] : 100);
  const cacheDir = tempDir('needle-latency-');
  // NEEDLE_PROFILE=out.cpuprofile: a CPU profile of the warm requests only (indexing and the
  // first request, which builds the lazy caches, would drown them in `node --cpu-prof`).
  const profileTo = process.env.NEEDLE_PROFILE;
  const session = profileTo ? new Session() : undefined;
  const allocSession = process.argv.includes('--allocations') ? new Session() : undefined;
  const ix = new Indexer({ cacheDir });
  const tCold = performance.now();
  await ix.addFolder(root);
  const coldMs = performance.now() - tCold;
  // The server prepares retrieval's workspace-wide structures before it reports ready (service.ts
  // prepareIndexer). Without that here, the first request of a kind that reads one of them (a new
  // body's gate reads the subtype table, an existing body's does not) built it among the warm ones.
  const tPrepare = performance.now();
  await prepareIndexer()(ix);
  const prepareMs = performance.now() - tPrepare;
  // Every k-th method with a body of 3+ lines; the cursor on the body's first line.
  const targets = ix.index.allFiles().sort((a, b) => (a.path < b.path ? -1 : 1)).flatMap((f) =>
    f.facts.symbols.filter((s) => s.kind === 'method' && s.span.el - s.span.sl >= 3).map((s) => ({ path: f.path, line: s.nameSpan.sl + 1 })));
  const step = Math.max(1, Math.floor(targets.length / count));
  const chosen = targets.filter((_, i) => i % step === 0).slice(0, count);
  const times: number[] = [];
  /** Per target (by its index in `chosen`): its warm request's time and stages, to compare the request after an edit with. */
  const warmOf = new Map<number, { ms: number; stages: Record<string, number>; from: number; cpuMs: number; faults: number }>();
  // Garbage collections while the warm requests run: how much of a slow request they are.
  const collections: PerformanceEntry[] = [];
  const gcObserver = new PerformanceObserver((list) => { collections.push(...list.getEntries()); });
  /** Per stage: its time in each warm request (the pipeline's timingsMs). */
  const stages = new Map<string, number[]>();
  let first = 0, tokens = 0;
  const dumpTo = arg('--dump');
  const dump: string[] = [];
  for (const [i, t] of chosen.entries()) {
    const s = performance.now(), usage0 = process.resourceUsage();
    const r = await retrieveAt(ix, { textDocument: { uri: uriOfPath(t.path) }, position: { line: t.line, character: 0 } }, defaultSettings());
    const ms = performance.now() - s, usage = process.resourceUsage();
    tokens += r.tokens;
    if (dumpTo) dump.push(answerLine(t, r));
    if (i === 0) {
      first = ms; // the structures built lazily, by this request
      gcObserver.observe({ entryTypes: ['gc'] });
      if (session) { session.connect(); await session.post('Profiler.enable'); await session.post('Profiler.start'); }
      if (allocSession) {
        allocSession.connect();
        await allocSession.post('HeapProfiler.enable');
        await allocSession.post('HeapProfiler.startSampling', { samplingInterval: 16384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true } as never);
      }
      continue;
    }
    times.push(ms);
    // CPU time (all threads) and page faults: a slow request that used little CPU waited for the machine.
    const cpuMs = (usage.userCPUTime + usage.systemCPUTime - usage0.userCPUTime - usage0.systemCPUTime) / 1000;
    warmOf.set(i, { ms, stages: r.timingsMs, from: s, cpuMs, faults: usage.minorPageFault - usage0.minorPageFault + usage.majorPageFault - usage0.majorPageFault });
    for (const [name, v] of Object.entries(r.timingsMs)) {
      if (name === 'total') continue;
      let l = stages.get(name);
      if (!l) stages.set(name, (l = []));
      l.push(v);
    }
  }
  const allocations = allocSession ? allocatedBy(((await allocSession.post('HeapProfiler.stopSampling')) as { profile: SamplingHeapProfile }).profile) : undefined;
  allocSession?.disconnect();
  if (session && profileTo) {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(profileTo, JSON.stringify(profile));
    session.disconnect();
  }
  // After an edit: each workspace-wide structure must follow the index file by file, or the first
  // request after every keystroke pays for the whole module again. Two kinds, each on its own
  // files (--edits N of each): a comment appended (no declaration changes), and a method added (its
  // description moves the description index's statistics). The request after each is at the
  // edited file's target, asked before the edit.
  const editCount = Number(arg('--edits') ?? 10);
  const editKinds: { label: string; edit: (text: string) => string }[] = [
    { label: 'a comment appended', edit: (text) => text + '\n// edited\n' },
    { label: 'a method added', edit: (text) => text.replace(/\}\s*$/, '  /** Edited count. */ int editedCount(String name) { return 0; }\n}\n') },
  ];
  // NEEDLE_PROFILE_EDITS=out.cpuprofile: a CPU profile of the edits and the requests after them.
  const editProfile = process.env.NEEDLE_PROFILE_EDITS;
  const editSession = editProfile ? new Session() : undefined;
  if (editSession) { editSession.connect(); await editSession.post('Profiler.enable'); await editSession.post('Profiler.start'); }
  const afterEdit = new Map<string, { update: number; request: number; warm: number; stages: Record<string, number>; warmStages: Record<string, number> }[]>();
  for (const [k, kind] of editKinds.entries()) {
    const runs: { update: number; request: number; warm: number; stages: Record<string, number>; warmStages: Record<string, number> }[] = [];
    afterEdit.set(kind.label, runs);
    for (let i = 1 + k * editCount; i < Math.min(chosen.length, 1 + (k + 1) * editCount); i++) {
      const t = chosen[i];
      const text = ix.textOf(t.path)!;
      const s0 = performance.now();
      await ix.setDocument(t.path, kind.edit(text));
      const s1 = performance.now();
      const r = await retrieveAt(ix, { textDocument: { uri: uriOfPath(t.path) }, position: { line: t.line, character: 0 } }, defaultSettings());
      const warm = warmOf.get(i)!;
      runs.push({ update: s1 - s0, request: performance.now() - s1, warm: warm.ms, stages: r.timingsMs, warmStages: warm.stages });
      if (dumpTo) dump.push(answerLine(t, r, kind.label));
      await ix.closeDocument(t.path);
    }
  }
  if (dumpTo) writeFileSync(dumpTo, dump.join('\n') + '\n');
  if (editSession && editProfile) {
    const { profile } = await editSession.post('Profiler.stop');
    writeFileSync(editProfile, JSON.stringify(profile));
    editSession.disconnect();
  }
  times.sort((a, b) => a - b);
  const pctOf = (xs: number[], q: number) => xs[Math.min(xs.length - 1, Math.floor(q * xs.length))];
  const pct = (q: number) => pctOf(times, q);
  console.log(`${corpus}: ${ix.index.stats().files} files; ${chosen.length} requests at methods across the workspace`);
  console.log(`  cold index (no prepare)             ${Math.round(coldMs)} ms`);
  console.log(`  prepare phase, as the server's      ${Math.round(prepareMs)} ms`);
  console.log(`  first request (what stays lazy)     ${Math.round(first)} ms`);
  console.log(`  warm requests                       p50 ${pct(0.5).toFixed(1)} ms, p95 ${pct(0.95).toFixed(1)} ms, max ${times[times.length - 1].toFixed(1)} ms`);
  console.log(`  mean tokens per request             ${Math.round(tokens / chosen.length)}`);
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  // Each request after an edit against the same target's warm request before the edits (the
  // targets' own costs differ more than the edit's: lexical recall runs only where there are terms).
  for (const [label, runs] of afterEdit) {
    if (!runs.length) continue;
    const request = median(runs.map((e) => e.request));
    console.log(`  after a one-file edit, ${label} (${runs.length} edits): update median ${median(runs.map((e) => e.update)).toFixed(1)} ms, next request median ${request.toFixed(1)} ms, max ${Math.max(...runs.map((e) => e.request)).toFixed(1)} ms`);
    console.log(`    next request ÷ the same target's warm request: median ${median(runs.map((e) => e.request / e.warm)).toFixed(2)}, max ${Math.max(...runs.map((e) => e.request / e.warm)).toFixed(2)} (Σ ${runs.reduce((a, e) => a + e.request, 0).toFixed(0)} ÷ ${runs.reduce((a, e) => a + e.warm, 0).toFixed(0)} ms)`);
    const names = [...new Set(runs.flatMap((e) => Object.keys(e.stages)))].filter((n) => n !== 'total');
    console.log(`    per stage, median ms after the edit − warm: ${names.map((n) => `${n} ${median(runs.map((e) => (e.stages[n] ?? 0) - (e.warmStages[n] ?? 0))).toFixed(0)}`).join(', ')}`);
  }
  const mem = process.memoryUsage();
  console.log(`  memory after the requests           heap ${Math.round(mem.heapUsed / 1e6)} MB, rss ${Math.round(mem.rss / 1e6)} MB`);
  console.log('  per stage (warm): mean / p50 / p95 ms');
  for (const [name, l] of stages) {
    const sorted = [...l].sort((a, b) => a - b);
    const mean = l.reduce((a, b) => a + b, 0) / l.length;
    console.log(`    ${name.padEnd(13)} ${mean.toFixed(1).padStart(7)} ${pctOf(sorted, 0.5).toFixed(1).padStart(7)} ${pctOf(sorted, 0.95).toFixed(1).padStart(7)}`);
  }
  gcObserver.disconnect();
  /** Collection pauses that started within a request: full (mark-compact) and the rest, in ms. */
  const pausesIn = (from: number, ms: number) => {
    const within = collections.filter((e) => e.startTime >= from && e.startTime < from + ms);
    const full = within.filter((e) => (e as unknown as { detail?: { kind?: number } }).detail?.kind === perfConstants.NODE_PERFORMANCE_GC_MAJOR);
    const sum = (l: PerformanceEntry[]) => l.reduce((a, e) => a + e.duration, 0);
    return { full: sum(full), fullCount: full.length, other: sum(within) - sum(full) };
  };
  const inWarm = [...warmOf.values()].map((w) => pausesIn(w.from, w.ms));
  const warmTotal = [...warmOf.values()].reduce((a, w) => a + w.ms, 0);
  const cpuRatios = [...warmOf.values()].map((w) => w.cpuMs / w.ms).sort((a, b) => a - b);
  console.log(`  CPU time (all threads) ÷ wall time per warm request: median ${pctOf(cpuRatios, 0.5).toFixed(2)}`);
  console.log(`  collections during the warm requests: ${inWarm.reduce((a, p) => a + p.fullCount, 0)} full, ${inWarm.reduce((a, p) => a + p.full, 0).toFixed(0)} ms; others ${inWarm.reduce((a, p) => a + p.other, 0).toFixed(0)} ms; of ${warmTotal.toFixed(0)} ms of requests`);
  if (allocations) {
    const mb = (b: number) => (b / 1e6).toFixed(1);
    console.log(`  allocated during the warm requests (sampled): ${mb(allocations.total)} MB, ${mb(allocations.total / Math.max(1, times.length))} MB a request; most by ${allocations.top.slice(0, 8).map(([f, b]) => `${f} ${mb(b)}`).join(', ')}`);
  }
  // --slowest N: the N slowest warm requests with their stages and collection pauses (what the p95 is made of).
  const slowest = Number(arg('--slowest') ?? 0);
  for (const [i, w] of [...warmOf].sort((a, b) => b[1].ms - a[1].ms).slice(0, slowest)) {
    const t = chosen[i];
    const parts = Object.entries(w.stages).filter(([k, v]) => k !== 'total' && v >= 1).map(([k, v]) => `${k} ${Math.round(v)}`).join(', ');
    const gc = pausesIn(w.from, w.ms);
    console.log(`    slow: ${w.ms.toFixed(0)} ms at ${t.path.slice(root.length + 1)}:${t.line + 1} (${parts}; collections: full ${gc.full.toFixed(0)} ms, others ${gc.other.toFixed(0)} ms; CPU ${w.cpuMs.toFixed(0)} ms, page faults ${w.faults})`);
  }
  if (process.argv.includes('--no-startup')) return;
  // Time to a first answer, one start at a time (each Indexer dropped before the next; the
  // structures are held per index, so they go with it). The cache written by the cold index above.
  // --warm-only: leave out the cold prepared start (on the whole JDK, the longest of the three).
  console.log('  time to a first answer: ready / of it preparing / first request after ready / next requests (median) / start to first answer / its CPU time (all threads), ms');
  const print = (s: Startup) => {
    console.log(`    ${s.label.padEnd(40)} ${Math.round(s.readyMs).toString().padStart(7)} ${(s.prepareMs === undefined ? '-' : Math.round(s.prepareMs).toString()).padStart(7)} ${Math.round(s.firstMs).toString().padStart(7)} ${Math.round(s.nextMs).toString().padStart(7)} ${Math.round(s.readyMs + s.firstMs).toString().padStart(7)} ${Math.round(s.cpuMs).toString().padStart(7)}`);
    if (s.steps) console.log(`      prepared: ${s.steps.map((x) => `${x.name} ${Math.round(x.ms)} (cpu ${Math.round(x.cpuMs)})`).join(', ')}`);
    console.log(`      first request by stage: ${Object.entries(s.firstStages).filter(([k, v]) => k !== 'total' && v >= 1).map(([k, v]) => `${k} ${Math.round(v)}`).join(', ')}`);
  };
  print(await start('warm start, lazy structures', root, cacheDir, false, chosen));
  print(await start('warm start, prepared', root, cacheDir, true, chosen));
  // The prepared start above saved the structures retrieval/preparedCache.ts keeps; this one loads them.
  // The description index built as if it were not saved (what the start above did before it was), then loaded.
  const withoutDescriptions = await start('warm start, saved but the descriptions', root, cacheDir, true, chosen, [SAVED_DESCRIPTION_TABLE.name]);
  print(withoutDescriptions);
  const withSaved = await start('warm start, prepared, saved structures', root, cacheDir, true, chosen);
  print(withSaved);
  console.log(`    start to first answer, saved descriptions ÷ built: ${((withSaved.readyMs + withSaved.firstMs) / (withoutDescriptions.readyMs + withoutDescriptions.firstMs)).toFixed(2)}; description index step ${Math.round(withSaved.steps?.find((x) => x.name === 'description index')?.ms ?? NaN)} ÷ ${Math.round(withoutDescriptions.steps?.find((x) => x.name === 'description index')?.ms ?? NaN)} ms`);
  if (!process.argv.includes('--warm-only')) print(await start('cold start, prepared', root, tempDir('needle-latency-'), true, chosen));
})().catch((e) => { console.error(e); process.exit(1); });
