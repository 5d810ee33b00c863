// `npm run bench:latency`: needle/retrieveContext latency on the JDK's java.base with a warm
// index (issue 4 target: p50 ≤ 50 ms, p95 ≤ 150 ms). The first request, which builds the lazy
// description/chunk caches, is reported on its own.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Session } from 'node:inspector/promises';
import { corpusSourceRoot } from './cli';
import { Indexer } from '../server/src/index/indexer';
import { defaultSettings, retrieveAt, uriOfPath } from '../server/src/service';


(async () => {
  const root = corpusSourceRoot('jdk-java.base');
  const count = Number(process.argv[2] ?? 100);
  // NEEDLE_PROFILE=out.cpuprofile: a CPU profile of the warm requests only (indexing and the
  // first request, which builds the lazy caches, would drown them in `node --cpu-prof`).
  const profileTo = process.env.NEEDLE_PROFILE;
  const session = profileTo ? new Session() : undefined;
  const ix = new Indexer({ cacheDir: mkdtempSync(join(tmpdir(), 'needle-latency-')) });
  await ix.addFolder(root);
  // Every k-th method with a body of 3+ lines; the cursor on the body's first line.
  const targets = ix.index.allFiles().sort((a, b) => (a.path < b.path ? -1 : 1)).flatMap((f) =>
    f.facts.symbols.filter((s) => s.kind === 'method' && s.span.el - s.span.sl >= 3).map((s) => ({ path: f.path, line: s.nameSpan.sl + 1 })));
  const step = Math.max(1, Math.floor(targets.length / count));
  const chosen = targets.filter((_, i) => i % step === 0).slice(0, count);
  const times: number[] = [];
  /** Per stage: its time in each warm request (the pipeline's timingsMs). */
  const stages = new Map<string, number[]>();
  let first = 0, tokens = 0;
  for (const [i, t] of chosen.entries()) {
    const s = performance.now();
    const r = await retrieveAt(ix, { textDocument: { uri: uriOfPath(t.path) }, position: { line: t.line, character: 0 } }, defaultSettings());
    const ms = performance.now() - s;
    tokens += r.tokens;
    if (i === 0) {
      first = ms;
      if (session) { session.connect(); await session.post('Profiler.enable'); await session.post('Profiler.start'); }
      continue;
    }
    times.push(ms);
    for (const [name, v] of Object.entries(r.timingsMs)) {
      if (name === 'total') continue;
      let l = stages.get(name);
      if (!l) stages.set(name, (l = []));
      l.push(v);
    }
  }
  if (session && profileTo) {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(profileTo, JSON.stringify(profile));
    session.disconnect();
  }
  // After an edit: each workspace-wide structure must follow the index file by file, or the first
  // request after every keystroke pays for the whole module again.
  const afterEdit: { update: number; request: number }[] = [];
  for (const t of chosen.slice(1, 11)) {
    const text = ix.textOf(t.path)!;
    const s0 = performance.now();
    await ix.setDocument(t.path, text + '\n// edited\n');
    const s1 = performance.now();
    await retrieveAt(ix, { textDocument: { uri: uriOfPath(t.path) }, position: { line: t.line, character: 0 } }, defaultSettings());
    afterEdit.push({ update: s1 - s0, request: performance.now() - s1 });
    await ix.closeDocument(t.path);
  }
  times.sort((a, b) => a - b);
  const pctOf = (xs: number[], q: number) => xs[Math.min(xs.length - 1, Math.floor(q * xs.length))];
  const pct = (q: number) => pctOf(times, q);
  console.log(`java.base: ${ix.index.stats().files} files; ${chosen.length} requests at methods across the module`);
  console.log(`  first request (builds lazy caches)  ${Math.round(first)} ms`);
  console.log(`  warm requests                       p50 ${pct(0.5).toFixed(1)} ms, p95 ${pct(0.95).toFixed(1)} ms, max ${times[times.length - 1].toFixed(1)} ms`);
  console.log(`  mean tokens per request             ${Math.round(tokens / chosen.length)}`);
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  console.log(`  after a one-file edit (${afterEdit.length} edits)   update median ${median(afterEdit.map((e) => e.update)).toFixed(1)} ms, next request median ${median(afterEdit.map((e) => e.request)).toFixed(1)} ms, max ${Math.max(...afterEdit.map((e) => e.request)).toFixed(1)} ms`);
  const mem = process.memoryUsage();
  console.log(`  memory after the requests           heap ${Math.round(mem.heapUsed / 1e6)} MB, rss ${Math.round(mem.rss / 1e6)} MB`);
  console.log('  per stage (warm): mean / p50 / p95 ms');
  for (const [name, l] of stages) {
    const sorted = [...l].sort((a, b) => a - b);
    const mean = l.reduce((a, b) => a + b, 0) / l.length;
    console.log(`    ${name.padEnd(13)} ${mean.toFixed(1).padStart(7)} ${pctOf(sorted, 0.5).toFixed(1).padStart(7)} ${pctOf(sorted, 0.95).toFixed(1).padStart(7)}`);
  }
})().catch((e) => { console.error(e); process.exit(1); });
