// When a collection refreshes: a timer soon after a write, or at once when asked. Runs
// refreshes one after the other (never overlapping), tracks which writes are searchable
// (by write sequence number) for `refresh=wait_for`, retries failed background refreshes with
// backoff, and runs the follow-up work a refresh hands back (merges) before the next one.

/** What one refresh did: the last write sequence number it made searchable, and follow-up work. */
export interface RefreshOutcome {
  covered: number;
  followUp: (() => Promise<void>) | null;
}

export interface RefreshSchedulerOptions {
  /** Delay between a write and its background refresh. */
  intervalMs: number;
  refresh: () => Promise<RefreshOutcome>;
  onError: (error: unknown) => void;
}

/** Longest wait before retrying a background refresh that keeps failing. */
export const MAX_RETRY_DELAY_MS = 30_000;

interface Waiter {
  seq: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class RefreshScheduler {
  private readonly options: RefreshSchedulerOptions;
  private timer: NodeJS.Timeout | null = null;
  private chain: Promise<void> = Promise.resolve();
  private committedSeq = 0;
  private waiters: Waiter[] = [];
  private consecutiveFailures = 0;
  private stopped: Error | null = null;
  /** A refresh is in the chain and has not started yet. */
  private queued = false;
  /** Refreshes (with their follow-up work) running now. */
  private running = 0;

  constructor(options: RefreshSchedulerOptions) {
    this.options = options;
  }

  /** True from a failed refresh until one succeeds. */
  get failing(): boolean {
    return this.consecutiveFailures > 0;
  }

  /** Nothing scheduled, queued, running or awaited (a collection may then be closed while idle). */
  get idle(): boolean {
    return this.timer === null && !this.queued && this.running === 0 && this.waiters.length === 0;
  }

  /** Makes sure a background refresh will run within the interval (or the retry delay). */
  schedule(): void {
    if (this.timer !== null || this.stopped !== null) return;
    const delay = Math.min(this.options.intervalMs * 2 ** this.consecutiveFailures, Math.max(MAX_RETRY_DELAY_MS, this.options.intervalMs));
    this.timer = setTimeout(() => {
      this.timer = null;
      this.runInBackground();
    }, delay);
  }

  /**
   * Brings the scheduled background refresh forward: it starts now, or right after the one
   * running. Used when enough writes are buffered that waiting longer only costs memory.
   */
  hurry(): void {
    if (this.timer === null || this.stopped !== null) return;
    clearTimeout(this.timer);
    this.timer = null;
    this.runInBackground();
  }

  /**
   * Makes sure a refresh starts as soon as the running one (if any) ends, without queueing a
   * second one behind a refresh that has not started yet.
   */
  ensureQueued(): void {
    if (this.queued || this.stopped !== null) return;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.runInBackground();
  }

  /** Runs a refresh now (after any running one); resolves once it has committed. */
  runNow(): Promise<void> {
    return this.enqueue();
  }

  /** Resolves once the write with sequence number `seq` is searchable. */
  waitFor(seq: number): Promise<void> {
    if (this.committedSeq >= seq) return Promise.resolve();
    if (this.stopped !== null) return Promise.reject(this.stopped);
    return new Promise<void>((resolve, reject) => {
      this.waiters.push({ seq, resolve, reject });
      this.schedule();
    });
  }

  /** Cancels the timer, fails the waiters with `reason`, and waits for a running refresh. */
  async stop(reason: Error): Promise<void> {
    this.stopped = reason;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter.reject(reason);
    await this.chain;
  }

  /** A refresh nobody awaits: failures are reported and retried later. */
  private runInBackground(): void {
    this.enqueue().catch((error: unknown) => {
      this.options.onError(error);
      this.schedule();
    });
  }

  private enqueue(): Promise<void> {
    this.queued = true;
    const run = this.chain.then(() => {
      this.queued = false;
      return this.runOne();
    });
    this.chain = run.catch(() => {});
    return run;
  }

  private async runOne(): Promise<void> {
    this.running++;
    try {
      await this.refreshOnce();
    } finally {
      this.running--;
    }
  }

  private async refreshOnce(): Promise<void> {
    if (this.stopped !== null) throw this.stopped;
    let outcome: RefreshOutcome;
    try {
      outcome = await this.options.refresh();
    } catch (error) {
      this.consecutiveFailures++;
      throw error;
    }
    this.consecutiveFailures = 0;
    this.markCommitted(outcome.covered);
    if (outcome.followUp === null) return;
    // Let the writers and searchers that were waiting run before the follow-up work.
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (this.stopped !== null) return;
    try {
      await outcome.followUp();
    } catch (error) {
      this.options.onError(error);
    }
  }

  private markCommitted(seq: number): void {
    if (seq <= this.committedSeq) return;
    this.committedSeq = seq;
    const ready = this.waiters.filter((waiter) => waiter.seq <= seq);
    this.waiters = this.waiters.filter((waiter) => waiter.seq > seq);
    for (const waiter of ready) waiter.resolve();
  }
}
