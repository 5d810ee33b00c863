// Interactive work first (server/src/scheduler.ts): user requests start before background work
// (code-lens resolves, diagnostics passes), a running background read gives way to them and is run
// again afterwards, background work for a superseded document version is dropped, and the latency
// of a user request under a steady background load stays near its idle latency.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_PREEMPTIONS, Scheduler, type Preempted } from '../../server/src/scheduler';
import { CancelledError } from '../../server/src/retrieval/pipeline';
import { sleep } from './lib';

/** Work of `stages` event-loop turns that stops (CancelledError) between stages once preempted, as the pipeline does. */
async function staged(stages: number, preempted: Preempted, log?: string[], name?: string): Promise<string> {
  for (let i = 0; i < stages; i++) {
    if (preempted()) { log?.push(`${name} preempted`); throw new CancelledError(); }
    await new Promise<void>((r) => setImmediate(r));
  }
  log?.push(`${name} done`);
  return name ?? '';
}

/**
 * A signal that work has begun. Waiting for it, rather than for a timer, keeps the "running when
 * the other request arrives" cases from racing: a 1 ms timer can fire after a short staged job has
 * already finished all its turns.
 */
function started(): { mark: () => void; promise: Promise<void> } {
  let mark!: () => void;
  const promise = new Promise<void>((r) => { mark = r; });
  return { mark, promise };
}

test('scheduler: waiting interactive reads start before waiting background reads, whatever their order', async () => {
  const s = new Scheduler({}, 1);
  const order: string[] = [];
  let release!: () => void;
  void s.update(() => new Promise<void>((r) => { release = r; }));
  const jobs = [
    s.read(() => { order.push('lens 1'); }, undefined, { background: true }),
    s.read(() => { order.push('diagnostics'); }, undefined, { background: true }),
    s.read(() => { order.push('retrieve'); }),
    s.read(() => { order.push('hover'); }),
  ];
  release();
  await Promise.all(jobs);
  assert.deepEqual(order, ['retrieve', 'hover', 'lens 1', 'diagnostics']);
});

test('scheduler: a running background read gives way to an interactive one and is run again after it', async () => {
  const s = new Scheduler();
  const log: string[] = [];
  const lensStarted = started();
  const lens = s.read((p) => { lensStarted.mark(); return staged(40, p, log, 'lens'); }, undefined, { background: true });
  await lensStarted.promise;
  const user = s.read((p) => staged(5, p, log, 'retrieve'));
  assert.equal(await user, 'retrieve');
  assert.equal(await lens, 'lens', 'the background read still answers');
  assert.deepEqual(log, ['lens preempted', 'retrieve done', 'lens done']);
});

test('scheduler: a background read gives way at most MAX_PREEMPTIONS times, then runs to its end', async () => {
  const s = new Scheduler();
  const log: string[] = [];
  const lens = s.read((p) => staged(20_000, p, log, 'lens'), undefined, { background: true });
  for (let i = 0; i < MAX_PREEMPTIONS + 2; i++) {
    await sleep(0);
    await s.read((p) => staged(2, p, log, `user ${i}`));
  }
  await lens;
  assert.equal(log.filter((l) => l === 'lens preempted').length, MAX_PREEMPTIONS);
});

test('scheduler: background work for a superseded document version is dropped, waiting or running', async () => {
  const s = new Scheduler({}, 1);
  let version = 1;
  const ran: string[] = [];
  let release!: () => void;
  const first = s.update(() => new Promise<void>((r) => { release = r; }));
  const v1 = 1;
  const waiting = s.read(() => { ran.push('lens v1'); }, undefined, { background: true, stale: () => version !== v1 });
  // An edit arrives: version 2; the lens for version 1 must never run.
  void s.update(() => { version = 2; });
  release();
  await first;
  await assert.rejects(waiting, CancelledError);
  assert.deepEqual(ran, []);

  // Running when the edit arrives: it gives way to the edit at its next stage, and once the edit is applied it is stale: dropped, not re-run.
  const log: string[] = [];
  const runningStarted = started();
  const running = s.read((p) => { runningStarted.mark(); return staged(50, p, log, 'diagnostics v2'); }, undefined, { background: true, stale: () => version !== 2 });
  await runningStarted.promise;
  await s.update(() => { version = 3; });
  await assert.rejects(running, CancelledError);
  assert.deepEqual(log, ['diagnostics v2 preempted']);
  // Already stale when asked: rejected at once.
  await assert.rejects(s.read(() => undefined, undefined, { background: true, stale: () => true }), CancelledError);
});

test('scheduler: under a steady background load, a user request waits for no background read', async () => {
  const s = new Scheduler();
  let stop = false;
  // Ten open files' lenses and diagnostics: background reads back to back, each 30 turns long.
  const background = Array.from({ length: 10 }, async () => {
    while (!stop) await s.read((p) => staged(30, p), undefined, { background: true }).catch(() => undefined);
  });
  const turnsOf = async (): Promise<number> => {
    // Measured in event-loop turns from asking to answer; the request itself is 5 turns.
    let turns = 0;
    let answered = false;
    const counter = (async () => { while (!answered) { await new Promise<void>((r) => setImmediate(r)); turns++; } })();
    await s.read((p) => staged(5, p));
    answered = true;
    await counter;
    return turns;
  };
  const loaded: number[] = [];
  for (let i = 0; i < 20; i++) { await sleep(1); loaded.push(await turnsOf()); }
  stop = true;
  await Promise.all(background);
  const idle = await turnsOf();
  loaded.sort((a, b) => a - b);
  const p95 = loaded[Math.floor(loaded.length * 0.95)];
  assert.ok(p95 <= 2 * idle + 2, `user request p95 ${p95} turns under background load vs ${idle} idle`);
});

test('scheduler: idle re-indexing waits for interactive reads and goes before background reads', async () => {
  const s = new Scheduler({}, 1);
  const order: string[] = [];
  let state = 'old';
  let release!: () => void;
  const first = s.read(() => new Promise<void>((r) => { release = r; })); // a read running: the rest queue
  const idle = s.updateIdle('disk A', () => { state = 'new'; order.push('re-index A'); });
  const lens = s.read(() => { order.push(`lens sees ${state}`); }, undefined, { background: true });
  const user = s.read(() => { order.push(`retrieve sees ${state}`); });
  release();
  await Promise.all([first, idle, lens, user]);
  assert.deepEqual(order, ['retrieve sees old', 're-index A', 'lens sees new']);
});

test('scheduler: an edit takes the idle re-indexing that arrived before it along, in arrival order', async () => {
  const s = new Scheduler({}, 1);
  const order: string[] = [];
  let release!: () => void;
  const first = s.read(() => new Promise<void>((r) => { release = r; }));
  const a = s.updateIdle('disk A', () => { order.push('re-index A'); });
  const edit = s.update(() => { order.push('didChange B'); });
  const b = s.updateIdle('disk A', () => { order.push('re-index A again'); }); // supersedes the first
  const user = s.read(() => { order.push('retrieve'); });
  release();
  await Promise.all([first, a, edit, b, user]);
  assert.deepEqual(order, ['didChange B', 'retrieve', 're-index A again']);
});
