// Per-key search concurrency (issue 18): one API key may run at most `perKey` searches at once,
// by default one fewer than the search threads (at least one), so a key sending expensive
// searches cannot occupy every thread while other keys wait. A key's further searches wait in
// its own line, first come first served, up to MAX_WAITING_PER_KEY; past that they are refused
// with 503 `overloaded` and `Retry-After`. The master key and dashboard sessions, the operator's
// own credentials, are not limited.

import { FolioError } from '../errors/index.ts';
import type { Principal } from '../auth/index.ts';

/** Searches of one key that may wait for a turn; more are refused (bounded memory). */
export const MAX_WAITING_PER_KEY = 64;

/** The default limit: a thread stays free for other keys whenever there are two or more. */
export function defaultKeySearchConcurrency(searchThreads: number): number {
  return Math.max(1, searchThreads - 1);
}

interface KeyLine {
  running: number;
  waiting: (() => void)[];
}

export class SearchAdmission {
  private readonly lines = new Map<string, KeyLine>();

  constructor(private readonly perKey: number) {
    if (!Number.isInteger(perKey) || perKey < 1) throw new RangeError('searches per key must be a positive integer');
  }

  /** Runs `search` once the principal's key has a turn (at once for the master key and sessions). */
  async run<T>(principal: Principal | null, search: () => Promise<T>): Promise<T> {
    if (principal === null || principal.kind !== 'key') return search();
    const line = await this.enter(principal.id);
    try {
      return await search();
    } finally {
      this.leave(principal.id, line);
    }
  }

  /** Searches running or waiting per key (for tests and stats). */
  state(keyId: string): { running: number; waiting: number } {
    const line = this.lines.get(keyId);
    return { running: line?.running ?? 0, waiting: line?.waiting.length ?? 0 };
  }

  private async enter(keyId: string): Promise<KeyLine> {
    let line = this.lines.get(keyId);
    if (line === undefined) this.lines.set(keyId, (line = { running: 0, waiting: [] }));
    if (line.running < this.perKey) {
      line.running++;
      return line;
    }
    if (line.waiting.length >= MAX_WAITING_PER_KEY) {
      throw new FolioError(
        'overloaded',
        `this API key already has ${this.perKey} searches running and ${MAX_WAITING_PER_KEY} waiting: retry after Retry-After seconds`,
        undefined,
        1,
      );
    }
    const current = line;
    // `leave` hands its turn over: `running` stays counted for the waiter it wakes.
    await new Promise<void>((resolve) => current.waiting.push(resolve));
    return current;
  }

  private leave(keyId: string, line: KeyLine): void {
    const next = line.waiting.shift();
    if (next !== undefined) {
      next();
      return;
    }
    line.running--;
    if (line.running === 0) this.lines.delete(keyId);
  }
}
