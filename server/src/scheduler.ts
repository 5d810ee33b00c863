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
//   the same thing is already waiting (updateLatest).
// When the last work is done the scheduler calls `onQuiet` (the idle memory release hooks in).
// A read cancelled while it waits leaves the queue at once and rejects with CancelledError.

import { CancelledError } from './retrieval/pipeline';

/** Reads running together at most. */
export const MAX_READERS = 2;

/** What a read needs of a cancellation token (vscode-languageserver's CancellationToken fits). */
export interface CancelSignal {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => void): { dispose(): void };
}

interface Job {
  run: () => unknown;
  /** Arrival order across updates and reads. */
  seq: number;
  /** Updates only: a job whose key a later waiting update shares is superseded by it and skipped. */
  key?: string;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export class Scheduler {
  private updates: Job[] = [];
  private reads: Job[] = [];
  private readers = 0;
  private updating = false;
  /** Settles after the last update enqueued so far. */
  private lastUpdate: Promise<unknown> = Promise.resolve();
  private arrivals = 0;
  /** Keyed updates waiting, per key. */
  private waitingKeys = new Map<string, number>();

  constructor(private readonly hooks: { onUpdateError?: (e: unknown) => void; onQuiet?: () => void } = {}, private readonly maxReaders = MAX_READERS) {}

  /** True while any read or update is running or waiting. */
  get busy(): boolean {
    return this.updating || this.readers > 0 || this.updates.length > 0 || this.reads.length > 0;
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

  private enqueueUpdate(work: () => unknown, key?: string): Promise<unknown> {
    const done = new Promise((resolve, reject) => this.updates.push({ run: work, seq: ++this.arrivals, key, resolve, reject }));
    this.lastUpdate = done.catch((e) => this.hooks.onUpdateError?.(e));
    this.pump();
    return done;
  }

  /** Resolves once every update enqueued so far has been applied (whether it succeeded or not). */
  settled(): Promise<unknown> {
    return this.lastUpdate;
  }

  /** Runs a read when its turn comes: after every update enqueued before it, never alongside an update. */
  read<T>(work: () => T | Promise<T>, cancel?: CancelSignal): Promise<T> {
    if (cancel?.isCancellationRequested) return Promise.reject(new CancelledError());
    return new Promise<T>((resolve, reject) => {
      const job: Job = { run: work, seq: ++this.arrivals, resolve: resolve as (v: unknown) => void, reject };
      const sub = cancel?.onCancellationRequested(() => {
        const i = this.reads.indexOf(job);
        if (i < 0) return; // already running: the work checks its token itself
        this.reads.splice(i, 1);
        reject(new CancelledError());
      });
      job.run = () => { sub?.dispose(); return work(); };
      this.reads.push(job);
      this.pump();
    });
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
  }

  /** Starts waiting reads, in order, up to MAX_READERS, as long as no update that arrived before them is still waiting. */
  private startReads(): void {
    const firstWaitingUpdate = this.updates[0]?.seq ?? Infinity;
    while (this.readers < this.maxReaders && this.reads.length && this.reads[0].seq < firstWaitingUpdate) {
      const job = this.reads.shift()!;
      this.readers++;
      void settle(job).finally(() => { this.readers--; this.pump(); });
    }
  }

  /** The updates waiting now, in order, as one batch; then reads get their turn. */
  private async runUpdates(): Promise<void> {
    this.updating = true;
    const batch = this.updates.splice(0);
    try {
      for (const job of batch) {
        const superseded = job.key !== undefined && this.waitingKeys.get(job.key)! > 1;
        if (job.key !== undefined) this.release(job.key);
        if (superseded) job.resolve(undefined);
        else await settle(job);
      }
    } finally {
      this.updating = false;
    }
    // Reads that arrived before the updates now waiting go next (they have seen every update
    // they must); the updates that arrived during this batch wait for them.
    this.startReads();
    this.pump();
  }

  private release(key: string): void {
    const n = this.waitingKeys.get(key)! - 1;
    if (n) this.waitingKeys.set(key, n);
    else this.waitingKeys.delete(key);
  }
}

async function settle(job: Job): Promise<void> {
  try {
    job.resolve(await job.run());
  } catch (e) {
    job.reject(e);
  }
}
