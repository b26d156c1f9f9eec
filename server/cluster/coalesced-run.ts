// A piece of background work that runs one at a time, however often it is asked for: a request
// while it runs makes it run once more afterwards (the changes it was asked about may have come
// after it looked). Each run says whether it must run again (it failed and should retry).

export class CoalescedRun {
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    /** One run; resolves true to run again (after its own pause). */
    private readonly once: () => Promise<boolean>,
    /** Whether further runs are still wanted (false once stopped or no longer in the role). */
    private readonly wanted: () => boolean,
  ) {}

  request(): Promise<void> {
    if (this.running !== null) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        if (await this.once()) this.again = true;
      } while (this.again && this.wanted());
    })().finally(() => (this.running = null));
    return this.running;
  }

  /** Resolves once no run is under way. */
  settled(): Promise<void> {
    return this.running ?? Promise.resolve();
  }
}
