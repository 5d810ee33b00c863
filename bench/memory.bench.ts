// `node --expose-gc dist/bench/memory.bench.js [requests] [--corpus jdk-java.base|jdk-all] [--files 50]`:
// where the index and retrieval's workspace-wide structures spend heap. The index is built cold;
// then each structure of retrieval's prepare phase (retrieval/prepare.ts) is built on its own
// after a full GC, and the growth of the live heap is attributed to it (the JS heap plus the
// memory outside it that typed arrays and buffers hold: a structure that moves its numbers into
// typed arrays must not look smaller than it is); then `requests` warm
// retrievals spread over `--files` files (the memos). Reports the process's peak RSS and its RSS
// after the requests (issue 16: both ≤ 1.5 GB on the whole JDK, 1,000 retrievals across 50 files).
// By allocation site: add --heap-prof (the indexer stays alive until exit for it).
// --by-memo: after the requests, each BoundedMemo that remembered anything is emptied in turn and the
// live heap it held is printed, named by the function that first filled it (how session 16 found
// 78 MB of rendered text kept alive by the token counts' keys).

import { arg, corpusSourceRoot } from './cli';
import { Indexer } from '../server/src/index/indexer';
import { defaultSettings, retrieveAt, uriOfPath } from '../server/src/service';
import { PREPARE_STEPS } from '../server/src/retrieval/prepare';
import { getHeapSpaceStatistics } from 'node:v8';
import { readFileSync } from 'node:fs';
import { treeSitterModule } from '../server/src/java/parser';
import { compactingCollection } from '../server/src/lsp/idleMemory';
import { boundHeapGrowth } from '../server/src/platform/heapGrowth';
import { BoundedMemo } from '../server/src/text/boundedMemo';
import { tempDir } from '../test/helpers/tempDir'; // removed at exit: the index cache (the JDK's: 143 MB)

/** The indexer, alive until exit: `node --heap-prof` writes its profile at exit and sees only live objects. */
export let kept: Indexer | undefined;

const mb = (b: number) => b / 1e6;
const peakRss = () => process.resourceUsage().maxRSS / 1024; // KB -> MB (decimal enough for the figures)

/**
 * Where the resident memory is: V8's heap as committed (heapTotal; per space, the pages it grew
 * into) against what is used, the memory outside it (external: buffers, typed arrays, and the
 * tree-sitter wasm memory among them), and the kernel's split of RSS (anonymous: malloc and V8
 * pages; file: mapped code). What RSS holds beyond heapTotal + external is the allocator's.
 */
function residentBreakdown(label: string): void {
  const m = process.memoryUsage();
  const status = readFileSync('/proc/self/status', 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN) * 1024 / 1e6;
  const wasm = (treeSitterModule()?.HEAP8 as Int8Array | undefined)?.buffer.byteLength ?? 0;
  const spaces = getHeapSpaceStatistics().filter((s) => s.space_size > 1e6)
    .map((s) => `${s.space_name.replace('_space', '')} ${Math.round(mb(s.space_used_size))}/${Math.round(mb(s.space_size))}`).join(', ');
  console.log(`  ${label}: rss ${Math.round(mb(m.rss))} MB (anon ${Math.round(kb('RssAnon'))}, file ${Math.round(kb('RssFile'))}); heap used ${Math.round(mb(m.heapUsed))} of ${Math.round(mb(m.heapTotal))} MB committed; external ${Math.round(mb(m.external))} MB (array buffers ${Math.round(mb(m.arrayBuffers))}, tree-sitter wasm ${Math.round(mb(wasm))}); rss − heap committed − external ${Math.round(mb(m.rss - m.heapTotal - m.external))} MB`);
  console.log(`    V8 spaces used/committed MB: ${spaces}`);
}

/**
 * Every BoundedMemo that stores a value from now on, named by the function that first called
 * `set` (from the stack: the memo's user). Bench-only: it wraps the prototype's `set`.
 */
function recordMemos(): Map<BoundedMemo<unknown, unknown>, string> {
  const memos = new Map<BoundedMemo<unknown, unknown>, string>();
  const proto = BoundedMemo.prototype as unknown as { set(this: BoundedMemo<unknown, unknown>, k: unknown, v: unknown): void };
  const set = proto.set;
  proto.set = function (k, v) {
    if (!memos.has(this)) {
      const frames = (new Error().stack ?? '').split('\n').slice(2).map((l) => /at (?:\S+\.)?(\S+) \(/.exec(l)?.[1]).filter((f): f is string => !!f && f !== 'get' && f !== 'peek');
      memos.set(this, frames.slice(0, 2).join(' < ') || 'unknown');
    }
    set.call(this, k, v);
  };
  return memos;
}

(async () => {
  const memos = process.argv.includes('--by-memo') ? recordMemos() : undefined;
  // As the server and the CLI run (platform/heapGrowth.ts; NEEDLE_HEAP_GROWING_PERCENT=0: V8's own).
  const growth = boundHeapGrowth();
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc');
  const corpus = arg('--corpus') ?? 'jdk-java.base';
  const root = corpusSourceRoot(corpus, 'fail');
  const count = Number(/^\d+$/.test(process.argv[2] ?? '') ? process.argv[2] : 20);
  const fileCount = Number(arg('--files') ?? 50);
  // `external` counts ArrayBuffer backing stores (typed arrays), which `heapUsed` leaves out.
  const heap = () => { gc(); gc(); const m = process.memoryUsage(); return mb(m.heapUsed + m.external); };
  const base = heap();
  const ix = new Indexer({ cacheDir: tempDir('needle-memory-') });
  const t0 = performance.now();
  await ix.addFolder(root);
  const indexMs = performance.now() - t0;
  const indexPeak = peakRss();
  kept = ix;
  let last = heap();
  const rows: [string, number][] = [[`index (${Math.round(indexMs)} ms)`, last - base]];
  const input = { index: ix.index, textOf: (p: string) => ix.textOf(p) };
  for (const step of PREPARE_STEPS) {
    const t = performance.now();
    step.build(input);
    const ms = performance.now() - t;
    const now = heap();
    rows.push([`${step.name} (${Math.round(ms)} ms)`, now - last]);
    last = now;
  }
  const preparedPeak = peakRss();
  // Methods with a body of 3+ lines in `fileCount` files spread over the workspace; the requests
  // go round them, the cursor on the body's first line.
  const files = ix.index.allFiles().sort((a, b) => (a.path < b.path ? -1 : 1)).filter((f) => f.facts.symbols.some((s) => s.kind === 'method' && s.span.el - s.span.sl >= 3));
  const every = Math.max(1, Math.floor(files.length / fileCount));
  const chosenFiles = files.filter((_, i) => i % every === 0).slice(0, fileCount);
  const perFile = chosenFiles.map((f) => f.facts.symbols.filter((s) => s.kind === 'method' && s.span.el - s.span.sl >= 3).map((s) => ({ path: f.path, line: s.nameSpan.sl + 1 })));
  const chosen = Array.from({ length: count }, (_, i) => { const ms = perFile[i % perFile.length]; return ms[Math.floor(i / perFile.length) % ms.length]; });
  residentBreakdown('before the requests (after a full GC)');
  const t = performance.now();
  let rssMax = 0;
  for (const [i, x] of chosen.entries()) {
    await retrieveAt(ix, { textDocument: { uri: uriOfPath(x.path) }, position: { line: x.line, character: 0 } }, defaultSettings());
    rssMax = Math.max(rssMax, mb(process.memoryUsage().rss));
    if ((i + 1) % 100 === 0) console.error(`  ${i + 1} requests, ${Math.round(performance.now() - t)} ms, rss ${Math.round(mb(process.memoryUsage().rss))} MB`);
  }
  const reqMs = performance.now() - t;
  const rssAfter = mb(process.memoryUsage().rss);
  residentBreakdown(`right after the requests (largest RSS between them ${Math.round(rssMax)} MB)`);
  const now = heap();
  residentBreakdown('after a full GC');
  // What the language server does once it has been quiet for 2 s (lsp/idleMemory.ts).
  await compactingCollection();
  residentBreakdown('after the idle compacting collection');
  rows.push([`${chosen.length} requests across ${chosenFiles.length} files (memos, caches; ${Math.round(reqMs)} ms)`, now - last]);
  last = now;
  console.log(`heap growing percent: ${Number.isNaN(growth) ? 'from the command line' : growth || "V8's own"}`);
  console.log(`${corpus}: ${ix.index.stats().files} files. Live heap growth per structure (MB, JS heap + external, after a full GC):`);
  for (const [name, v] of rows) console.log(`  ${name.padEnd(64)} ${v.toFixed(1).padStart(8)}`);
  const m = process.memoryUsage();
  if (memos) {
    console.log('  by memo (emptied in turn after the requests; live heap it held, MB):');
    let before = heap();
    const rowsByMemo: [string, number][] = [];
    for (const [memo, name] of memos) {
      memo.clear();
      const after = heap();
      rowsByMemo.push([name, before - after]);
      before = after;
    }
    for (const [name, v] of rowsByMemo.sort((a, b) => b[1] - a[1])) console.log(`    ${name.padEnd(60)} ${v.toFixed(1).padStart(8)}`);
  }
  console.log(`  total live heap ${Math.round(last)} MB (JS heap ${Math.round(mb(m.heapUsed))} MB, external ${Math.round(mb(m.external))} MB)`);
  console.log(`  peak RSS: after indexing ${Math.round(indexPeak)} MB, after the structures ${Math.round(preparedPeak)} MB, after the requests ${Math.round(peakRss())} MB; RSS after the requests ${Math.round(rssAfter)} MB`);
})().catch((e) => { console.error(e); process.exit(1); });
