// One collection: an independent index with its write-ahead log, pending writes, committed
// segments and background refresh and merge. The heart of durability:
//  - a write is validated, encoded as ONE WAL record, appended and applied to the pending
//    buffer in the same synchronous step, and acknowledged once the append is fsynced;
//  - a refresh rotates the WAL and takes the pending buffer in one synchronous step, so the
//    buffer holds exactly the records of the generations before the rotation; the index pool
//    builds them into a segment file, and the main thread commits it (manifest last), swaps
//    the snapshot, then drops the old WAL files;
//  - after a refresh, the merge policy may merge segments in the index pool too. Merges run
//    beside refreshes (one merge at a time per collection); each commit is one synchronous
//    step on the current snapshot, so they never interleave.
// Searches run in the search pool over the snapshot current when they start, pinned until
// they end: files a newer snapshot retired are removed only when no search can still open them.

import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { FilterNode, IndexDocument, SearchRequest, SearchResult } from '../../engine/index.ts';
import { CorruptFileError, WAL_MAX_RECORD_BYTES, WriteAheadLog, readManifest } from '../../storage/index.ts';
import { FolioError } from '../errors.ts';
import { parseSearchPage } from '../pools/index.ts';
import type { IndexPool, SearchPage, SearchPool, SnapshotRef } from '../pools/index.ts';
import { readCollectionConfig } from './collection-config.ts';
import type { CollectionConfig } from './collection-config.ts';
import { WAL_DIR_NAME, directorySizeBytes, removeUnreferencedFiles, segmentFileName } from './collection-layout.ts';
import type {
  Collection,
  CollectionInfo,
  DocumentInput,
  DocumentPatch,
  DocumentSummary,
  StoredDocumentView,
  WriteOptions,
} from './collection-types.ts';
import { applyPatch, buildIndexDocument, toStoredView, toSummary } from './document-model.ts';
import { isValidDocumentId, validateDocumentInputs, validateDocumentPatch } from './document-validation.ts';
import { idsMatchingFilter } from './filter-matches.ts';
import { commitMerge, commitRefresh } from './index-commit.ts';
import type { CommitResult, WrittenSegment } from './index-commit.ts';
import { DEFAULT_MERGE_POLICY, selectMerge } from './merge-policy.ts';
import type { MergePolicyOptions } from './merge-policy.ts';
import { PendingWrites } from './pending-writes.ts';
import type { PendingChange, ReplacedEntry } from './pending-writes.ts';
import { SegmentSet, emptyManifest } from './segment-set.ts';
import type { LiveSegment } from './segment-set.ts';
import { SearchCache } from './search-cache.ts';
import { SnapshotPins } from './snapshot-pins.ts';
import { RefreshScheduler } from './refresh-scheduler.ts';
import type { RefreshOutcome } from './refresh-scheduler.ts';
import { decodeWalRecord, encodeWalRecord, InvalidWalRecordError } from './wal-records.ts';
import type { WalRecord } from './wal-records.ts';

/** SPEC: a write is searchable within 1 s; the background refresh runs this soon after one. */
export const DEFAULT_REFRESH_INTERVAL_MS = 500;
/**
 * Acknowledged documents waiting for a refresh, in bytes of their JSON, beyond which a new write
 * first waits for a refresh: the pending buffer's memory stays bounded under any import rate.
 */
export const MAX_PENDING_BYTES = 24 * 1024 * 1024;
/**
 * Buffered bytes at which the refresh starts without waiting for its timer: a bulk import
 * becomes segments of about this size, built in the index pool while the next ones arrive.
 */
export const REFRESH_AT_PENDING_BYTES = 8 * 1024 * 1024;
/** Most source bytes one segment build takes; a larger refresh builds several in parallel. */
export const SEGMENT_BUILD_BYTES = 8 * 1024 * 1024;

/** The worker pools a collection runs its searches and index builds in. */
export interface CollectionWorkers {
  search: SearchPool;
  index: IndexPool;
}

export interface CollectionOptions {
  /** Delay between a write and the background refresh that makes it searchable. */
  refreshIntervalMs: number;
  mergePolicy: MergePolicyOptions;
  /** Told about failures of background refreshes and merges (they are retried). */
  onBackgroundError: (error: unknown) => void;
  /** Answers of recent searches, shared by the server's collections; null for none. */
  searchCache: SearchCache | null;
}

export const DEFAULT_COLLECTION_OPTIONS: Readonly<CollectionOptions> = Object.freeze({
  refreshIntervalMs: DEFAULT_REFRESH_INTERVAL_MS,
  mergePolicy: DEFAULT_MERGE_POLICY,
  onBackgroundError: () => {},
  searchCache: null,
});

/** What one applied write changed in the pending buffer, to undo it if its append fails. */
interface AppliedWrite {
  seq: number;
  replaced: { entry: ReplacedEntry; wasLive: boolean; isLive: boolean }[];
}

export class FolioCollection implements Collection {
  readonly name: string;
  readonly language: string;
  readonly createdAt: string;
  readonly dir: string;
  /** Unique to this opening of the collection (workers key their readers by it). */
  readonly instanceId = randomUUID();
  private readonly workers: CollectionWorkers;
  private readonly wal: WriteAheadLog;
  private readonly options: CollectionOptions;
  private readonly pending = new PendingWrites();
  private readonly scheduler: RefreshScheduler;
  private snapshot: SegmentSet;
  private snapshotRef: SnapshotRef;
  private readonly pins = new SnapshotPins();
  /** Next segment file number; merges and refreshes reserve numbers before they build. */
  private nextSegmentNumber: number;
  private merging: Promise<void> | null = null;
  private readonly mergeAbort = new AbortController();
  /** Live documents, acknowledged pending writes included. */
  private documents: number;
  /** Sequence number of the last applied write. */
  private writeSeq = 0;
  private closed = false;

  private constructor(
    dir: string,
    config: CollectionConfig,
    snapshot: SegmentSet,
    wal: WriteAheadLog,
    workers: CollectionWorkers,
    options: CollectionOptions,
  ) {
    this.dir = dir;
    this.name = config.name;
    this.language = config.language;
    this.createdAt = config.created_at;
    this.workers = workers;
    this.snapshot = snapshot;
    this.snapshotRef = this.refOf(snapshot);
    this.nextSegmentNumber = snapshot.manifest.nextSegmentNumber;
    this.documents = snapshot.liveCount;
    this.wal = wal;
    this.options = options;
    this.scheduler = new RefreshScheduler({
      intervalMs: options.refreshIntervalMs,
      refresh: () => this.refreshOnce(),
      onError: options.onBackgroundError,
    });
  }

  /**
   * Opens the collection in `dir`: reads the manifest and segments, removes files it does not
   * reference (a crash mid-refresh), replays the WAL into the pending buffer, and schedules a
   * refresh for what it replayed.
   */
  static open(dir: string, workers: CollectionWorkers, options: Partial<CollectionOptions> = {}): FolioCollection {
    const settings: CollectionOptions = { ...DEFAULT_COLLECTION_OPTIONS, ...options };
    const config = readCollectionConfig(dir);
    const manifest = readManifest(dir) ?? emptyManifest();
    const snapshot = SegmentSet.load(dir, manifest);
    let wal: WriteAheadLog | null = null;
    try {
      const referenced = new Set<string>();
      for (const segment of manifest.segments) {
        referenced.add(segment.name);
        if (segment.deletes !== null) referenced.add(segment.deletes);
      }
      removeUnreferencedFiles(dir, referenced);
      const walDir = path.join(dir, WAL_DIR_NAME);
      const records = WriteAheadLog.replay(walDir, manifest.walGeneration);
      wal = WriteAheadLog.open(walDir, manifest.walGeneration);
      wal.removeBefore(manifest.walGeneration);
      const collection = new FolioCollection(dir, config, snapshot, wal, workers, settings);
      for (const bytes of records) {
        let record: WalRecord;
        try {
          record = decodeWalRecord(bytes);
        } catch (error) {
          if (error instanceof InvalidWalRecordError) throw new CorruptFileError(walDir, error.message);
          throw error;
        }
        collection.apply(record);
      }
      if (collection.pending.size > 0) collection.scheduler.schedule();
      return collection;
    } catch (error) {
      snapshot.closeAll();
      void wal?.close();
      throw error;
    }
  }

  info(): CollectionInfo {
    return {
      name: this.name,
      language: this.language,
      created_at: this.createdAt,
      documents: this.documents,
      size_bytes: directorySizeBytes(this.dir),
      segments: this.snapshot.segments.length,
    };
  }

  async upsert(documents: DocumentInput[], options: WriteOptions): Promise<DocumentSummary[]> {
    this.assertOpen();
    validateDocumentInputs(documents);
    const indexedAt = new Date().toISOString();
    return this.upsertIndexed(
      documents.map((input) => buildIndexDocument(input, indexedAt)),
      options,
    );
  }

  /** Upserts documents the server built itself (extracted files); they must be valid. */
  async upsertIndexed(docs: IndexDocument[], options: WriteOptions): Promise<DocumentSummary[]> {
    this.assertOpen();
    const badId = docs.find((doc) => !isValidDocumentId(doc.id));
    if (badId !== undefined) throw new FolioError('validation_failed', `invalid document id '${String(badId.id)}'`);
    await this.write({ op: 'upsert', docs }, options);
    return docs.map(toSummary);
  }

  async patch(id: string, patch: DocumentPatch, options: WriteOptions): Promise<DocumentSummary> {
    this.assertOpen();
    validateDocumentPatch(patch);
    const updated = applyPatch(this.lookup(id) ?? this.notFound(id), patch, new Date().toISOString());
    await this.write({ op: 'upsert', docs: [updated] }, options);
    return toSummary(updated);
  }

  async deleteDocument(id: string, options: WriteOptions): Promise<void> {
    this.assertOpen();
    if (this.lookup(id) === null) this.notFound(id);
    await this.write({ op: 'delete', ids: [id] }, options);
  }

  /**
   * Deletes every live document whose current version matches `filter`, as ONE WAL record
   * (atomic and durable like any write). Finding the ids and applying the record happen in
   * the same synchronous step, so no write can slip in between.
   */
  async deleteByFilter(filter: FilterNode, options: WriteOptions): Promise<string[]> {
    this.assertOpen();
    const ids = idsMatchingFilter(filter, this.snapshot, this.pending);
    if (ids.length === 0) return ids;
    await this.write({ op: 'delete', ids }, options);
    return ids;
  }

  hasDocument(id: string): boolean {
    this.assertOpen();
    return this.lookup(id) !== null;
  }

  getDocument(id: string): StoredDocumentView {
    this.assertOpen();
    return toStoredView(this.lookup(id) ?? this.notFound(id));
  }

  async refresh(): Promise<void> {
    this.assertOpen();
    await this.scheduler.runNow();
  }

  async search(request: SearchRequest): Promise<SearchResult> {
    return parseSearchPage(await this.searchPage(request));
  }

  /** Runs in the search pool over the current snapshot, which stays on disk until it ends. */
  async searchPage(request: SearchRequest): Promise<SearchPage> {
    this.assertOpen();
    const ref = this.snapshotRef;
    const cache = this.options.searchCache;
    const key = cache === null ? '' : SearchCache.key(this.instanceId, ref.generation, request);
    const cached = cache?.get(key);
    if (cached !== undefined) return cached;
    this.pins.pin(ref.generation);
    try {
      const page = await this.workers.search.search(ref, request);
      cache?.set(key, page);
      return page;
    } finally {
      this.removeRetired(this.pins.unpin(ref.generation));
    }
  }

  /** Resolves once no merge runs (merges start in the background after refreshes). */
  async mergesSettled(): Promise<void> {
    while (this.merging !== null) await this.merging;
  }

  /** Segments of the current snapshot (for tests and stats). */
  segmentNames(): string[] {
    return this.snapshot.segments.map((segment) => segment.meta.name);
  }

  /**
   * Stops timers and abandons a running merge, then waits for a running refresh, for the
   * searches in flight (they finish on their snapshot; new ones get 404) and for queued WAL
   * syncs; closes files and tells the search workers to drop their readers.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.mergeAbort.abort();
    await this.scheduler.stop(new FolioError('collection_not_found', `collection '${this.name}' does not exist`));
    await this.merging;
    await this.pins.idle();
    await this.wal.close();
    this.snapshot.closeAll();
    this.workers.search.forget(this.instanceId);
  }

  private assertOpen(): void {
    if (this.closed) throw new FolioError('collection_not_found', `collection '${this.name}' does not exist`);
  }

  private notFound(id: string): never {
    throw new FolioError('document_not_found', `document '${id}' does not exist in collection '${this.name}'`);
  }

  /** Realtime view of `id`: pending writes first, then the committed segments. */
  private lookup(id: string): IndexDocument | null {
    const change = this.pending.lookup(id);
    return change !== undefined ? change : this.snapshot.document(id);
  }

  private isLive(id: string): boolean {
    const change = this.pending.lookup(id);
    return change !== undefined ? change !== null : this.snapshot.has(id);
  }

  /**
   * Appends the record to the WAL and applies it to the pending buffer in the same
   * synchronous step; resolves once the append is durable (and searchable, if asked).
   */
  private async write(record: WalRecord, options: WriteOptions): Promise<void> {
    const bytes = encodeWalRecord(record);
    if (bytes.length > WAL_MAX_RECORD_BYTES) {
      // Replay would take a longer record for damage, so it is never written. Only a delete by
      // filter of millions of documents gets here (request bodies are far smaller).
      throw new FolioError('payload_too_large', 'the write is too large to log as one record; split it (e.g. narrow the filter)');
    }
    if (this.pending.bytes > MAX_PENDING_BYTES) {
      // Backpressure: let a refresh take the buffer before it grows further.
      await this.scheduler.runNow();
      this.assertOpen();
    }
    const durable = this.wal.append(bytes);
    const applied = this.apply(record);
    this.scheduler.schedule();
    if (this.pending.bytes >= REFRESH_AT_PENDING_BYTES) this.scheduler.hurry();
    try {
      await durable;
    } catch (error) {
      this.undo(applied);
      throw error;
    }
    if (options.waitForRefresh) await this.scheduler.waitFor(applied.seq);
  }

  private apply(record: WalRecord): AppliedWrite {
    const seq = ++this.writeSeq;
    const changes: [string, PendingChange][] =
      record.op === 'upsert' ? record.docs.map((doc) => [doc.id, doc]) : record.ids.map((id) => [id, null]);
    const replaced: AppliedWrite['replaced'] = [];
    for (const [id, change] of changes) {
      const wasLive = this.isLive(id);
      const isLive = change !== null;
      replaced.push({ entry: this.pending.set(id, change, seq), wasLive, isLive });
      this.documents += Number(isLive) - Number(wasLive);
    }
    return { seq, replaced };
  }

  /** Takes back a write whose append failed, where no later write or refresh has taken it. */
  private undo(applied: AppliedWrite): void {
    for (let i = applied.replaced.length - 1; i >= 0; i--) {
      const { entry, wasLive, isLive } = applied.replaced[i];
      if (this.pending.undo(entry)) this.documents += Number(wasLive) - Number(isLive);
    }
  }

  /** One refresh, run by the scheduler (never two at once); merges are started after it. */
  private async refreshOnce(): Promise<RefreshOutcome> {
    const covered = this.writeSeq;
    if (this.pending.size === 0) return { covered, followUp: null };
    const walGeneration = this.wal.rotate();
    const changes = this.pending.take();
    const docs: IndexDocument[] = [];
    for (const change of changes.values()) if (change !== null) docs.push(change);
    // A large refresh is built as several segments at once, each in bounded memory.
    const builds = chunkByBytes(docs, SEGMENT_BUILD_BYTES).map((chunk) => ({
      name: segmentFileName(this.nextSegmentNumber++),
      chunk,
    }));
    let result: CommitResult;
    try {
      const settled = await Promise.allSettled(
        builds.map(async ({ name, chunk }): Promise<WrittenSegment> => ({
          name,
          ...(await this.workers.index.writeSegment(path.join(this.dir, name), this.language, chunk)),
        })),
      );
      const failed = settled.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
      if (failed !== undefined) throw failed.reason;
      const written = settled.map((outcome) => (outcome as PromiseFulfilledResult<WrittenSegment>).value);
      result = commitRefresh(this.dir, this.snapshot, changes, written, walGeneration, this.nextSegmentNumber);
    } catch (error) {
      this.removeFiles(builds.map((build) => build.name));
      this.pending.restoreTaken();
      throw error;
    }
    this.install(result);
    this.pending.commitTaken();
    this.wal.removeBefore(walGeneration);
    this.startMerging();
    return { covered, followUp: null };
  }

  /** Starts the merge loop unless it runs already; it stops when the policy is satisfied. */
  private startMerging(): void {
    if (this.merging !== null || this.closed) return;
    this.merging = this.mergeWhileNeeded()
      .catch((error: unknown) => {
        if (!this.closed) this.options.onBackgroundError(error);
      })
      .finally(() => {
        this.merging = null;
      });
  }

  private async mergeWhileNeeded(): Promise<void> {
    while (!this.closed) {
      const selection = selectMerge(this.snapshot.manifest.segments, this.options.mergePolicy);
      if (selection === null) return;
      await this.mergeOnce(selection.segments);
    }
  }

  /**
   * Merges the named segments in the index pool, then commits on whatever snapshot is current
   * by then. The snapshot it started from stays pinned, so its files stay on disk meanwhile.
   */
  private async mergeOnce(names: readonly string[]): Promise<void> {
    const start = this.snapshot;
    const chosen = new Set(names);
    const sources: LiveSegment[] = start.segments.filter((segment) => chosen.has(segment.meta.name));
    const name = segmentFileName(this.nextSegmentNumber++);
    const refs = sources.map(({ meta }) => ({ name: meta.name, deletes: meta.deletes }));
    const generation = start.manifest.generation;
    this.pins.pin(generation);
    let written: WrittenSegment;
    try {
      const built = await this.workers.index.mergeSegments(this.dir, this.language, refs, path.join(this.dir, name), this.mergeAbort.signal);
      written = { name, ...built };
    } catch (error) {
      this.removeFiles([name]);
      throw error;
    } finally {
      this.removeRetired(this.pins.unpin(generation));
    }
    if (this.closed) {
      this.removeFiles([name]);
      return;
    }
    this.install(commitMerge(this.dir, this.snapshot, sources, written, this.nextSegmentNumber));
  }

  /** Swaps in a committed snapshot; what it no longer lists goes once no search can open it. */
  private install(result: CommitResult): void {
    const previousGeneration = this.snapshot.manifest.generation;
    this.snapshot = result.snapshot;
    this.snapshotRef = this.refOf(result.snapshot);
    for (const segment of result.retired) segment.reader.close();
    this.removeRetired(this.pins.retire(result.obsoleteFiles, previousGeneration));
  }

  private refOf(snapshot: SegmentSet): SnapshotRef {
    return {
      collectionId: this.instanceId,
      dir: this.dir,
      language: this.language,
      generation: snapshot.manifest.generation,
      segments: snapshot.manifest.segments.map(({ name, deletes }) => ({ name, deletes })),
    };
  }

  private removeRetired(files: string[]): void {
    if (files.length > 0) this.removeFiles(files);
  }

  private removeFiles(names: readonly string[]): void {
    for (const name of names) {
      try {
        fs.rmSync(path.join(this.dir, name), { force: true });
      } catch (error) {
        // A leftover is removed at the next open; the commit itself stands.
        this.options.onBackgroundError(error);
      }
    }
  }
}

/** Splits `docs` into runs of about `maxBytes` source bytes each (at least one doc a run). */
function chunkByBytes(docs: readonly IndexDocument[], maxBytes: number): IndexDocument[][] {
  const chunks: IndexDocument[][] = [];
  let chunk: IndexDocument[] = [];
  let bytes = 0;
  for (const doc of docs) {
    if (chunk.length > 0 && bytes + doc.bytes > maxBytes) {
      chunks.push(chunk);
      chunk = [];
      bytes = 0;
    }
    chunk.push(doc);
    bytes += doc.bytes;
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}
