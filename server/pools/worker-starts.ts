// Knows which of a pool's worker threads are still starting (importing their modules), so
// that closing a pool can wait for them: a thread terminated in the middle of loading a
// native addon (roaring) can abort the whole process. esm-worker-entry.mjs posts
// WORKER_STARTED_MESSAGE with its thread id once the worker module has loaded; a thread of the
// pool that has not posted it is still starting (whether it started with the pool or later).

import type { Piscina } from 'piscina';

/** The key of the message a worker thread posts when its module has loaded. */
export const WORKER_STARTED_KEY = 'folioWorkerStarted';
/**
 * Longest a closing pool waits for threads still starting (a thread stuck starting is
 * terminated anyway). A thread loads in well under a second on an idle machine; on two busy
 * cores, five threads starting at once took over 10 s, so the wait is generous.
 */
const MAX_START_WAIT_MS = 30_000;

export class WorkerStarts {
  /** Threads that posted WORKER_STARTED_KEY and are still alive. */
  private readonly loaded = new Set<number>();
  private waiters: (() => void)[] = [];

  constructor(private readonly pool: Piscina) {
    pool.on('message', (message: unknown) => {
      const id = (message as Record<string, unknown> | null)?.[WORKER_STARTED_KEY];
      if (typeof id !== 'number') return;
      this.loaded.add(id);
      this.wake();
    });
    pool.on('workerDestroy', (worker: { id: number }) => {
      this.loaded.delete(worker.id);
      this.wake();
    });
  }

  /** Whether one of the pool's threads (started with the pool or later, for work) is still loading. */
  private anyStarting(): boolean {
    // A terminated thread's id reads -1; it is gone, not starting.
    return this.pool.threads.some((thread) => thread.threadId !== -1 && !this.loaded.has(thread.threadId));
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  /** Resolves once no thread is starting, or after MAX_START_WAIT_MS. */
  async allStarted(): Promise<void> {
    const deadline = performance.now() + MAX_START_WAIT_MS;
    for (;;) {
      // Piscina announces the threads it starts with in a microtask after construction.
      await new Promise((resolve) => setImmediate(resolve));
      const left = deadline - performance.now();
      if (!this.anyStarting() || left <= 0) return;
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        timer = setTimeout(resolve, left);
      });
      clearTimeout(timer);
    }
  }
}
