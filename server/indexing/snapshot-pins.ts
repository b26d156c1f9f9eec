// Which committed snapshots of a collection are still in use by work on other threads (searches
// in the search pool, a merge reading its sources), and the files retired snapshots used. A file
// a newer manifest no longer lists is removed only once no snapshot that lists it is pinned, so
// a worker can always open any file of the snapshot it was given.

/** Files that became unused when the snapshot of generation `usedUpTo` + 1 was installed. */
interface DeferredRemoval {
  usedUpTo: number;
  files: string[];
}

export class SnapshotPins {
  /** Pinned generation → how many pins. */
  private readonly pins = new Map<number, number>();
  private deferred: DeferredRemoval[] = [];
  private idleWaiters: (() => void)[] = [];

  pin(generation: number): void {
    this.pins.set(generation, (this.pins.get(generation) ?? 0) + 1);
  }

  /** Unpins one use of `generation`; returns the retired files that can now be removed. */
  unpin(generation: number): string[] {
    const count = this.pins.get(generation) ?? 0;
    if (count <= 1) this.pins.delete(generation);
    else this.pins.set(generation, count - 1);
    if (this.pins.size === 0) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
    return this.removable();
  }

  /**
   * `files` are used by snapshots up to generation `usedUpTo` only. Returns those that can be
   * removed now; the others are handed out by a later `unpin`.
   */
  retire(files: string[], usedUpTo: number): string[] {
    if (files.length > 0) this.deferred.push({ usedUpTo, files });
    return this.removable();
  }

  get pinned(): number {
    let total = 0;
    for (const count of this.pins.values()) total += count;
    return total;
  }

  /** Resolves once nothing is pinned. */
  idle(): Promise<void> {
    if (this.pins.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private removable(): string[] {
    let oldestPinned = Infinity;
    for (const generation of this.pins.keys()) oldestPinned = Math.min(oldestPinned, generation);
    const ready: string[] = [];
    this.deferred = this.deferred.filter((entry) => {
      if (entry.usedUpTo >= oldestPinned) return true;
      ready.push(...entry.files);
      return false;
    });
    return ready;
  }
}
