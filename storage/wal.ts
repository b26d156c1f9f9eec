// The write-ahead log: every acknowledged write is appended here and fdatasync'ed before the
// caller hears back, so it survives a crash until a refresh has put it into segments.
// Appends that arrive while a sync is in flight are batched into one write and one sync
// (group commit) and resolved in append order. Files are `wal-<generation>.log`; `rotate()`
// starts a new generation so older ones can be removed once their records are in segments.
//
// Writing is strictly serial across generations: a generation's file is written only after
// every earlier batch is synced, so after a crash only the newest non-empty file can end in a
// torn record, and that is the one place a bad record is forgiven (and cut off).

import fs from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { fsyncDirectory } from './atomic-file.ts';
import { CorruptFileError, StorageError } from './errors.ts';
import { encodeWalFrame, listWalGenerations, scanWalFrames, walFilePath } from './wal-frame.ts';

/** Generation used when a directory has no WAL file yet. */
export const FIRST_WAL_GENERATION = 1;
/** Upper bound on the bytes written by one group-commit batch. */
const MAX_BATCH_BYTES = 16 * 1024 * 1024;

/** Counters for observing group commit. */
export interface WalStats {
  /** Records appended (acknowledged or not). */
  appends: number;
  /** Batches written, each followed by exactly one fdatasync. */
  syncs: number;
}

interface QueuedAppend {
  generation: number;
  frame: Uint8Array;
  resolve: () => void;
  reject: (error: Error) => void;
}

interface OpenWalFile {
  generation: number;
  handle: FileHandle;
  length: number;
}

/** Reads a WAL file and cuts off a torn tail when `tolerateTornTail`; throws on other damage. */
function readAndRepair(path: string, tolerateTornTail: boolean): Uint8Array[] {
  const data = fs.readFileSync(path);
  const scan = scanWalFrames(data);
  if (scan.problem === null) return scan.records;
  if (!tolerateTornTail || !scan.tornTail) throw new CorruptFileError(path, scan.problem);
  fs.truncateSync(path, scan.validLength);
  const fd = fs.openSync(path, 'r+');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  return scan.records;
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
  private readonly queue: QueuedAppend[] = [];
  private flushing: Promise<void> | null = null;
  private inFlightGeneration: number | null = null;
  private openFile: OpenWalFile | null = null;
  private removeBelow = 0;
  /** A removal was put off because a generation was still being written. */
  private removalDeferred = false;
  private failure: Error | null = null;
  private closed = false;
  private readonly counters: WalStats = { appends: 0, syncs: 0 };

  private constructor(dir: string, generation: number) {
    this.dir = dir;
    this.currentGeneration = generation;
  }

  /**
   * Opens the log in `dir` (created if needed) for appending to its newest generation, or to
   * `minGeneration` when that is newer. A torn tail left by a crash is cut off first.
   */
  static open(dir: string, minGeneration = FIRST_WAL_GENERATION): WriteAheadLog {
    fs.mkdirSync(dir, { recursive: true });
    const generations = listWalGenerations(dir);
    const lastNonEmpty = lastNonEmptyGeneration(dir, generations);
    if (lastNonEmpty !== null) readAndRepair(walFilePath(dir, lastNonEmpty), true);
    const newest = generations.length > 0 ? generations[generations.length - 1] : 0;
    if (newest >= minGeneration) return new WriteAheadLog(dir, newest);
    const log = new WriteAheadLog(dir, Math.max(minGeneration, FIRST_WAL_GENERATION));
    log.createGenerationFile(log.currentGeneration);
    return log;
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
      const path = walFilePath(dir, generation);
      for (const record of readAndRepair(path, generation === lastNonEmpty)) records.push(record);
    }
    return records;
  }

  /** The generation new appends go to. */
  get generation(): number {
    return this.currentGeneration;
  }

  get stats(): WalStats {
    return { ...this.counters };
  }

  /**
   * Appends one record; resolves once it is written and fdatasync'ed. The record is queued
   * for the current generation synchronously, before this returns.
   */
  append(record: Uint8Array): Promise<void> {
    if (this.closed) return Promise.reject(new StorageError('wal_closed', `write-ahead log ${this.dir} is closed`));
    if (this.failure !== null) return Promise.reject(this.failure);
    if (record.length === 0) return Promise.reject(new RangeError('a WAL record may not be empty'));
    const frame = encodeWalFrame(record);
    this.counters.appends++;
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ generation: this.currentGeneration, frame, resolve, reject });
      this.startFlushing();
    });
  }

  /**
   * Switches new appends to the next generation and returns it. Records appended before the
   * call stay in older files; their pending syncs still complete and resolve.
   */
  rotate(): number {
    const next = this.currentGeneration + 1;
    this.createGenerationFile(next);
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
    this.closed = true;
    while (this.flushing !== null) await this.flushing;
    if (this.openFile !== null) {
      const { handle } = this.openFile;
      this.openFile = null;
      await handle.close();
    }
  }

  /** Creates an empty file for `generation` and makes its directory entry durable. */
  private createGenerationFile(generation: number): void {
    fs.closeSync(fs.openSync(walFilePath(this.dir, generation), 'a'));
    fsyncDirectory(this.dir);
  }

  private startFlushing(): void {
    if (this.flushing !== null) return;
    this.flushing = this.flushLoop().finally(() => {
      this.flushing = null;
      if (this.removalDeferred) this.deleteRemovable();
      // An append may have slipped in after the loop's last check.
      if (this.queue.length > 0) this.startFlushing();
    });
  }

  private async flushLoop(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.takeBatch();
      this.inFlightGeneration = batch[0].generation;
      try {
        if (this.failure !== null) throw this.failure;
        await this.writeBatch(batch);
        for (const entry of batch) entry.resolve();
      } catch (error) {
        for (const entry of batch) entry.reject(error as Error);
      } finally {
        this.inFlightGeneration = null;
      }
    }
  }

  /** Leading queued appends of one generation, up to MAX_BATCH_BYTES (at least one). */
  private takeBatch(): QueuedAppend[] {
    const generation = this.queue[0].generation;
    let count = 0;
    let bytes = 0;
    while (count < this.queue.length && this.queue[count].generation === generation) {
      bytes += this.queue[count].frame.length;
      if (count > 0 && bytes > MAX_BATCH_BYTES) break;
      count++;
    }
    return this.queue.splice(0, count);
  }

  private async writeBatch(batch: QueuedAppend[]): Promise<void> {
    const file = await this.fileFor(batch[0].generation);
    const data = batch.length === 1 ? batch[0].frame : Buffer.concat(batch.map((entry) => entry.frame));
    try {
      let written = 0;
      while (written < data.length) {
        const { bytesWritten } = await file.handle.write(data, written, data.length - written);
        written += bytesWritten;
      }
    } catch (error) {
      // Cut the partial batch off so no half record sits before later ones.
      try {
        await file.handle.truncate(file.length);
      } catch {
        this.failure = new StorageError('wal_failed', `write-ahead log ${this.dir} failed: ${(error as Error).message}`);
      }
      throw error;
    }
    try {
      await file.handle.datasync();
    } catch (error) {
      // After a failed sync the page cache cannot be trusted: refuse every later append.
      this.failure = new StorageError('wal_failed', `write-ahead log ${this.dir} failed to sync: ${(error as Error).message}`);
      throw this.failure;
    }
    file.length += data.length;
    this.counters.syncs++;
  }

  private async fileFor(generation: number): Promise<OpenWalFile> {
    if (this.openFile !== null && this.openFile.generation === generation) return this.openFile;
    if (this.openFile !== null) {
      const previous = this.openFile;
      this.openFile = null;
      await previous.handle.close();
    }
    const path = walFilePath(this.dir, generation);
    const handle = await fs.promises.open(path, 'a');
    const { size } = await handle.stat();
    this.openFile = { generation, handle, length: size };
    return this.openFile;
  }

  private deleteRemovable(): void {
    const busy = new Set<number>(this.queue.map((entry) => entry.generation));
    if (this.inFlightGeneration !== null) busy.add(this.inFlightGeneration);
    this.removalDeferred = false;
    for (const generation of listWalGenerations(this.dir)) {
      if (generation >= this.removeBelow || generation >= this.currentGeneration) continue;
      if (busy.has(generation)) {
        this.removalDeferred = true;
        continue;
      }
      fs.rmSync(walFilePath(this.dir, generation), { force: true });
    }
  }
}
