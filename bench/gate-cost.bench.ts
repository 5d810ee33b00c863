// What the sufficiency gate costs per request, in process (no server, no protocol): rcl at budget
// 4,000 on the validation tasks of each corpus, as new and as half-written bodies (tasks.ts
// scenarioTask), each request asked twice and timed the second time, so the figures are warm
// requests and not first touches of a file. Per corpus and pooled: the median request, the
// median gate stage, the gate's time summed over the requests, and the gate's share of the
// median request as `bench:retrieval` reports it (score.ts gateShareOfMedian).
//
// The share is a difference of two medians taken on different requests and moves by several
// points from run to run of the same code; the summed gate time is the figure to compare two
// builds by, in alternating runs. --dump FILE writes every answer (items' text, confidence,
// review, coverage, the gate's features), one JSON line per request, so two builds' answers can
// be compared byte for byte (`cmp`).
//
//   node dist/bench/gate-cost.bench.js [--corpus NAME]... [--tasks 40] [--validation 40] [--dump FILE]

import { writeFileSync } from 'node:fs';
import { defaultSettings, retrieveAt } from '../server/src/service';
import { arg, args } from './cli';
import { gateShareOfMedian, median } from './retrieval/score';
import { forEachValidationTask } from './retrieval/validationTasks';

interface Timed { gateMs: number; serverMs: number }

const summary = (label: string, rs: Timed[]) =>
  `${label.padEnd(22)} ${String(rs.length).padStart(8)}  ${median(rs.map((r) => r.serverMs)).toFixed(1).padStart(10)}  ${median(rs.map((r) => r.gateMs)).toFixed(2).padStart(8)}  ${rs.reduce((s, r) => s + r.gateMs, 0).toFixed(0).padStart(9)}  ${gateShareOfMedian(rs).toFixed(3).padStart(10)}`;

(async () => {
  const names = args('--corpus').length ? args('--corpus') : ['jsoup', 'commons-lang3', 'ant'];
  const opts = { test: Number(arg('--tasks') ?? 40), validation: Number(arg('--validation') ?? 40) };
  const dump: string[] = [];
  const all: Timed[] = [];
  console.log(`${'corpus'.padEnd(22)} requests  median-ms  gate-ms  gate-sum  gate-share`);
  for (const name of names) {
    const timed: Timed[] = [];
    const count = await forEachValidationTask(process.cwd(), name, opts, async ({ task, indexer, uri }) => {
      const ask = () => retrieveAt(indexer, { textDocument: { uri }, position: task.cursor, budgetTokens: 4000, mode: 'rcl' }, defaultSettings());
      await ask();
      const r = await ask();
      timed.push({ gateMs: r.timingsMs.gate, serverMs: r.timingsMs.total });
      dump.push(JSON.stringify({ corpus: name, task: task.id, scenario: task.scenario, confidence: r.confidence, review: r.review, coverage: r.coverage, items: r.items.map((i) => i.text), gateFeatures: r.gateFeatures }));
    }, ['new', 'partial']);
    if (count === undefined) { console.log(`${name}: not present; skipped`); continue; }
    console.log(summary(name, timed));
    all.push(...timed);
  }
  console.log(summary('pooled', all));
  const file = arg('--dump');
  if (file) writeFileSync(file, dump.join('\n') + '\n');
  process.exit(0);
})();
