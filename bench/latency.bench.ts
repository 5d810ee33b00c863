// `npm run bench:latency`: needle/retrieveContext latency on the JDK's java.base with a warm
// index (issue 4 target: p50 ≤ 50 ms, p95 ≤ 150 ms). The first request, which builds the lazy
// description/chunk caches, is reported on its own.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Indexer } from '../server/src/index/indexer';
import { defaultSettings, retrieveAt, uriOfPath } from '../server/src/service';

const ROOT = process.cwd();

(async () => {
  const meta = join(ROOT, '.cache/corpora/jdk-java.base/needle-corpus.json');
  if (!existsSync(meta)) execFileSync(process.execPath, [join(ROOT, 'bench/corpora/fetch.mjs'), 'jdk'], { stdio: 'inherit' });
  const root = join(ROOT, '.cache/corpora/jdk-java.base', JSON.parse(readFileSync(meta, 'utf8')).mainSourceRoot);
  const count = Number(process.argv[2] ?? 100);
  const ix = new Indexer({ cacheDir: mkdtempSync(join(tmpdir(), 'needle-latency-')) });
  await ix.addFolder(root);
  // Every k-th method with a body of 3+ lines; the cursor on the body's first line.
  const targets = ix.index.allFiles().sort((a, b) => (a.path < b.path ? -1 : 1)).flatMap((f) =>
    f.facts.symbols.filter((s) => s.kind === 'method' && s.span.el - s.span.sl >= 3).map((s) => ({ path: f.path, line: s.nameSpan.sl + 1 })));
  const step = Math.max(1, Math.floor(targets.length / count));
  const chosen = targets.filter((_, i) => i % step === 0).slice(0, count);
  const times: number[] = [];
  let first = 0, tokens = 0;
  for (const [i, t] of chosen.entries()) {
    const s = performance.now();
    const r = await retrieveAt(ix, { textDocument: { uri: uriOfPath(t.path) }, position: { line: t.line, character: 0 } }, defaultSettings());
    const ms = performance.now() - s;
    tokens += r.tokens;
    if (i === 0) first = ms; else times.push(ms);
  }
  times.sort((a, b) => a - b);
  const pct = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  console.log(`java.base: ${ix.index.stats().files} files; ${chosen.length} requests at methods across the module`);
  console.log(`  first request (builds lazy caches)  ${Math.round(first)} ms`);
  console.log(`  warm requests                       p50 ${pct(0.5).toFixed(1)} ms, p95 ${pct(0.95).toFixed(1)} ms, max ${times[times.length - 1].toFixed(1)} ms`);
  console.log(`  mean tokens per request             ${Math.round(tokens / chosen.length)}`);
})().catch((e) => { console.error(e); process.exit(1); });
