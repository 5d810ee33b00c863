// Who may touch the index when. Updates (edits, saves, watcher events, folders) are applied one
// at a time in arrival order. Reads (retrievals) run between updates, never during one: a read
// sees a single index state from its first stage to its last, so it is never abandoned and redone
// because an edit landed meanwhile, and never answered for a mix of two states.
//
// Policy, chosen so that neither side starves:
// - updates go first: every update that has arrived runs before the next read starts, so a read
//   sees each edit made before it began;
// - reads run at most MAX_READERS at a time (more in flight only multiplies live memory; two
//   overlap one read's ripgrep child process with another's CPU work) and in arrival order;
// - once updates are waiting, no further read starts; the reads already running finish first
//   (an update waits at most for them), then the waiting updates run as one batch, then the
//   reads that arrived before any update still waiting, even if more updates arrived meanwhile;
// - an update that only brings one document or file up to date is skipped when a newer one for
//   the same thing is already waiting (updateLatest);
// - interactive reads (what a user asked for: retrieve, hover, check) go before background reads
//   (code-lens resolves, diagnostics passes). A background read starts only when no update and no
//   interactive read is waiting, at most MAX_BACKGROUND_READERS at a time, so a slot is always free
//   for the user; one running when an interactive read or an update arrives is preempted (its work sees
//   `preempted()` and stops at the next stage) and queued again, at most MAX_PREEMPTIONS times;
// - background work for something that changed since it was asked for (`stale`: a superseded
//   document version) is dropped with CancelledError, waiting or running, as rust-analyzer does;
// - idle re-indexing (`updateIdle`: a file changed on disk by something other than the editor) is
//   background work too: interactive reads waiting or arriving go before it (they see the index
//   without that change, as if it had come a moment later), background reads after it. Updates
//   still apply in arrival order: an interactive update takes every idle one waiting before it
//   along, first, in its batch.
// When the last work is done the scheduler calls `onQuiet` (the idle memory release hooks in).
// A read cancelled while it waits leaves the queue at once and rejects with CancelledError.

import { CancelledError } from './retrieval/pipeline';

/** Reads running together at most. */
export const MAX_READERS = 2;
/** Background reads running together at most (fewer than MAX_READERS: a slot stays free for the user). */
export const MAX_BACKGROUND_READERS = 1;
/** Times a background read gives way to interactive ones before it runs to its end regardless. */
export const MAX_PREEMPTIONS = 2;

export interface ReadOptions {
  /** Background work: after interactive reads, preemptible. */
  background?: boolean;
  /** True once the work is for something superseded (background only): it is dropped. */
  stale?: () => boolean;
}

/** Passed to a read's work: true once a background read should stop so an interactive one can run. */
export type Preempted = () => boolean;

/** What a read needs of a cancellation token (vscode-languageserver's CancellationToken fits). */
export interface CancelSignal {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => void): { dispose(): void };
}

interface Job {
  run: (preempted: Preempted) => unknown;
  /** Arrival order across updates and reads. */
  seq: number;
  /** Updates only: a job whose key a later waiting update shares is superseded by it and skipped. */
  key?: string;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  background?: { stale?: () => boolean; preempted: boolean; preemptions: number };
}

export class Scheduler {
  private updates: Job[] = [];
  /** Idle re-indexing waiting (updateIdle), in arrival order. */
  private idleUpdates: Job[] = [];
  private reads: Job[] = [];
  private backgroundReads: Job[] = [];
  private readers = 0;
  private running = new Set<Job>();
  private updating = false;
  /** Settles after the last update enqueued so far. */
  private lastUpdate: Promise<unknown> = Promise.resolve();
  private arrivals = 0;
  /** Keyed updates waiting, per key. */
  private waitingKeys = new Map<string, number>();

  constructor(private readonly hooks: { onUpdateError?: (e: unknown) => void; onQuiet?: () => void } = {}, private readonly maxReaders = MAX_READERS) {}

  /** True while any read or update is running or waiting. */
  get busy(): boolean {
    return this.updating || this.readers > 0 || this.updates.length > 0 || this.idleUpdates.length > 0 || this.reads.length > 0 || this.backgroundReads.length > 0;
  }

  /** Applies an index update after every update enqueued before it (and after the reads running now). */
  update<T>(work: () => T | Promise<T>): Promise<T> {
    return this.enqueueUpdate(work) as Promise<T>;
  }

  /**
   * An update that only brings one thing up to date (a document's text, a file from disk): when
   * a later update with the same key is waiting by its turn, it is skipped, since that one
   * supersedes it. A burst of keystrokes queued behind a long update costs one update, not one each.
   */
  updateLatest(key: string, work: () => unknown): Promise<void> {
    this.waitingKeys.set(key, (this.waitingKeys.get(key) ?? 0) + 1);
    return this.enqueueUpdate(work, key) as Promise<void>;
  }

  /**
   * Idle re-indexing of one thing (a file changed on disk), keyed like updateLatest: it waits for
   * the interactive reads (waiting, or arriving while it waits) and goes before background reads.
   */
  updateIdle(key: string, work: () => unknown): Promise<void> {
    this.waitingKeys.set(key, (this.waitingKeys.get(key) ?? 0) + 1);
    return this.enqueueUpdate(work, key, true) as Promise<void>;
  }

  private enqueueUpdate(work: () => unknown, key?: string, idle = false): Promise<unknown> {
    const done = new Promise((resolve, reject) => (idle ? this.idleUpdates : this.updates).push({ run: work, seq: ++this.arrivals, key, resolve, reject }));
    this.lastUpdate = done.catch((e) => this.hooks.onUpdateError?.(e));
    // An edit goes before background work: a background read running now gives way to it.
    this.preemptBackground();
    this.pump();
    return done;
  }

  /** Resolves once every update enqueued so far has been applied (whether it succeeded or not). */
  settled(): Promise<unknown> {
    return this.lastUpdate;
  }

  /**
   * Runs a read when its turn comes: after every update enqueued before it, never alongside an
   * update. Background reads (`options.background`) wait for interactive ones; their work should
   * stop (throw CancelledError) once `preempted()` is true, and is then run again later.
   */
  read<T>(work: (preempted: Preempted) => T | Promise<T>, cancel?: CancelSignal, options: ReadOptions = {}): Promise<T> {
    if (cancel?.isCancellationRequested || options.stale?.()) return Promise.reject(new CancelledError());
    return new Promise<T>((resolve, reject) => {
      const job: Job = { run: work, seq: ++this.arrivals, resolve: resolve as (v: unknown) => void, reject };
      if (options.background) job.background = { stale: options.stale, preempted: false, preemptions: 0 };
      const queue = options.background ? this.backgroundReads : this.reads;
      const sub = cancel?.onCancellationRequested(() => {
        const i = queue.indexOf(job);
        if (i < 0) return; // already running: the work checks its token itself
        queue.splice(i, 1);
        reject(new CancelledError());
      });
      job.resolve = (v) => { sub?.dispose(); resolve(v as T); };
      job.reject = (e) => { sub?.dispose(); reject(e); };
      queue.push(job);
      if (!options.background) this.preemptBackground();
      this.pump();
    });
  }

  /** Asks running background reads to give way (an interactive read or an update is waiting). */
  private preemptBackground(): void {
    for (const job of this.running) {
      if (job.background && job.background.preemptions < MAX_PREEMPTIONS) job.background.preempted = true;
    }
  }

  /** Starts whatever may start now. Called on every enqueue and every completion. */
  private pump(): void {
    if (this.updating) return;
    if (!this.busy) { this.hooks.onQuiet?.(); return; }
    if (this.updates.length) {
      if (this.readers === 0) void this.runUpdates();
      return;
    }
    this.startReads();
    // Idle re-indexing once no interactive read waits or runs (background reads it has preempted give way).
    if (this.idleUpdates.length && !this.reads.length && this.readers === 0) void this.runUpdates();
  }

  /**
   * Starts waiting reads, in order, up to MAX_READERS, as long as no update that arrived before
   * them is still waiting; then background reads, when nothing else waits.
   */
  private startReads(): void {
    const firstWaitingUpdate = this.updates[0]?.seq ?? Infinity;
    while (this.readers < this.maxReaders && this.reads.length && this.reads[0].seq < firstWaitingUpdate) this.start(this.reads.shift()!);
    for (;;) {
      if (this.updates.length || this.idleUpdates.length || this.reads.length || !this.backgroundReads.length) return;
      let background = 0;
      for (const j of this.running) if (j.background) background++;
      // With a single reader slot, background work may take it (and is preempted when the user asks).
      const backgroundSlots = Math.max(1, Math.min(MAX_BACKGROUND_READERS, this.maxReaders - 1));
      if (this.readers >= this.maxReaders || background >= backgroundSlots) return;
      const job = this.backgroundReads.shift()!;
      if (job.background!.stale?.()) { job.reject(new CancelledError()); continue; }
      this.start(job);
    }
  }

  private start(job: Job): void {
    this.readers++;
    this.running.add(job);
    const b = job.background;
    void (async () => {
      try {
        const value = await job.run(() => !!b && (b.preempted || !!b.stale?.()));
        job.resolve(value);
      } catch (e) {
        if (b && b.preempted && !b.stale?.() && e instanceof CancelledError) {
          // Gave way to an interactive read: first in line among background reads once it is done.
          b.preempted = false;
          b.preemptions++;
          this.backgroundReads.unshift(job);
        } else job.reject(e);
      } finally {
        this.running.delete(job);
        this.readers--;
        this.pump();
      }
    })();
  }

  /**
   * The updates waiting now, in order, as one batch (idle re-indexing that arrived before them
   * with them; only idle re-indexing when no other update waits); then reads get their turn.
   */
  private async runUpdates(): Promise<void> {
    this.updating = true;
    const updates = this.updates.splice(0);
    const upTo = updates.length ? updates[updates.length - 1].seq : Infinity;
    const idle = this.idleUpdates.filter((j) => j.seq < upTo);
    this.idleUpdates = this.idleUpdates.filter((j) => j.seq >= upTo);
    const batch = [...idle, ...updates].sort((a, b) => a.seq - b.seq);
    try {
      for (const job of batch) {
        const superseded = job.key !== undefined && this.waitingKeys.get(job.key)! > 1;
        if (job.key !== undefined) this.release(job.key);
        if (superseded) job.resolve(undefined);
        else await settle(job);
        // An update makes background work for what it changed stale: drop it while it waits.
        this.dropStale();
      }
    } finally {
      this.updating = false;
    }
    // Reads that arrived before the updates now waiting go next (they have seen every update
    // they must); the updates that arrived during this batch wait for them.
    this.startReads();
    this.pump();
  }

  private dropStale(): void {
    for (let i = this.backgroundReads.length - 1; i >= 0; i--) {
      const job = this.backgroundReads[i];
      if (!job.background!.stale?.()) continue;
      this.backgroundReads.splice(i, 1);
      job.reject(new CancelledError());
    }
  }

  private release(key: string): void {
    const n = this.waitingKeys.get(key)! - 1;
    if (n) this.waitingKeys.set(key, n);
    else this.waitingKeys.delete(key);
  }
}

async function settle(job: Job): Promise<void> {
  try {
    job.resolve(await job.run(() => false));
  } catch (e) {
    job.reject(e);
  }
}
