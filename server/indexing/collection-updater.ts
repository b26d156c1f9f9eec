// The index updater of one collection (Tantivy's segment updater): turns pending writes into
// segments and merges segments, committing each change as a new snapshot.
//  - A refresh rotates the WAL and takes the pending buffer in one synchronous step, so the
//    buffer holds exactly the records of the generations before the rotation; the index pool
//    builds them into segment files (documents of batch bodies go as their bytes), and the main
//    thread commits them (manifest last), installs the snapshot, then drops the old WAL files.
//    The documents' own vectors (user embedders) are written with each segment and committed
//    with it, so a write is searchable by its vector as soon as by its words.
//    The scheduler never runs two refreshes at once.
//  - After a refresh, the merge policy may merge segments in the index pool too. Merges run
//    beside refreshes (one merge at a time per collection); each commit is one synchronous
//    step on the current snapshot, so they never interleave.
//  - Once no write came for the policy's `quietAfterMs` after a refresh, the merge loop runs
//    with the quiet policy (merge-policy.ts), fewer segments per tier, until a write comes.
//  - Every segment indexes the words of the collection's searchable metadata fields. When they
//    change, the merge loop re-indexes the segments that index others, one segment at a time,
//    from their stored documents (engine/merge.ts, in bounded parts), each committed like a
//    merge: searches keep using the old segments until each is replaced, a crash loses nothing,
//    and the loop resumes where it stopped when the collection opens again.

import path from 'node:path';
import type { IndexDocument } from '../../engine/index.ts';
import type { WriteAheadLog } from '../../storage/index.ts';
import { BodyDocument, sliceBodyDocuments } from '../ingest/index.ts';
import type { BatchBody, BodyDocumentsSlice, VectorRules } from '../ingest/index.ts';
import type { IndexAnalysis, IndexPool } from '../pools/index.ts';
import type { CollectionReader } from './collection-reader.ts';
import { segmentFileName, vectorsFileName } from './collection-layout.ts';
import { commitMerge, commitRefresh } from './index-commit.ts';
import type { CommitResult, WrittenSegment } from './index-commit.ts';
import { quietPolicy, selectMerge } from './merge-policy.ts';
import type { MergePolicyOptions } from './merge-policy.ts';
import type { PendingWrites } from './pending-writes.ts';
import type { RefreshOutcome } from './refresh-scheduler.ts';
import type { LiveSegment } from './segment-set.ts';

/**
 * A refresh's segment without the own-vector files of user embedders removed or resized while it
 * was built (those files are removed; the embedder embeds the segment as it is now, if at all).
 */
function withoutStaleVectors(written: WrittenSegment, before: VectorRules, now: VectorRules, reader: CollectionReader): WrittenSegment {
  if (written.vectors === undefined) return written;
  const vectors: Record<string, string> = {};
  const stale: string[] = [];
  for (const [embedder, file] of Object.entries(written.vectors)) {
    if (now[embedder] === before[embedder]) vectors[embedder] = file;
    else stale.push(file);
  }
  if (stale.length === 0) return written;
  reader.removeFiles(stale);
  return { ...written, vectors };
}

/** Most source bytes one segment build takes; a larger refresh builds several in parallel. */
export const SEGMENT_BUILD_BYTES = 8 * 1024 * 1024;

export interface CollectionUpdaterOptions {
  dir: string;
  /** The language and the searchable metadata fields, as they are now (a settings change changes the fields). */
  analysis: () => IndexAnalysis;
  wal: WriteAheadLog;
  pending: PendingWrites;
  reader: CollectionReader;
  indexPool: IndexPool;
  mergePolicy: MergePolicyOptions;
  /** The sequence number of the last applied write (a refresh covers it). */
  lastWriteSeq: () => number;
  /**
   * The collection's `user` embedders as they are now (name → dimensions): a refresh writes the
   * documents' own vectors beside each segment, so they are searchable with it.
   */
  ownVectorRules: () => VectorRules;
  /** Told about failures of background merges (refresh failures go to the scheduler). */
  onBackgroundError: (error: unknown) => void;
}

export class CollectionUpdater {
  private readonly options: CollectionUpdaterOptions;
  /** Next segment file number; merges and refreshes reserve numbers before they build. */
  private nextSegmentNumber: number;
  private merging: Promise<void> | null = null;
  /** Set after a refresh while the quiet policy would merge; fires when no write came meanwhile. */
  private quietTimer: NodeJS.Timeout | null = null;
  /** The last write sequence number when writes were found to have stopped (-1: not quiet). */
  private quietAtSeq = -1;
  private readonly mergeAbort = new AbortController();
  private closed = false;

  constructor(options: CollectionUpdaterOptions) {
    this.options = options;
    this.nextSegmentNumber = options.reader.snapshot.manifest.nextSegmentNumber;
  }

  /** One refresh, run by the scheduler (never two at once); merges are started after it. */
  async refreshOnce(): Promise<RefreshOutcome> {
    const { dir, wal, pending, reader, indexPool } = this.options;
    const analysis = this.options.analysis();
    const covered = this.options.lastWriteSeq();
    if (pending.size === 0) {
      // Nothing to build (the last writes were refreshed already): writes may have stopped,
      // so the merges for a quiet collection are checked for all the same.
      this.awaitQuiet();
      return { covered, followUp: null };
    }
    const walGeneration = wal.rotate();
    const changes = pending.take();
    const docs: (IndexDocument | BodyDocument)[] = [];
    for (const change of changes.values()) if (change !== null) docs.push(change);
    // A large refresh is built as several segments at once, each in bounded memory.
    const rules = this.options.ownVectorRules();
    const generation = reader.snapshot.manifest.generation;
    const builds = chunkByBytes(docs, SEGMENT_BUILD_BYTES).map((chunk) => {
      const name = segmentFileName(this.nextSegmentNumber++);
      const ownVectors = Object.entries(rules).map(([embedder, dims]) => ({ embedder, dims, fileName: vectorsFileName(name, embedder, generation) }));
      return { name, ownVectors, ...buildInput(chunk) };
    });
    let result: CommitResult;
    try {
      const settled = await Promise.allSettled(
        builds.map(async ({ name, built, bodies, ownVectors }): Promise<WrittenSegment> => ({
          name,
          ...(await indexPool.writeSegment(path.join(dir, name), analysis, built, bodies, ownVectors)),
        })),
      );
      const failed = settled.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
      if (failed !== undefined) throw failed.reason;
      const written = settled.map((outcome) => withoutStaleVectors((outcome as PromiseFulfilledResult<WrittenSegment>).value, rules, this.options.ownVectorRules(), reader));
      result = commitRefresh(dir, reader.snapshot, changes, written, walGeneration, this.nextSegmentNumber);
    } catch (error) {
      reader.removeFiles(builds.flatMap((build) => [build.name, ...build.ownVectors.map((file) => file.fileName)]));
      pending.restoreTaken();
      throw error;
    }
    reader.install(result);
    pending.commitTaken();
    wal.removeBefore(walGeneration);
    this.startMerging();
    this.awaitQuiet();
    return { covered, followUp: null };
  }

  /** Resolves once no merge runs (merges start in the background after refreshes). */
  async mergesSettled(): Promise<void> {
    while (this.merging !== null) await this.merging;
  }

  /** A merge or a re-index is running or a quiet merge is due (a collection is not idle meanwhile). */
  get busy(): boolean {
    return this.merging !== null || this.quietTimer !== null || this.reindexProgress() !== null;
  }

  /** Abandons a running merge and waits for it to stop; no merge starts after this. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.quietTimer !== null) clearTimeout(this.quietTimer);
    this.quietTimer = null;
    this.mergeAbort.abort();
    await this.merging;
  }

  /** Starts the merge loop unless it runs already; it stops when the policy is satisfied. */
  startMerging(): void {
    if (this.merging !== null || this.closed) return;
    this.merging = this.mergeWhileNeeded()
      .catch((error: unknown) => {
        if (!this.closed) this.options.onBackgroundError(error);
      })
      .finally(() => {
        this.merging = null;
      });
  }

  /**
   * After a refresh, or when the collection opens: if the quiet policy would merge, checks again
   * once `quietAfterMs` passed; when no write came meanwhile, the merge loop runs with the quiet
   * policy.
   */
  awaitQuiet(): void {
    const { mergePolicy, lastWriteSeq } = this.options;
    if (this.quietTimer !== null) clearTimeout(this.quietTimer);
    this.quietTimer = null;
    if (this.closed || !Number.isFinite(mergePolicy.quietAfterMs)) return;
    if (selectMerge(this.options.reader.snapshot.manifest.segments, quietPolicy(mergePolicy)) === null) return;
    const seq = lastWriteSeq();
    this.quietTimer = setTimeout(() => {
      this.quietTimer = null;
      // A write came: its refresh waits for quiet again.
      if (this.closed || lastWriteSeq() !== seq || this.options.pending.size > 0) return;
      this.quietAtSeq = seq;
      this.startMerging();
    }, mergePolicy.quietAfterMs);
  }

  /** The policy for the next merge: the quiet one while no write came since writes stopped. */
  private currentPolicy(): MergePolicyOptions {
    const { mergePolicy, lastWriteSeq } = this.options;
    return this.quietAtSeq === lastWriteSeq() ? quietPolicy(mergePolicy) : mergePolicy;
  }

  private async mergeWhileNeeded(): Promise<void> {
    while (!this.closed) {
      const selection = selectMerge(this.options.reader.snapshot.manifest.segments, this.currentPolicy());
      if (selection !== null) {
        await this.mergeOnce(selection.segments);
        continue;
      }
      // Then the segments that index other metadata fields than the collection searches, one by one.
      const stale = staleSegments(this.options.reader.snapshot.segments, this.options.analysis().searchFields);
      if (stale.length === 0) return;
      await this.mergeOnce([stale[0].meta.name]);
    }
  }

  /**
   * How far re-indexing for the searchable metadata fields has come: null when every segment
   * indexes them; else the documents of the segments that do, of all.
   */
  reindexProgress(): { fields: string[]; documentsDone: number; documentsTotal: number } | null {
    const fields = this.options.analysis().searchFields;
    const segments = this.options.reader.snapshot.segments;
    const stale = staleSegments(segments, fields);
    if (stale.length === 0) return null;
    const live = (segment: LiveSegment): number => segment.reader.docCount - (segment.deleted?.size ?? 0);
    const documentsTotal = segments.reduce((sum, segment) => sum + live(segment), 0);
    return { fields: [...fields], documentsDone: documentsTotal - stale.reduce((sum, segment) => sum + live(segment), 0), documentsTotal };
  }

  /**
   * Merges the named segments in the index pool, then commits on whatever snapshot is current
   * by then. The snapshot it started from stays pinned, so its files stay on disk meanwhile.
   */
  private async mergeOnce(names: readonly string[]): Promise<void> {
    const { dir, reader, indexPool } = this.options;
    const analysis = this.options.analysis();
    const start = reader.snapshot;
    const chosen = new Set(names);
    const sources: LiveSegment[] = start.segments.filter((segment) => chosen.has(segment.meta.name));
    const name = segmentFileName(this.nextSegmentNumber++);
    const refs = sources.map(({ meta }) => ({ name: meta.name, deletes: meta.deletes, ...(meta.vectors !== undefined && { vectors: meta.vectors }) }));
    // Embedders every source has vectors for: the merged segment gets theirs, without embedding again.
    const embedders = Object.keys(sources[0]?.meta.vectors ?? {}).filter((embedder) => sources.every(({ meta }) => meta.vectors?.[embedder] !== undefined));
    const vectors = embedders.map((embedder) => ({ embedder, fileName: vectorsFileName(name, embedder, start.manifest.generation) }));
    const created = [name, ...vectors.map((v) => v.fileName)];
    let written: WrittenSegment;
    try {
      written = await reader.whilePinned(start.manifest.generation, async () => ({
        name,
        ...(await indexPool.mergeSegments(dir, analysis, refs, path.join(dir, name), vectors, this.mergeAbort.signal)),
      }));
    } catch (error) {
      reader.removeFiles(created);
      throw error;
    }
    if (this.closed) {
      reader.removeFiles(created);
      return;
    }
    reader.install(commitMerge(dir, reader.snapshot, sources, written, this.nextSegmentNumber));
  }
}

/** The segments whose indexed metadata fields are not `fields` (in order). */
function staleSegments(segments: readonly LiveSegment[], fields: readonly string[]): LiveSegment[] {
  return segments.filter(({ reader }) => reader.searchFields.length !== fields.length || reader.searchFields.some((field, i) => field !== fields[i]));
}

/** Splits `docs` into runs of about `maxBytes` source bytes each (at least one doc a run). */
function chunkByBytes<Doc extends { bytes: number }>(docs: readonly Doc[], maxBytes: number): Doc[][] {
  const chunks: Doc[][] = [];
  let chunk: Doc[] = [];
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

/**
 * What one segment build sends to the index pool: the documents built already, and those of
 * batch bodies as slices of their bodies' bytes (one a body), which the index thread parses.
 */
function buildInput(chunk: readonly (IndexDocument | BodyDocument)[]): { built: IndexDocument[]; bodies: BodyDocumentsSlice[] } {
  const built: IndexDocument[] = [];
  const byBody = new Map<BatchBody, BodyDocument[]>();
  for (const doc of chunk) {
    if (!(doc instanceof BodyDocument)) {
      built.push(doc);
      continue;
    }
    const documents = byBody.get(doc.body);
    if (documents === undefined) byBody.set(doc.body, [doc]);
    else documents.push(doc);
  }
  return { built, bodies: [...byBody.values()].map(sliceBodyDocuments) };
}
