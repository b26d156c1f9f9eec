// A Piscina pool created on first use, so a server holds no worker thread of a kind until work
// of that kind comes (an empty server runs only its main thread). Once created, the pool is
// what it always was: its minimum of threads stays started and a thread that dies is replaced.
// Closing waits for threads still loading their modules (worker-starts.ts); a pool never
// created closes at once, and no pool is created once closed.

import { Piscina } from 'piscina';
import type { Worker } from 'node:worker_threads';
import { WorkerStarts } from './worker-starts.ts';

type PiscinaOptions = NonNullable<ConstructorParameters<typeof Piscina>[0]>;

export class LazyPiscina<Task, Result> {
  private created: { pool: Piscina<Task, Result>; starts: WorkerStarts } | null = null;
  private closed = false;

  /** `onCreate` attaches listeners to the pool the moment it exists. */
  constructor(
    private readonly options: PiscinaOptions,
    private readonly onCreate: (pool: Piscina<Task, Result>) => void = () => {},
  ) {}

  /** The pool, created (and its threads started) now if this is its first use. */
  get pool(): Piscina<Task, Result> {
    if (this.created === null) {
      if (this.closed) throw new Error('the worker pool is closed');
      const pool = new Piscina<Task, Result>(this.options);
      this.created = { pool, starts: new WorkerStarts(pool) };
      this.onCreate(pool);
    }
    return this.created.pool;
  }

  /** Creates the pool now if it does not exist yet, so its threads are ready for the first task. */
  start(): void {
    if (!this.closed) void this.pool;
  }

  /** The pool's threads (none before its first use). */
  get threads(): readonly Worker[] {
    return this.created?.pool.threads ?? [];
  }

  /** Creates the pool if needed and resolves once its threads have loaded (so work spreads over all of them). */
  async started(): Promise<void> {
    void this.pool;
    await this.created?.starts.allStarted();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.created === null) return;
    // Threads still loading their modules are let finish first (see worker-starts.ts).
    await this.created.starts.allStarted();
    await this.created.pool.destroy();
  }
}
