// Knows which of a pool's worker threads are still starting (importing their modules), so
// that closing a pool can wait for them: a thread terminated in the middle of loading a
// native addon (roaring) can abort the whole process. esm-worker-entry.mjs posts
// WORKER_STARTED_MESSAGE with its thread id once the worker module has loaded.

import type { Piscina } from 'piscina';

/** The key of the message a worker thread posts when its module has loaded. */
export const WORKER_STARTED_KEY = 'folioWorkerStarted';
/** Longest a closing pool waits for threads still starting (a thread stuck starting is terminated anyway). */
const MAX_START_WAIT_MS = 10_000;

export class WorkerStarts {
  private readonly starting = new Set<number>();
  private readonly started = new Set<number>();
  private waiters: (() => void)[] = [];

  constructor(pool: Piscina) {
    pool.on('workerCreate', (worker: { id: number }) => {
      if (!this.started.delete(worker.id)) this.starting.add(worker.id);
    });
    pool.on('workerDestroy', (worker: { id: number }) => {
      this.started.delete(worker.id);
      this.settle(worker.id);
    });
    pool.on('message', (message: unknown) => {
      const id = (message as Record<string, unknown> | null)?.[WORKER_STARTED_KEY];
      if (typeof id !== 'number') return;
      // The message may come before Piscina announces the thread.
      if (!this.starting.has(id)) this.started.add(id);
      this.settle(id);
    });
  }

  private settle(id: number): void {
    this.starting.delete(id);
    if (this.starting.size > 0) return;
    for (const wake of this.waiters) wake();
    this.waiters = [];
  }

  /** Resolves once no thread is starting, or after MAX_START_WAIT_MS. */
  async allStarted(): Promise<void> {
    // Piscina announces the threads it starts with in a microtask after construction.
    await new Promise((resolve) => setImmediate(resolve));
    if (this.starting.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      this.waiters.push(resolve);
      timer = setTimeout(resolve, MAX_START_WAIT_MS);
    });
    clearTimeout(timer);
  }
}
