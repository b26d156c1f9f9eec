// The index pool: Piscina worker threads that build segments (refresh) and merge them, so
// indexing never runs on the main thread and never in the search pool. At most `threads - 1`
// merges run at once, so a refresh (the path that makes writes searchable) always has a thread
// even while long merges run. A merge can be abandoned with an AbortSignal (the collection is
// being closed): Piscina stops its worker and starts a fresh one. The pool starts with the
// first build (lazy-piscina.ts).

import type { Worker } from 'node:worker_threads';
import type { IndexDocument } from '../../engine/index.ts';
import { FolioError } from '../errors/index.ts';
import type { BodyDocumentsSlice } from '../ingest/index.ts';
import { LazyPiscina } from './lazy-piscina.ts';
import { workerEntry } from './worker-file.ts';
import { INDEX_WORKER_HEAP, workerResourceLimits } from './worker-heap-limits.ts';
import { unwrapReply, workerCrashed } from './worker-protocol.ts';
import type { IndexTask, OwnVectorsFile, SegmentRef, SegmentWritten, WorkerReply } from './worker-protocol.ts';

/** Default index threads: one for refreshes and one for merges. */
export const DEFAULT_INDEX_THREADS = 2;

/** How a collection's documents are indexed: its language, and the metadata fields whose words are searchable. */
export interface IndexAnalysis {
  language: string;
  searchFields: readonly string[];
}
/** How long an index thread may sit idle before it exits and gives its memory back. */
const INDEX_THREAD_IDLE_MS = 2_000;

export interface IndexPoolOptions {
  threads?: number;
}

export class IndexPool {
  readonly threadCount: number;
  private readonly workers: LazyPiscina<IndexTask, WorkerReply<SegmentWritten>>;
  private readonly mergeSlots: number;
  private runningMerges = 0;
  private running = 0;
  private readonly waitingMerges: (() => void)[] = [];

  constructor(options: IndexPoolOptions = {}) {
    this.threadCount = options.threads ?? DEFAULT_INDEX_THREADS;
    if (!Number.isInteger(this.threadCount) || this.threadCount < 1) throw new RangeError('index threads must be a positive integer');
    this.mergeSlots = Math.max(1, this.threadCount - 1);
    this.workers = new LazyPiscina({
      ...workerEntry('index-worker', import.meta.url),
      // Once the pool is in use, one thread stays ready; the others exit when idle for a while,
      // giving back the heap a build grew. (A thread that dies while starting makes Piscina
      // stop replacing threads, so the pool never relies on starting one per task.)
      minThreads: 1,
      maxThreads: this.threadCount,
      idleTimeout: INDEX_THREAD_IDLE_MS,
      // Building a segment takes long enough that a blocking wait between tasks buys nothing.
      atomics: 'disabled',
      resourceLimits: workerResourceLimits(INDEX_WORKER_HEAP),
    });
  }

  /**
   * Writes `docs` and the batch-body documents of `bodies` (unique ids, all together) as the
   * segment file `filePath`; the worker builds the body documents from their bytes, and writes
   * the documents' own vectors of `ownVectors` (user embedders) beside it. `analysis` names the
   * language and the metadata fields whose words are indexed.
   */
  writeSegment(filePath: string, analysis: IndexAnalysis, docs: IndexDocument[], bodies: BodyDocumentsSlice[] = [], ownVectors: OwnVectorsFile[] = []): Promise<SegmentWritten> {
    return this.run({ kind: 'write-segment', filePath, language: analysis.language, searchFields: [...analysis.searchFields], docs, bodies, ownVectors });
  }

  /** Merges the live documents of `sources` (files in `dir`) into the segment file `filePath`. */
  async mergeSegments(
    dir: string,
    analysis: IndexAnalysis,
    sources: SegmentRef[],
    filePath: string,
    vectors: { embedder: string; fileName: string }[],
    signal?: AbortSignal,
  ): Promise<SegmentWritten> {
    await this.acquireMergeSlot();
    try {
      if (signal?.aborted) throw abandoned();
      return await this.run({ kind: 'merge-segments', filePath, dir, language: analysis.language, searchFields: [...analysis.searchFields], sources, vectors }, signal);
    } finally {
      this.releaseMergeSlot();
    }
  }

  /** Builds and merges handed to the pool and not finished yet. */
  get inFlight(): number {
    return this.running;
  }

  /** The worker threads (tests use this to kill one mid-build). */
  get threads(): readonly Worker[] {
    return this.workers.threads;
  }

  async close(): Promise<void> {
    await this.workers.close();
  }

  private async run(task: IndexTask, signal?: AbortSignal): Promise<SegmentWritten> {
    let reply: WorkerReply<SegmentWritten>;
    this.running++;
    try {
      reply = await this.workers.pool.run(task, signal === undefined ? {} : { signal });
    } catch (error) {
      if (signal?.aborted) throw abandoned();
      throw workerCrashed(error);
    } finally {
      this.running--;
    }
    return unwrapReply(reply);
  }

  private async acquireMergeSlot(): Promise<void> {
    if (this.runningMerges < this.mergeSlots) {
      this.runningMerges++;
      return;
    }
    await new Promise<void>((resolve) => this.waitingMerges.push(resolve));
  }

  private releaseMergeSlot(): void {
    const next = this.waitingMerges.shift();
    if (next !== undefined) next();
    else this.runningMerges--;
  }
}

/** A merge given up because its collection is closing; nothing was committed. */
function abandoned(): FolioError {
  return new FolioError('collection_not_found', 'the merge was abandoned: the collection is closing');
}
