// npm run bench:load — 50 concurrent needle/retrieveContext requests against the real server
// while a writer edits files continuously (didChange and disk writes) for a minute; prints
// idle and loaded latency, errors, edits and the server's memory before/peak/after.
//   node dist/bench/load.bench.js [--seconds 60] [--concurrency 50] [--writer-ms 50] [--json]

import { availableParallelism } from 'node:os';
import { runLoad } from '../test/robustness/load';

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
}

async function main(): Promise<void> {
  const seconds = arg('seconds', 60), concurrency = arg('concurrency', 50), writerIntervalMs = arg('writer-ms', 50);
  const cores = availableParallelism();
  console.log(`bench:load: ${concurrency} concurrent retrievals for ${seconds} s on examples/acme-shop, a writer editing every ${writerIntervalMs} ms`);
  const r = await runLoad({ seconds, concurrency, idleRequests: 30, writerIntervalMs, log: (m) => console.log(`  ${m}`) });
  if (process.argv.includes('--json')) console.log(JSON.stringify(r, null, 2));
  const memBack = r.rss ? r.rss.afterMb <= r.rss.baselineMb * 1.25 : undefined;
  console.log([
    `requests answered   ${r.requests} (${r.throughput}/s), errors ${r.errors.length}, edits ${r.edits}`,
    `idle latency        p50 ${r.idle.p50} ms, p95 ${r.idle.p95} ms`,
    `loaded latency      p50 ${r.load.p50} ms, p95 ${r.load.p95} ms, max ${r.load.max} ms`,
    `p95 loaded / idle   ${r.ratioP95}x (target <= 3x: ${r.ratioP95 <= 3 ? 'met' : 'NOT met'})`,
    `mean latency        idle ${r.idle.mean} ms, loaded ${r.load.mean} ms (closed loop: concurrency / throughput = ${Math.round((concurrency / r.throughput) * 1000)} ms)`,
    ...(r.cpu ? [
      `server CPU/request  idle ${r.cpu.idleMsPerRequest} ms, loaded ${r.cpu.loadMsPerRequest} ms incl. applying edits (+ ${r.cpu.childMsPerRequest} ms in ripgrep); ${r.cpu.loadCores} cores busy during the load`,
      // Closed loop: loaded mean latency = concurrency x CPU per request / cores used; the target
      // (loaded p95 <= 3 x idle p95) therefore needs CPU per request below this:
      `3x target needs     CPU/request <= 3 x idle p95 x cores / concurrency = ${Math.round((3 * r.idle.p95) / concurrency)} ms on 1 core, ${Math.round((3 * r.idle.p95 * cores) / concurrency)} ms on ${cores}`,
    ] : []),
    r.rss ? `server rss          baseline ${r.rss.baselineMb} MB, peak ${r.rss.peakMb} MB, after ${r.rss.afterMb} MB (back to baseline +25%: ${memBack ? 'yes' : 'NO'})` : 'server rss          (not measurable on this platform)',
    `server alive        ${r.serverAlive}, uncaught errors in its log: ${r.stderrProblems}`,
  ].join('\n'));
  for (const e of r.errors.slice(0, 10)) console.log(`  error: ${e}`);
  process.exitCode = r.errors.length || !r.serverAlive ? 1 : 0;
}

main().catch((e) => { console.error(e); process.exit(1); });
