// The one durable append log: an append-only file of records, in the format of a
// RecordFraming (the WAL's CRC frames, the webhook outbox's NDJSON lines), for every part of
// Folio that must not lose an acknowledged write.
//
// - Group commit: appends made while a batch is being written wait, and are then written
//   together (up to MAX_BATCH_BYTES) and made durable by ONE fdatasync. Each append's promise
//   resolves, in append order, once its bytes are durable, and rejects if the write or the
//   sync failed.
// - Failed batches: a write that fails part-way or a failed fdatasync leaves bytes that were
//   never acknowledged. Before anything else is written they are cut off (truncate to the last
//   durable length, fdatasync), so a later batch never continues a torn record. When that cut
//   fails (its end is no longer known), or a sync fails in a log that asks for it (the WAL),
//   the log refuses every later append.
// - Replay: records are read back in bounded chunks (scanRecords). At `open` a torn tail (a
//   crash mid-append) is cut off; other damage throws CorruptFileError naming the file.
// - Rotation (for logs split in files, like the WAL's generations): later appends go to a
//   new file, strictly after every batch of the earlier one is durable, so after a crash only
//   the newest non-empty file can end in a torn record.
// - Compaction (for logs that keep one file, like the outbox): the owner provides its live
//   content, and the log rewrites the file with it atomically (temp file, fsync, rename,
//   fsync dir) — only inside the write loop, between batches, never under a write.
//
// Not here: what a record means, when a generation may be deleted, file naming.

import fs from 'node:fs';
import path from 'node:path';
import { fsyncDirectory, writeFileAtomicWith } from './atomic-file.ts';
import { CorruptFileError, StorageError } from './errors.ts';
import { LOG_CHUNK_BYTES, scanRecords } from './record-framing.ts';
import type { RecordFraming } from './record-framing.ts';

/** Upper bound on the bytes written by one group-commit batch (one append may exceed it). */
const MAX_BATCH_BYTES = 16 * 1024 * 1024;

/** The file calls a log's batches make; tests replace them to count syncs or inject faults. */
export interface AppendLogIo {
  /** Writes at the file's end (the log opens its files with O_APPEND); resolves the bytes written. */
  write(fd: number, data: Uint8Array, offset: number, length: number): Promise<number>;
  fdatasync(fd: number): Promise<void>;
  ftruncate(fd: number, length: number): Promise<void>;
}

/** The real calls, looked up on `node:fs` at each call (so a spy on `fs.fdatasync` sees them). */
export const NODE_APPEND_LOG_IO: AppendLogIo = {
  write: (fd, data, offset, length) =>
    new Promise((resolve, reject) => fs.write(fd, data, offset, length, null, (error, written) => (error ? reject(error) : resolve(written)))),
  fdatasync: (fd) => new Promise((resolve, reject) => fs.fdatasync(fd, (error) => (error ? reject(error) : resolve()))),
  ftruncate: (fd, length) => new Promise((resolve, reject) => fs.ftruncate(fd, length, (error) => (error ? reject(error) : resolve()))),
};

/** How a log that keeps one file is compacted. */
export interface AppendLogCompaction<R> {
  /**
   * The records the file should hold instead of what it holds. Called inside the write loop;
   * must stand for every record appended so far, including appends still queued (the owner
   * applies an append's effect before appending it): the rewrite makes those durable too, and
   * they are resolved without being written on their own.
   */
  live(): Iterable<R>;
  /** Whether to compact, given the file's bytes and its bytes after the last rewrite; asked after each batch. */
  due?(bytes: number, bytesAfterRewrite: number): boolean;
  /** Rewrite once at `open`, after the replay. */
  atOpen?: boolean;
}

export interface AppendLogOptions<R> {
  framing: RecordFraming<R>;
  /** Names the log in errors, e.g. `write-ahead log /data/x/wal`. */
  name: string;
  /** Prefix of error codes: `<prefix>_closed`, `<prefix>_failed`. */
  errorCode?: string;
  /** Mode of the files the log creates (new files and rewrites); default 0o666 less the umask. */
  mode?: number;
  /** Called with each record already in the file, in order, at `open`. */
  onRecord?: (record: R) => void;
  compaction?: AppendLogCompaction<R>;
  /**
   * Refuse every append after a failed fdatasync (the WAL: after a failed sync the page cache
   * cannot be trusted, so a later sync could report success for lost bytes). Default false:
   * the failed batch is cut off and later appends go on.
   */
  refuseAfterFailedSync?: boolean;
  io?: AppendLogIo;
}

/** Counters for observing group commit. */
export interface AppendLogStats {
  /** Records appended (acknowledged or not). */
  appends: number;
  /** Batches written, each made durable by exactly one fdatasync. */
  syncs: number;
  /** Rewrites of the file (compactions). */
  rewrites: number;
}

interface QueuedAppend {
  path: string;
  chunks: Uint8Array[];
  bytes: number;
  resolve: () => void;
  reject: (error: Error) => void;
}

interface Waiter {
  resolve: () => void;
  reject: (error: Error) => void;
}

interface OpenFile {
  path: string;
  fd: number;
  /** Bytes known durable; anything past them is a failed batch until cut off. */
  length: number;
}

export class AppendLog<R> {
  private readonly framing: RecordFraming<R>;
  private readonly name: string;
  private readonly errorCode: string;
  private readonly mode: number | undefined;
  private readonly compaction: AppendLogCompaction<R> | undefined;
  private readonly refuseAfterFailedSync: boolean;
  private readonly io: AppendLogIo;
  /** The file new appends go to. */
  private currentPath: string;
  /** The file batches are written to (lags `currentPath` after a rotation until a batch for the new file). */
  private file: OpenFile | null;
  private readonly queue: QueuedAppend[] = [];
  private rewriteWaiting: Waiter[] = [];
  private flushing: Promise<void> | null = null;
  private inFlightPath: string | null = null;
  /** The file a failed batch left bytes in, past its durable length. */
  private torn: OpenFile | null = null;
  /** Set when a failed batch could not be cut off (or a rewrite's rename may not be durable). */
  private failure: Error | null = null;
  private isClosed = false;
  private checkCompaction = false;
  private bytesAfterRewrite = 0;
  private readonly counters: AppendLogStats = { appends: 0, syncs: 0, rewrites: 0 };

  private constructor(filePath: string, options: AppendLogOptions<R>) {
    this.framing = options.framing;
    this.name = options.name;
    this.errorCode = options.errorCode ?? 'append_log';
    this.mode = options.mode;
    this.compaction = options.compaction;
    this.refuseAfterFailedSync = options.refuseAfterFailedSync ?? false;
    this.io = options.io ?? NODE_APPEND_LOG_IO;
    this.currentPath = filePath;
    const fd = openForAppend(filePath, this.mode);
    this.file = { path: filePath, fd, length: fs.fstatSync(fd).size };
    this.bytesAfterRewrite = this.file.length;
  }

  /**
   * Opens the log at `filePath` (created, with its directory entry made durable, if missing):
   * replays its records to `onRecord`, cuts off a torn tail, and rewrites it first when
   * `compaction.atOpen`. Throws CorruptFileError for damage that is not a torn tail.
   */
  static open<R>(filePath: string, options: AppendLogOptions<R>): AppendLog<R> {
    AppendLog.replay(filePath, options.framing, options.onRecord ?? (() => {}), { cutTornTail: true });
    const log = new AppendLog(filePath, options);
    if (options.compaction?.atOpen === true) {
      try {
        log.rewrite();
      } catch (error) {
        fs.closeSync(log.file!.fd);
        throw error;
      }
    }
    return log;
  }

  /**
   * Calls `onRecord` with each record of the file at `filePath` (a missing file has none), in
   * order. A torn tail is cut off (truncated, fsync'ed) when `cutTornTail`, else it throws
   * CorruptFileError like any other damage — after the records before it were passed on.
   * Never while a log is appending to the file.
   */
  static replay<R>(filePath: string, framing: RecordFraming<R>, onRecord: (record: R) => void, options: { cutTornTail: boolean }): void {
    const scan = scanRecords(filePath, framing, onRecord);
    if (scan.problem === null) return;
    if (!options.cutTornTail || !scan.tornTail) throw new CorruptFileError(filePath, scan.problem);
    const fd = fs.openSync(filePath, 'r+');
    try {
      fs.ftruncateSync(fd, scan.validLength);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  }

  /** The file new appends go to. */
  get path(): string {
    return this.currentPath;
  }

  get closed(): boolean {
    return this.isClosed;
  }

  get stats(): AppendLogStats {
    return { ...this.counters };
  }

  /** Appends one record; resolves once it is durable. Queued synchronously, before this returns. */
  append(record: R): Promise<void> {
    return this.appendAll([record]);
  }

  /** Appends records as one unit of the queue; resolves once all of them are durable. */
  appendAll(records: readonly R[]): Promise<void> {
    if (this.isClosed) return Promise.reject(new StorageError(`${this.errorCode}_closed`, `${this.name} is closed`));
    if (this.failure !== null) return Promise.reject(this.failure);
    if (records.length === 0) return Promise.resolve();
    const chunks: Uint8Array[] = [];
    let bytes = 0;
    try {
      for (const record of records) {
        const chunk = this.framing.encode(record);
        chunks.push(chunk);
        bytes += chunk.length;
      }
    } catch (error) {
      return Promise.reject(error as Error);
    }
    this.counters.appends += records.length;
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ path: this.currentPath, chunks, bytes, resolve, reject });
      this.kick();
    });
  }

  /**
   * Rewrites the file with the owner's live content, inside the write loop, once the batch
   * being written (if any) is durable. Resolves once the new file is durable; on failure the
   * old file stays in use, whole.
   */
  compact(): Promise<void> {
    if (this.compaction === undefined) return Promise.reject(new Error(`${this.name} has no compaction`));
    if (this.isClosed) return Promise.reject(new StorageError(`${this.errorCode}_closed`, `${this.name} is closed`));
    return new Promise<void>((resolve, reject) => {
      this.rewriteWaiting.push({ resolve, reject });
      this.kick();
    });
  }

  /**
   * Creates `nextPath` (durably) and sends later appends there; appends made before stay
   * for the current file and are written first. Not for a compacting log.
   */
  rotate(nextPath: string): void {
    if (this.compaction !== undefined) throw new Error(`${this.name} is compacted, not rotated`);
    fs.closeSync(openForAppend(nextPath, this.mode));
    this.currentPath = nextPath;
  }

  /** Files with appends queued or being written. */
  busyPaths(): Set<string> {
    const busy = new Set(this.queue.map((entry) => entry.path));
    if (this.inFlightPath !== null) busy.add(this.inFlightPath);
    return busy;
  }

  /** Resolves once every append (and rewrite) asked for so far has been settled. */
  async flushed(): Promise<void> {
    while (this.flushing !== null) await this.flushing;
  }

  /** Refuses new appends, waits for queued ones to be settled, and closes the file. */
  async close(): Promise<void> {
    this.isClosed = true;
    await this.flushed();
    if (this.file !== null) {
      fs.closeSync(this.file.fd);
      this.file = null;
    }
  }

  private kick(): void {
    this.flushing ??= this.writeLoop();
  }

  /** The only place the files change after `open`: batches, cuts and rewrites, one at a time. */
  private async writeLoop(): Promise<void> {
    // Never finish synchronously (`flushing` must be set before it is cleared), and let the
    // appends made in the same tick as the first join its batch.
    await Promise.resolve();
    try {
      for (;;) {
        if (this.rewriteWaiting.length > 0) {
          const waiters = this.rewriteWaiting;
          this.rewriteWaiting = [];
          try {
            this.rewrite();
            for (const waiter of waiters) waiter.resolve();
          } catch (error) {
            for (const waiter of waiters) waiter.reject(error as Error);
          }
          continue;
        }
        if (this.checkCompaction) {
          this.checkCompaction = false;
          if (this.compaction?.due?.(this.file?.length ?? 0, this.bytesAfterRewrite) === true) {
            try {
              this.rewrite();
            } catch {
              // Compaction is an optimisation: the file stays as it is, and is tried again after a later batch.
            }
          }
          continue;
        }
        if (this.queue.length === 0) break;
        await this.writeBatch(this.takeBatch());
      }
    } finally {
      this.flushing = null;
    }
  }

  /** Leading queued appends for one file, up to MAX_BATCH_BYTES (at least one). */
  private takeBatch(): QueuedAppend[] {
    const filePath = this.queue[0]!.path;
    let count = 0;
    let bytes = 0;
    while (count < this.queue.length && this.queue[count]!.path === filePath) {
      bytes += this.queue[count]!.bytes;
      if (count > 0 && bytes > MAX_BATCH_BYTES) break;
      count++;
    }
    return this.queue.splice(0, count);
  }

  private async writeBatch(batch: QueuedAppend[]): Promise<void> {
    this.inFlightPath = batch[0]!.path;
    try {
      if (this.failure !== null) throw this.failure;
      await this.cutTornBytes();
      const file = this.fileFor(batch[0]!.path);
      const chunks = batch.flatMap((entry) => entry.chunks);
      const data = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      this.torn = file; // until the batch is durable
      for (let written = 0; written < data.length; ) {
        written += await this.io.write(file.fd, data, written, data.length - written);
      }
      await this.sync(file);
      file.length += data.length;
      this.torn = null;
      this.counters.syncs++;
      this.checkCompaction = this.compaction?.due !== undefined;
      for (const entry of batch) entry.resolve();
    } catch (error) {
      for (const entry of batch) entry.reject(error as Error);
    } finally {
      this.inFlightPath = null;
    }
  }

  /** Makes a written batch durable; with `refuseAfterFailedSync`, a failure ends the log's appends. */
  private async sync(file: OpenFile): Promise<void> {
    try {
      await this.io.fdatasync(file.fd);
    } catch (error) {
      if (!this.refuseAfterFailedSync) throw error;
      this.failure = new StorageError(`${this.errorCode}_failed`, `${this.name} failed to sync: ${(error as Error).message}`);
      throw this.failure;
    }
  }

  /** Cuts a failed batch's bytes off its file, durably, before anything else is written. */
  private async cutTornBytes(): Promise<void> {
    const torn = this.torn;
    if (torn === null) return;
    try {
      await this.io.ftruncate(torn.fd, torn.length);
      await this.io.fdatasync(torn.fd);
    } catch (error) {
      this.failure = new StorageError(
        `${this.errorCode}_failed`,
        `${this.name} failed: the bytes of a failed write could not be cut off: ${(error as Error).message}`,
      );
      throw this.failure;
    }
    this.torn = null;
  }

  private fileFor(filePath: string): OpenFile {
    if (this.file !== null && this.file.path === filePath) return this.file;
    const fd = fs.openSync(filePath, 'a');
    const next = { path: filePath, fd, length: fs.fstatSync(fd).size };
    if (this.file !== null) fs.closeSync(this.file.fd);
    this.file = next;
    return next;
  }

  /**
   * Replaces the file with the live content (mode set before any byte is written), written in
   * chunks, atomically and durably, and resolves the appends still queued (they are in it).
   * Only at `open` or inside the write loop. On failure the old file stays in use.
   */
  private rewrite(): void {
    const compaction = this.compaction!;
    const filePath = this.currentPath;
    let written = 0;
    try {
      writeFileAtomicWith(filePath, (fd) => {
        if (this.mode !== undefined) fs.fchmodSync(fd, this.mode);
        let pending: Uint8Array[] = [];
        let pendingBytes = 0;
        const flush = (): void => {
          const data = Buffer.concat(pending);
          for (let offset = 0; offset < data.length; ) offset += fs.writeSync(fd, data, offset, data.length - offset);
          written += data.length;
          pending = [];
          pendingBytes = 0;
        };
        for (const record of compaction.live()) {
          const bytes = this.framing.encode(record);
          pending.push(bytes);
          pendingBytes += bytes.length;
          if (pendingBytes >= LOG_CHUNK_BYTES) flush();
        }
        flush();
      });
    } catch (error) {
      this.followRenamedFile(filePath);
      throw error;
    }
    this.switchTo(filePath, written);
    this.failure = null;
    for (const entry of this.queue.splice(0)) entry.resolve();
  }

  /**
   * After a rewrite failed past its rename (the directory fsync), the path names the new file:
   * appends go there, but are refused until a rewrite succeeds, as the rename may not be durable.
   */
  private followRenamedFile(filePath: string): void {
    if (this.file === null) return;
    let renamed: boolean;
    try {
      const open = fs.fstatSync(this.file.fd);
      const named = fs.statSync(filePath);
      renamed = open.ino !== named.ino || open.dev !== named.dev;
    } catch {
      return;
    }
    if (!renamed) return;
    this.switchTo(filePath, fs.statSync(filePath).size);
    this.failure = new StorageError(`${this.errorCode}_failed`, `${this.name} failed: a rewrite of it may not be durable`);
  }

  private switchTo(filePath: string, length: number): void {
    const fd = fs.openSync(filePath, 'a');
    if (this.file !== null) fs.closeSync(this.file.fd);
    this.file = { path: filePath, fd, length };
    this.torn = null;
    this.bytesAfterRewrite = length;
    this.counters.rewrites++;
  }
}

/** Opens `filePath` for appending; a file it creates gets `mode` and a durable directory entry. */
function openForAppend(filePath: string, mode: number | undefined): number {
  let fd: number;
  try {
    fd = fs.openSync(filePath, 'ax', mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return fs.openSync(filePath, 'a');
  }
  try {
    fsyncDirectory(path.dirname(filePath));
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
  return fd;
}
