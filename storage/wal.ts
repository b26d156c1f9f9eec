// The write-ahead log: every acknowledged write is appended here and fdatasync'ed before the
// caller hears back, so it survives a crash until a refresh has put it into segments.
// Files are `wal-<generation>.log`; `rotate()` starts a new generation so older ones can be
// removed once their records are in segments. The durable part — group commit (concurrent
// appends share one write and one sync, resolved in append order), cutting off failed writes,
// chunked replay with torn-tail handling — is the shared AppendLog, in WAL framing.
//
// Writing is strictly serial across generations (the log writes a new file only after every
// batch of the earlier one is durable), so after a crash only the newest non-empty file can
// end in a torn record, and that is the one place a bad record is forgiven (and cut off).

import fs from 'node:fs';
import { AppendLog } from './append-log.ts';
import { listWalGenerations, walFilePath, WAL_FRAMING } from './wal-frame.ts';

/** Generation used when a directory has no WAL file yet. */
export const FIRST_WAL_GENERATION = 1;

/** Counters for observing group commit. */
export interface WalStats {
  /** Records appended (acknowledged or not). */
  appends: number;
  /** Batches written, each followed by exactly one fdatasync. */
  syncs: number;
}

function fileSize(path: string): number {
  try {
    return fs.statSync(path).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
}

/** The newest of `generations` whose file holds any bytes, or null. */
function lastNonEmptyGeneration(dir: string, generations: number[]): number | null {
  for (let i = generations.length - 1; i >= 0; i--) {
    if (fileSize(walFilePath(dir, generations[i])) > 0) return generations[i];
  }
  return null;
}

export class WriteAheadLog {
  readonly dir: string;
  private currentGeneration: number;
  private readonly log: AppendLog<Uint8Array>;
  private removeBelow = 0;
  /** A removal was put off because a generation was still being written. */
  private removalDeferred = false;

  private constructor(dir: string, generation: number, log: AppendLog<Uint8Array>) {
    this.dir = dir;
    this.currentGeneration = generation;
    this.log = log;
  }

  /**
   * Opens the log in `dir` (created if needed) for appending to its newest generation, or to
   * `minGeneration` when that is newer. A torn tail left by a crash is cut off first.
   */
  static open(dir: string, minGeneration = FIRST_WAL_GENERATION): WriteAheadLog {
    fs.mkdirSync(dir, { recursive: true });
    const generations = listWalGenerations(dir);
    const newest = generations.length > 0 ? generations[generations.length - 1] : 0;
    const generation = newest >= minGeneration ? newest : Math.max(minGeneration, FIRST_WAL_GENERATION);
    const lastNonEmpty = lastNonEmptyGeneration(dir, generations);
    if (lastNonEmpty !== null && lastNonEmpty !== generation) {
      AppendLog.replay(walFilePath(dir, lastNonEmpty), WAL_FRAMING, () => {}, { cutTornTail: true });
    }
    const log = AppendLog.open(walFilePath(dir, generation), { framing: WAL_FRAMING, name: `write-ahead log ${dir}`, errorCode: 'wal', refuseAfterFailedSync: true });
    return new WriteAheadLog(dir, generation, log);
  }

  /**
   * Every record of generations ≥ `fromGeneration`, in append order. A torn record at the end
   * of the newest non-empty file is cut off (the crash happened before it was acknowledged);
   * a bad record anywhere else throws CorruptFileError naming the file.
   * Call before `open` on the same directory, never while a log is appending to it.
   */
  static replay(dir: string, fromGeneration: number): Uint8Array[] {
    const generations = listWalGenerations(dir).filter((g) => g >= fromGeneration);
    const lastNonEmpty = lastNonEmptyGeneration(dir, generations);
    const records: Uint8Array[] = [];
    for (const generation of generations) {
      const onRecord = (record: Uint8Array): void => void records.push(record);
      AppendLog.replay(walFilePath(dir, generation), WAL_FRAMING, onRecord, { cutTornTail: generation === lastNonEmpty });
    }
    return records;
  }

  /** The generation new appends go to. */
  get generation(): number {
    return this.currentGeneration;
  }

  get stats(): WalStats {
    const { appends, syncs } = this.log.stats;
    return { appends, syncs };
  }

  /**
   * Appends one record; resolves once it is written and fdatasync'ed. The record is queued
   * for the current generation synchronously, before this returns.
   */
  append(record: Uint8Array): Promise<void> {
    return this.log.append(record);
  }

  /**
   * Switches new appends to the next generation and returns it. Records appended before the
   * call stay in older files; their pending syncs still complete and resolve.
   */
  rotate(): number {
    const next = this.currentGeneration + 1;
    this.log.rotate(walFilePath(this.dir, next));
    this.currentGeneration = next;
    return next;
  }

  /** Deletes files of generations below `generation` (once nothing is still writing them). */
  removeBefore(generation: number): void {
    this.removeBelow = Math.max(this.removeBelow, Math.min(generation, this.currentGeneration));
    this.deleteRemovable();
  }

  /** Bytes of every WAL file in the directory. */
  sizeBytes(): number {
    let total = 0;
    for (const generation of listWalGenerations(this.dir)) total += fileSize(walFilePath(this.dir, generation));
    return total;
  }

  /** Refuses new appends, waits for queued ones to be synced, and closes the file. */
  async close(): Promise<void> {
    await this.log.close();
    if (this.removalDeferred) this.deleteRemovable();
  }

  private deleteRemovable(): void {
    const busy = this.log.busyPaths();
    this.removalDeferred = false;
    for (const generation of listWalGenerations(this.dir)) {
      if (generation >= this.removeBelow || generation >= this.currentGeneration) continue;
      const path = walFilePath(this.dir, generation);
      if (busy.has(path)) {
        this.removalDeferred = true;
        continue;
      }
      fs.rmSync(path, { force: true });
    }
    if (this.removalDeferred) {
      // Once the older generation's batches are durable; a failed removal is retried by the next call or `close`.
      void this.log.flushed().then(() => {
        if (this.removalDeferred) this.deleteRemovable();
      }).catch(() => {
        this.removalDeferred = true;
      });
    }
  }
}
