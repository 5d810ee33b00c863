// `node --expose-gc dist/bench/memory.bench.js [requests]`: where the retrieval's workspace-wide
// structures spend heap on the JDK's java.base. Each structure is built on its own after a full
// GC, and the growth of the live heap is attributed to it; then warm requests (the memos).
// By allocation site: add --heap-prof (the indexer stays alive until exit for it).

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { corpusSourceRoot } from './cli';
import { Indexer } from '../server/src/index/indexer';
import { defaultSettings, retrieveAt, uriOfPath } from '../server/src/service';
import { chunkCorpus } from '../server/src/retrieval/recall/similar';
import { filesWithWord } from '../server/src/retrieval/recall/wordFiles';
import { descriptionIndex } from '../server/src/retrieval/recall/descriptions';
import { declarationsByName, typesBySimpleName, usageCounts } from '../server/src/retrieval/symbols';
import { globalPopular } from '../server/src/retrieval/recall/graph';
import type { PipelineRequest } from '../server/src/retrieval/request';

/** The indexer, alive until exit: `node --heap-prof` writes its profile at exit and sees only live objects. */
export let kept: Indexer | undefined;

(async () => {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc');
  const root = corpusSourceRoot('jdk-java.base', 'fail');
  const count = Number(process.argv[2] ?? 20);
  const heap = () => { gc(); gc(); return process.memoryUsage().heapUsed / 1e6; };
  const base = heap();
  const ix = new Indexer({ cacheDir: mkdtempSync(join(tmpdir(), 'needle-memory-')) });
  await ix.addFolder(root);
  kept = ix;
  let last = heap();
  const rows: [string, number][] = [['index (and file texts)', last - base]];
  const step = (name: string, build: () => unknown) => {
    const t = performance.now();
    build();
    const ms = performance.now() - t;
    const now = heap();
    rows.push([`${name} (${Math.round(ms)} ms)`, now - last]);
    last = now;
  };
  const req = { index: ix.index, textOf: (p: string) => ix.textOf(p) } as PipelineRequest;
  step('similar-code corpus', () => chunkCorpus(ix.index, req.textOf));
  step('word -> files', () => filesWithWord(req));
  step('description index', () => descriptionIndex(ix.index));
  step('names, types, usage tables', () => { declarationsByName(ix.index); typesBySimpleName(ix.index); usageCounts(ix.index); });
  step('global popular', () => globalPopular(ix.index));
  const targets = ix.index.allFiles().sort((a, b) => (a.path < b.path ? -1 : 1)).flatMap((f) =>
    f.facts.symbols.filter((s) => s.kind === 'method' && s.span.el - s.span.sl >= 3).map((s) => ({ path: f.path, line: s.nameSpan.sl + 1 })));
  const every = Math.max(1, Math.floor(targets.length / count));
  const chosen = targets.filter((_, i) => i % every === 0).slice(0, count);
  const requests = async () => {
    for (const t of chosen) await retrieveAt(ix, { textDocument: { uri: uriOfPath(t.path) }, position: { line: t.line, character: 0 } }, defaultSettings());
  };
  let done: Promise<void> = Promise.resolve();
  step(`${chosen.length} requests (memos, caches)`, () => { done = requests(); });
  await done;
  const now = heap();
  rows[rows.length - 1][1] += now - last;
  last = now;
  console.log('live heap growth per structure (MB, after a full GC):');
  for (const [name, mb] of rows) console.log(`  ${name.padEnd(40)} ${mb.toFixed(1).padStart(8)}`);
  const mem = process.memoryUsage();
  console.log(`  total live heap ${Math.round(last)} MB; rss ${Math.round(mem.rss / 1e6)} MB`);
})().catch((e) => { console.error(e); process.exit(1); });
