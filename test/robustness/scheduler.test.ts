// The scheduler that orders index updates and retrievals in the language server
// (server/src/scheduler.ts): updates in arrival order, reads never alongside an update, every
// read sees the updates that arrived before it, neither side starves, a waiting read is cancelled
// at once, superseded document updates are skipped. And the idle memory release it drives.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_READERS, Scheduler, type CancelSignal } from '../../server/src/scheduler';
import { compactingCollection, IdleMemory } from '../../server/src/lsp/idleMemory';
import { CancelledError } from '../../server/src/retrieval/pipeline';
import { int, prng, sleep } from './lib';

/** A shared state with a version, as the index has; work takes a few event-loop turns like the real thing. */
function world() {
  let version = 0;
  let updating = 0, reading = 0, maxReading = 0;
  const violations: string[] = [];
  const turn = () => new Promise<void>((r) => setImmediate(r));
  return {
    get version() { return version; },
    get maxReading() { return maxReading; },
    violations,
    async update(turns: number) {
      updating++;
      if (reading) violations.push('update while reading');
      for (let i = 0; i < turns; i++) await turn();
      version++;
      updating--;
    },
    async read(turns: number): Promise<number> {
      reading++;
      maxReading = Math.max(maxReading, reading);
      if (updating) violations.push('read while updating');
      const seen = version;
      for (let i = 0; i < turns; i++) {
        await turn();
        if (version !== seen) violations.push('version moved during a read');
      }
      reading--;
      return seen;
    },
  };
}

test('scheduler: random updates and reads never overlap; each read sees every update enqueued before it', async () => {
  const r = prng(11);
  const s = new Scheduler();
  const w = world();
  const reads: Promise<void>[] = [];
  let enqueued = 0;
  for (let i = 0; i < 400; i++) {
    if (r() < 0.4) {
      enqueued++;
      void s.update(() => w.update(int(r, 4)));
    } else {
      const before = enqueued;
      reads.push(s.read(() => w.read(1 + int(r, 6))).then((seen) => assert.ok(seen >= before, `read saw version ${seen}, ${before} updates were enqueued before it`)));
    }
    if (r() < 0.3) await sleep(0);
  }
  await Promise.all(reads);
  await s.settled();
  assert.equal(w.version, enqueued);
  assert.deepEqual(w.violations, []);
  assert.ok(w.maxReading <= MAX_READERS && w.maxReading > 1, `reads in parallel: ${w.maxReading}`);
});

test('scheduler: a writer that never stops does not starve reads, and reads that never stop do not starve updates', async () => {
  const s = new Scheduler();
  const w = world();
  let stop = false;
  // Updates back to back, each enqueued as the previous one is applied.
  const writer = (async () => { while (!stop) await s.update(() => w.update(2)); })();
  for (let i = 0; i < 20; i++) await s.read(() => w.read(3));
  stop = true;
  await writer;

  // Reads back to back from several clients; an update gets applied within a few reads.
  stop = false;
  const clients = Array.from({ length: 10 }, async () => { while (!stop) await s.read(() => w.read(3)); });
  await sleep(5);
  const before = w.version;
  for (let i = 0; i < 5; i++) await s.update(() => w.update(1));
  assert.equal(w.version, before + 5);
  stop = true;
  await Promise.all(clients);
  assert.deepEqual(w.violations, []);
});

function token(): CancelSignal & { cancel(): void } {
  const listeners: (() => void)[] = [];
  let cancelled = false;
  return {
    get isCancellationRequested() { return cancelled; },
    onCancellationRequested(l) { listeners.push(l); return { dispose: () => listeners.splice(listeners.indexOf(l), 1) }; },
    cancel() { cancelled = true; for (const l of [...listeners]) l(); },
  };
}

test('scheduler: a read cancelled while it waits is rejected at once and never runs', async () => {
  const s = new Scheduler();
  let release!: () => void;
  void s.update(() => new Promise<void>((r) => { release = r; }));
  const t = token();
  let ran = false;
  const waiting = s.read(() => { ran = true; }, t);
  // "At once" in event-loop turns, not milliseconds: the rejection must come before the next
  // turn of the loop (a wall-clock bound fails on a busy machine and passes a slow poll).
  let turnPassed = false;
  setImmediate(() => { turnPassed = true; });
  t.cancel();
  await assert.rejects(waiting, CancelledError);
  assert.equal(turnPassed, false, 'the cancelled read was rejected only after the event loop turned');
  release();
  await s.settled();
  await s.read(() => undefined);
  assert.equal(ran, false);
  const already = token();
  already.cancel();
  await assert.rejects(s.read(() => undefined, already), CancelledError);
});

test('scheduler: a document update superseded by a newer one waiting is skipped; other updates are not', async () => {
  const s = new Scheduler();
  const applied: string[] = [];
  let release!: () => void;
  void s.update(() => new Promise<void>((r) => { release = r; }));
  for (const text of ['a', 'ab', 'abc']) void s.updateLatest('document A', () => { applied.push(`A=${text}`); });
  void s.update(() => { applied.push('close B'); });
  void s.updateLatest('document B', () => { applied.push('B=x'); });
  void s.updateLatest('document A', () => { applied.push('A=abcd'); });
  release();
  await s.settled();
  assert.deepEqual(applied, ['close B', 'B=x', 'A=abcd']);
  // Nothing waiting: each is applied.
  await s.updateLatest('document A', () => { applied.push('A=e'); });
  await s.updateLatest('document A', () => { applied.push('A=f'); });
  assert.deepEqual(applied.slice(3), ['A=e', 'A=f']);
});

test('scheduler: a failed update is reported and the next ones still run', async () => {
  const errors: unknown[] = [];
  const s = new Scheduler({ onUpdateError: (e) => errors.push(e) });
  const failed = s.update(() => { throw new Error('boom'); });
  await assert.rejects(failed, /boom/);
  let after = false;
  await s.update(() => { after = true; });
  await s.settled();
  assert.equal(after, true);
  assert.equal(errors.length, 1);
});

test('idle memory: collects once the scheduler has been quiet, not while it is busy', async () => {
  let busy = false, collections = 0;
  const idle = new IdleMemory(() => busy, async () => { collections++; }, 20);
  // The heap has not grown since start: nothing to return.
  idle.quiet();
  await sleep(60);
  assert.equal(collections, 0);
  const grown: number[][] = [];
  for (let i = 0; i < 40; i++) grown.push(new Array(250_000).fill(i)); // ~80 MB live
  busy = true;
  idle.quiet();
  await sleep(60);
  assert.equal(collections, 0, 'busy: no collection');
  busy = false;
  idle.quiet();
  await sleep(60);
  assert.equal(collections, 1);
  assert.equal(grown.length, 40);
});

test('idle memory: the compacting collection returns a burst\'s heap', async () => {
  let garbage: { i: number; s: string }[] | undefined = [];
  for (let i = 0; i < 1_500_000; i++) garbage.push({ i, s: `x${i}` });
  const keep = garbage.filter((_, i) => i % 50 === 0); // survivors spread over the pages
  garbage = undefined;
  const before = process.memoryUsage().heapTotal;
  await compactingCollection();
  const after = process.memoryUsage().heapTotal;
  assert.ok(after < before / 2, `heap ${Math.round(before / 1048576)} MB -> ${Math.round(after / 1048576)} MB`);
  assert.equal(keep.length, 30_000);
});
