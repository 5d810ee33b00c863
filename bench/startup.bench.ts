// Time to a first answer from an index cache kept between runs (issue 16 §1): one start of the
// language server's indexer on `--cache-dir` (created and filled by a cold index when it does not
// exist yet; later runs are warm starts), retrieval's prepare phase with the structures saved
// beside the cache, then one retrieval. Prints the wall and CPU time (all threads) of the start
// and of each prepare step: on a loaded machine compare CPU, and compare old and new code by
// running both at once against caches of the same state. latency.bench.js measures the same
// starts, but after a cold index and warm requests of its own in every run.
//   node dist/bench/startup.bench.js --cache-dir DIR [--corpus jdk-all] [--ignore 'saved description index,...']
//     [--profile out.cpuprofile]   (a CPU profile of the whole start and the first request)
//     [--then N]   (N more answers after the first, one per file spread over the workspace: the
//                  first answer against the usual latency, "ready" as issue 16 defines it)

import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { arg, corpusSourceRoot } from './cli';
import { Indexer } from '../server/src/index/indexer';
import { defaultSettings, prepareIndexer, retrieveAt, uriOfPath } from '../server/src/service';
import type { PreparedStep } from '../server/src/retrieval/prepare';
import { boundHeapGrowth } from '../server/src/platform/heapGrowth';

const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

/** `n` cursors on the first method of 3+ lines of files spread evenly over the workspace in path order. */
function spreadCursors(ix: Indexer, n: number) {
  const files = ix.index.allFiles().sort((a, b) => (a.path < b.path ? -1 : 1));
  const out = [];
  for (let i = 0; i < n; i++) {
    // From an even spot on, the first file with such a method.
    for (let k = Math.floor(((i + 0.5) * files.length) / n); k < files.length; k++) {
      const method = files[k].facts.symbols.find((s) => s.kind === 'method' && s.span.el - s.span.sl >= 3);
      if (!method) continue;
      out.push({ textDocument: { uri: uriOfPath(files[k].path) }, position: { line: method.nameSpan.sl + 1, character: 0 } });
      break;
    }
  }
  return out;
}

(async () => {
  boundHeapGrowth(); // as the server runs
  const corpus = arg('--corpus') ?? 'jdk-all';
  const root = corpusSourceRoot(corpus);
  const cacheDir = arg('--cache-dir');
  if (!cacheDir) throw new Error('--cache-dir DIR is required (kept between runs)');
  const cold = !existsSync(cacheDir);
  mkdirSync(cacheDir, { recursive: true });
  const profileTo = arg('--profile');
  const session = profileTo ? new Session() : undefined;
  if (session) { session.connect(); await session.post('Profiler.enable'); await session.post('Profiler.start'); }
  let steps: PreparedStep[] = [];
  const logs: string[] = [];
  const cpu0 = process.cpuUsage();
  const ix = new Indexer({ cacheDir, log: (m) => logs.push(m), prepare: prepareIndexer({ done: (s) => { steps = s; }, ignoreSaved: arg('--ignore')?.split(',') }) });
  const t0 = performance.now();
  await ix.addFolder(root);
  const readyMs = performance.now() - t0;
  const readyCpu = process.cpuUsage(cpu0);
  // The first method of 3+ lines in path order: the same cursor in every run.
  const file = ix.index.allFiles().sort((a, b) => (a.path < b.path ? -1 : 1)).find((f) => f.facts.symbols.some((s) => s.kind === 'method' && s.span.el - s.span.sl >= 3))!;
  const method = file.facts.symbols.find((s) => s.kind === 'method' && s.span.el - s.span.sl >= 3)!;
  const t1 = performance.now();
  const first = await retrieveAt(ix, { textDocument: { uri: uriOfPath(file.path) }, position: { line: method.nameSpan.sl + 1, character: 0 } }, defaultSettings());
  const firstMs = performance.now() - t1;
  const cpu = process.cpuUsage(cpu0);
  const then = Number(arg('--then') ?? 0);
  const laterMs: number[] = [];
  const laterStages = new Map<string, number[]>();
  for (const later of spreadCursors(ix, then)) {
    const t = performance.now();
    const r = await retrieveAt(ix, later, defaultSettings());
    laterMs.push(performance.now() - t);
    for (const [k, v] of Object.entries(r.timingsMs)) if (k !== 'total') laterStages.set(k, [...(laterStages.get(k) ?? []), v]);
  }
  if (session && profileTo) { const { profile } = await session.post('Profiler.stop'); writeFileSync(profileTo, JSON.stringify(profile)); }
  const ms = (us: { user: number; system: number }) => Math.round((us.user + us.system) / 1000);
  const prepareCpu = steps.reduce((a, s) => a + s.cpuMs, 0);
  console.log(`${corpus}, ${cold ? 'cold (the cache was empty)' : 'warm'} start: ${ix.index.stats().files} files`);
  console.log(`  ready ${Math.round(readyMs)} ms wall, ${ms(readyCpu)} ms CPU; of it preparing ${Math.round(ix.prepareMs ?? 0)} ms wall, ${Math.round(prepareCpu)} ms CPU`);
  console.log(`  first answer ${Math.round(firstMs)} ms wall; start to first answer ${Math.round(readyMs + firstMs)} ms wall, ${ms(cpu)} ms CPU; RSS ${Math.round(process.memoryUsage().rss / 1e6)} MB`);
  console.log(`  first answer by stage, ms: ${Object.entries(first.timingsMs).filter(([k, v]) => k !== 'total' && v >= 1).map(([k, v]) => `${k} ${Math.round(v)}`).join(', ')}`);
  console.log(`  index (ready less preparing): ${Math.round(readyMs - (ix.prepareMs ?? 0))} ms wall, ${Math.round(ms(readyCpu) - prepareCpu)} ms CPU`);
  console.log('  prepare steps, ms wall / CPU: ' + steps.map((x) => `${x.name} ${Math.round(x.ms)} / ${Math.round(x.cpuMs)}`).join(', '));
  if (laterMs.length) {
    console.log(`  the ${laterMs.length} answers after it: median ${Math.round(median(laterMs))} ms wall (first ÷ median ${(firstMs / median(laterMs)).toFixed(1)}); median by stage, ms: ${[...laterStages].filter(([, v]) => median(v) >= 1).map(([k, v]) => `${k} ${Math.round(median(v))}`).join(', ')}`);
  }
  for (const l of logs) console.log('  log: ' + l.slice(0, 300));
  process.exit(0); // the indexer's watchers would keep the process alive
})().catch((e) => { console.error(e); process.exit(1); });
