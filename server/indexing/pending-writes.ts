// Acknowledged writes that are not in segments yet: id → the new document, or null for a
// delete (last op wins). A refresh takes the whole buffer in one synchronous step (together
// with rotating the WAL), leaving a fresh one for new writes; until its commit is swapped in,
// the taken buffer stays readable so realtime reads never miss a write.
// A document of a batch body stays a view of the body's bytes (BodyDocument) until something
// needs it as an object. The buffer's size is the memory its documents hold: an IndexDocument
// counts its canonical size, a batch body its whole length as long as any of its documents is
// in the buffer (a body whose documents were almost all replaced still holds all its bytes).

import type { IndexDocument } from '../../engine/index.ts';
import { BodyDocument } from '../ingest/index.ts';
import type { BatchBody } from '../ingest/index.ts';

/** A pending change: the new document, or null when the id was deleted. */
export type PendingChange = IndexDocument | BodyDocument | null;

/** A pending document as the engine's IndexDocument (a batch body's is parsed from its bytes now). */
export function pendingDocument(change: IndexDocument | BodyDocument): IndexDocument {
  return change instanceof BodyDocument ? change.toIndexDocument() : change;
}

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
  /** What the taken buffer held when a refresh took it. */
  private takenBytesHeld = 0;
  /** Batch bodies with documents in the current buffer, and how many. */
  private bodies = new Map<BatchBody, number>();

  /** Changes waiting for the next refresh (the taken buffer is not counted). */
  get size(): number {
    return this.current.size;
  }

  /** Bytes the documents in the buffer hold (the taken buffer is not counted). */
  get bytes(): number {
    return this.currentBytes;
  }

  /** Bytes the taken buffer holds (0 when no refresh has it). */
  get takenBytes(): number {
    return this.takenBytesHeld;
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
    this.retain(change);
    this.release(previous?.change ?? null);
    return { id, seq, previous };
  }

  /**
   * Undoes a `set` if no later write has replaced it and no refresh has taken it;
   * returns whether it did.
   */
  undo(replaced: ReplacedEntry): boolean {
    const entry = this.current.get(replaced.id);
    if (entry === undefined || entry.seq !== replaced.seq) return false;
    this.retain(replaced.previous?.change ?? null);
    this.release(entry.change);
    if (replaced.previous === undefined) this.current.delete(replaced.id);
    else this.current.set(replaced.id, replaced.previous);
    return true;
  }

  /** Hands the buffer to a refresh; new writes go to a fresh one. */
  take(): Map<string, PendingChange> {
    if (this.taken !== null) throw new Error('a refresh is already in progress');
    this.taken = this.current;
    this.current = new Map();
    this.takenBytesHeld = this.currentBytes;
    this.currentBytes = 0;
    this.bodies = new Map();
    return new Map([...this.taken].map(([id, entry]) => [id, entry.change]));
  }

  /** The refresh committed the taken buffer: forget it. */
  commitTaken(): void {
    this.taken = null;
    this.takenBytesHeld = 0;
  }

  /** The refresh failed: put the taken changes back under any newer ones. */
  restoreTaken(): void {
    if (this.taken === null) return;
    for (const [id, entry] of this.taken) {
      if (this.current.has(id)) continue;
      this.current.set(id, entry);
      this.retain(entry.change);
    }
    this.taken = null;
    this.takenBytesHeld = 0;
  }

  /** Counts what a change entering the buffer holds. */
  private retain(change: PendingChange): void {
    if (change === null) return;
    if (!(change instanceof BodyDocument)) {
      this.currentBytes += change.bytes;
      return;
    }
    const documents = this.bodies.get(change.body) ?? 0;
    if (documents === 0) this.currentBytes += change.body.bytes.length;
    this.bodies.set(change.body, documents + 1);
  }

  /** Stops counting what a change leaving the buffer held. */
  private release(change: PendingChange): void {
    if (change === null) return;
    if (!(change instanceof BodyDocument)) {
      this.currentBytes -= change.bytes;
      return;
    }
    const documents = this.bodies.get(change.body)! - 1;
    if (documents > 0) {
      this.bodies.set(change.body, documents);
      return;
    }
    this.bodies.delete(change.body);
    this.currentBytes -= change.body.bytes.length;
  }
}
