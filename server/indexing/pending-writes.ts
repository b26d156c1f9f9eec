// Acknowledged writes that are not in segments yet: id → the new document, or null for a
// delete (last op wins). A refresh takes the whole buffer in one synchronous step (together
// with rotating the WAL), leaving a fresh one for new writes; until its commit is swapped in,
// the taken buffer stays readable so realtime reads never miss a write.

import type { IndexDocument } from '../../engine/index.ts';

/** A pending change: the new document, or null when the id was deleted. */
export type PendingChange = IndexDocument | null;

interface Entry {
  change: PendingChange;
  /** Sequence number of the write that made this entry (for undoing a failed write). */
  seq: number;
}

/** What `set` replaced, so a failed write can be undone. */
export interface ReplacedEntry {
  id: string;
  seq: number;
  previous: Entry | undefined;
}

export class PendingWrites {
  private current = new Map<string, Entry>();
  private taken: Map<string, Entry> | null = null;
  private currentBytes = 0;

  /** Changes waiting for the next refresh (the taken buffer is not counted). */
  get size(): number {
    return this.current.size;
  }

  /** Source bytes of the documents in the buffer (the taken buffer is not counted). */
  get bytes(): number {
    return this.currentBytes;
  }

  get refreshing(): boolean {
    return this.taken !== null;
  }

  /** The pending change for `id`, or undefined when none is pending. */
  lookup(id: string): PendingChange | undefined {
    const entry = this.current.get(id) ?? this.taken?.get(id);
    return entry?.change;
  }

  /** Calls `visit` once for every id with a pending change, with the change `lookup` gives. */
  forEach(visit: (id: string, change: PendingChange) => void): void {
    for (const [id, entry] of this.current) visit(id, entry.change);
    if (this.taken === null) return;
    for (const [id, entry] of this.taken) if (!this.current.has(id)) visit(id, entry.change);
  }

  set(id: string, change: PendingChange, seq: number): ReplacedEntry {
    const previous = this.current.get(id);
    this.current.set(id, { change, seq });
    this.currentBytes += entryBytes(change) - entryBytes(previous?.change ?? null);
    return { id, seq, previous };
  }

  /**
   * Undoes a `set` if no later write has replaced it and no refresh has taken it;
   * returns whether it did.
   */
  undo(replaced: ReplacedEntry): boolean {
    const entry = this.current.get(replaced.id);
    if (entry === undefined || entry.seq !== replaced.seq) return false;
    this.currentBytes += entryBytes(replaced.previous?.change ?? null) - entryBytes(entry.change);
    if (replaced.previous === undefined) this.current.delete(replaced.id);
    else this.current.set(replaced.id, replaced.previous);
    return true;
  }

  /** Hands the buffer to a refresh; new writes go to a fresh one. */
  take(): Map<string, PendingChange> {
    if (this.taken !== null) throw new Error('a refresh is already in progress');
    this.taken = this.current;
    this.current = new Map();
    this.currentBytes = 0;
    return new Map([...this.taken].map(([id, entry]) => [id, entry.change]));
  }

  /** The refresh committed the taken buffer: forget it. */
  commitTaken(): void {
    this.taken = null;
  }

  /** The refresh failed: put the taken changes back under any newer ones. */
  restoreTaken(): void {
    if (this.taken === null) return;
    for (const [id, entry] of this.taken) {
      if (this.current.has(id)) continue;
      this.current.set(id, entry);
      this.currentBytes += entryBytes(entry.change);
    }
    this.taken = null;
  }
}

function entryBytes(change: PendingChange): number {
  return change === null ? 0 : change.bytes;
}
