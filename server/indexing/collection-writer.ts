// The write side of one collection, the heart of durability: a write is encoded as ONE WAL
// record, appended, and applied to the pending buffer in the same synchronous step, and
// acknowledged once the append is fsynced. A write whose append fails is taken back out of
// the buffer. The writer keeps the live document count and asks the updater for a refresh
// (soon, at once when the buffer is large). When the buffer is full a write waits a moment
// for a refresh to take it, and is otherwise refused with 503 `overloaded` and `Retry-After`
// (backpressure without stalling a request for seconds). While refreshes fail, the buffer a
// refresh has taken counts too, so failed retries cannot let full buffers pile up.

import { WAL_MAX_RECORD_BYTES } from '../../storage/index.ts';
import type { WriteAheadLog } from '../../storage/index.ts';
import { FolioError } from '../errors/index.ts';
import { BodyDocument } from '../ingest/index.ts';
import type { WriteOptions } from './collection-types.ts';
import type { PendingChange, PendingWrites, ReplacedEntry } from './pending-writes.ts';
import type { RefreshScheduler } from './refresh-scheduler.ts';
import { encodeWalRecord } from './wal-records.ts';
import type { WalRecord } from './wal-records.ts';

/**
 * Acknowledged documents waiting for a refresh, in bytes of their JSON, beyond which a new write
 * first waits for a refresh: the pending buffer's memory stays bounded under any import rate.
 */
export const MAX_PENDING_BYTES = 16 * 1024 * 1024;
/** Longest a write waits for a refresh to take a full buffer before it is refused. */
export const BACKPRESSURE_WAIT_MS = 300;
/** `Retry-After` of a write refused because the buffer stayed full. */
export const OVERLOADED_RETRY_AFTER_SECONDS = 1;
const BACKPRESSURE_POLL_MS = 10;

/** When writes wait, and how long, before they are refused (tests shrink them). */
export interface Backpressure {
  maxPendingBytes: number;
  waitMs: number;
}

export const DEFAULT_BACKPRESSURE: Readonly<Backpressure> = Object.freeze({ maxPendingBytes: MAX_PENDING_BYTES, waitMs: BACKPRESSURE_WAIT_MS });
/**
 * Buffered bytes at which the refresh starts without waiting for its timer: a bulk import
 * becomes segments of about this size, built in the index pool while the next ones arrive.
 */
export const REFRESH_AT_PENDING_BYTES = 8 * 1024 * 1024;

/** What one applied write changed in the pending buffer, to undo it if its append fails. */
interface AppliedWrite {
  seq: number;
  replaced: { entry: ReplacedEntry; wasLive: boolean; isLive: boolean }[];
}

export interface CollectionWriterOptions {
  wal: WriteAheadLog;
  pending: PendingWrites;
  /** Whether a document is live now (pending writes included): the reader's realtime view. */
  isLive: (id: string) => boolean;
  /** Live documents in the committed snapshot when the collection opens. */
  committedDocuments: number;
  /** The collection's refresh schedule, which writes ask for refreshes on. */
  scheduler: RefreshScheduler;
  /** Throws once the collection is closed (a write waiting for backpressure rechecks it). */
  assertOpen: () => void;
  /** Default DEFAULT_BACKPRESSURE. */
  backpressure?: Backpressure;
}

export class CollectionWriter {
  private readonly options: CollectionWriterOptions;
  /** Live documents, acknowledged pending writes included. */
  private liveDocuments: number;
  /** Sequence number of the last applied write. */
  private lastSeq = 0;

  private readonly backpressure: Backpressure;

  constructor(options: CollectionWriterOptions) {
    this.options = options;
    this.liveDocuments = options.committedDocuments;
    this.backpressure = options.backpressure ?? DEFAULT_BACKPRESSURE;
  }

  get documents(): number {
    return this.liveDocuments;
  }

  /** The sequence number of the last applied write: a refresh taking the buffer covers it. */
  get seq(): number {
    return this.lastSeq;
  }

  /**
   * Appends the record to the WAL and applies it to the pending buffer in the same
   * synchronous step; resolves once the append is durable (and searchable, if asked).
   */
  async write(record: WalRecord, options: WriteOptions): Promise<void> {
    const { scheduler } = this.options;
    const bytes = encodeWalRecord(record);
    if (bytes.length > WAL_MAX_RECORD_BYTES) {
      // Replay would take a longer record for damage, so it is never written. Only a delete by
      // filter of millions of documents gets here (request bodies are far smaller).
      throw new FolioError('payload_too_large', 'the write is too large to log as one record; split it (e.g. narrow the filter)');
    }
    await this.awaitRoom();
    const durable = this.options.wal.append(bytes);
    const applied = this.apply(record);
    scheduler.schedule();
    if (this.options.pending.bytes >= REFRESH_AT_PENDING_BYTES) scheduler.hurry();
    try {
      await durable;
    } catch (error) {
      this.undo(applied);
      throw error;
    }
    if (options.refreshNow) scheduler.ensureQueued();
    if (options.waitForRefresh) await scheduler.waitFor(applied.seq);
  }

  /**
   * Appends records in order, each applied in the same synchronous step as its append, and
   * resolves once all are durable (one group commit for the lot). The writer of a cluster
   * applies the shared log this way, after `awaitRoom`.
   */
  async writeMany(records: readonly WalRecord[]): Promise<void> {
    const { scheduler } = this.options;
    const appends: Promise<void>[] = [];
    for (const record of records) {
      const durable = this.options.wal.append(encodeWalRecord(record));
      const applied = this.apply(record);
      appends.push(durable.catch((error: unknown) => {
        this.undo(applied);
        throw error;
      }));
    }
    scheduler.schedule();
    if (this.options.pending.bytes >= REFRESH_AT_PENDING_BYTES) scheduler.hurry();
    await Promise.all(appends);
  }

  /**
   * Backpressure: resolves at once while the buffer has room; when it is full, has a refresh
   * take it and waits up to BACKPRESSURE_WAIT_MS for it, then refuses the write with 503
   * `overloaded` (nothing of it is written). The HTTP layer asks this before it reads a large
   * batch's body, so a refused body is never parsed; `write` asks again.
   */
  async awaitRoom(): Promise<void> {
    const { pending, scheduler } = this.options;
    // While refreshes fail, the buffer a refresh has taken comes back to this one when it
    // fails: it counts too, or each failed retry would let another full buffer in.
    const held = (): number => pending.bytes + (scheduler.failing ? pending.takenBytes : 0);
    if (held() <= this.backpressure.maxPendingBytes) return;
    scheduler.ensureQueued();
    const { maxPendingBytes, waitMs } = this.backpressure;
    const deadline = performance.now() + waitMs;
    while (held() > maxPendingBytes) {
      if (performance.now() >= deadline) {
        throw new FolioError(
          'overloaded',
          'the collection is indexing a backlog of writes; nothing was written — retry after Retry-After seconds',
          undefined,
          OVERLOADED_RETRY_AFTER_SECONDS,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, BACKPRESSURE_POLL_MS));
      this.options.assertOpen();
    }
  }

  /** Applies a record to the pending buffer (a new write, or one replayed from the WAL). */
  apply(record: WalRecord): AppliedWrite {
    const seq = ++this.lastSeq;
    const changes = recordChanges(record);
    const replaced: AppliedWrite['replaced'] = [];
    for (const [id, change] of changes) {
      const wasLive = this.options.isLive(id);
      const isLive = change !== null;
      replaced.push({ entry: this.options.pending.set(id, change, seq), wasLive, isLive });
      this.liveDocuments += Number(isLive) - Number(wasLive);
    }
    return { seq, replaced };
  }

  /** Takes back a write whose append failed, where no later write or refresh has taken it. */
  private undo(applied: AppliedWrite): void {
    for (let i = applied.replaced.length - 1; i >= 0; i--) {
      const { entry, wasLive, isLive } = applied.replaced[i];
      if (this.options.pending.undo(entry)) this.liveDocuments += Number(wasLive) - Number(isLive);
    }
  }
}

/** The pending changes a record makes, in order (a batch body's documents stay views of its bytes). */
function recordChanges(record: WalRecord): [string, PendingChange][] {
  switch (record.op) {
    case 'upsert':
      return record.docs.map((doc) => [doc.id, doc]);
    case 'upsert-body':
      return record.body.ids.map((id, index) => [id, new BodyDocument(record.body, index, record.indexedAt)]);
    case 'delete':
      return record.ids.map((id) => [id, null]);
  }
}
