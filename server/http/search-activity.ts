// Searches this server answered: a total since start and the rate over the last minute, from a
// ring of one-second buckets (constant memory, whatever the load), for GET /v1/stats.

const WINDOW_SECONDS = 60;

export class SearchActivity {
  private readonly buckets = new Uint32Array(WINDOW_SECONDS);
  /** The second (since the epoch) each bucket counts. */
  private readonly seconds = new Float64Array(WINDOW_SECONDS).fill(-1);
  private count = 0;

  constructor(private readonly clock: () => number = Date.now) {}

  /** Counts one search answered now. */
  record(): void {
    const nowMs = this.clock();
    const second = Math.floor(nowMs / 1000);
    const slot = second % WINDOW_SECONDS;
    if (this.seconds[slot] !== second) {
      this.seconds[slot] = second;
      this.buckets[slot] = 0;
    }
    this.buckets[slot]++;
    this.count++;
  }

  get total(): number {
    return this.count;
  }

  /** Searches per second over the last minute (the current second included). */
  perSecond(): number {
    const second = Math.floor(this.clock() / 1000);
    let sum = 0;
    for (let slot = 0; slot < WINDOW_SECONDS; slot++) {
      if (second - this.seconds[slot] < WINDOW_SECONDS) sum += this.buckets[slot];
    }
    return sum / WINDOW_SECONDS;
  }
}
