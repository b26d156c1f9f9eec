// The search pool: Piscina worker threads (one per core by default) that run searches over
// memory-mapped segments, so the main thread only speaks HTTP. A search sends a snapshot
// reference, a plain request and a deadline (the search timeout from the call, time waiting for
// a thread included) and gets the page's JSON text back (search-page.ts). A worker that dies mid-search
// (a crash, out of memory) is replaced by Piscina, and the search fails with a 500 `internal`.
// The threads start with the first collection or search (lazy-piscina.ts) and then stay.

import { availableParallelism } from 'node:os';
import { BroadcastChannel } from 'node:worker_threads';
import type { Worker } from 'node:worker_threads';
import type { CorpusStatistics, FacetValueQuery, SearchRequest } from '../../engine/index.ts';
import type { SearchPage } from './search-page.ts';
import { READER_CACHE_CHANNEL } from './reader-cache-channel.ts';
import type { ReaderCacheMessage } from './reader-cache-channel.ts';
import { searchHere } from './inline-search.ts';
import type { OpenedSnapshot } from './reader-cache.ts';
import { LazyPiscina } from './lazy-piscina.ts';
import { workerEntry } from './worker-file.ts';
import { SEARCH_WORKER_HEAP, workerResourceLimits } from './worker-heap-limits.ts';
import { unwrapReply, workerCrashed } from './worker-protocol.ts';
import type { FacetValues, SearchTask, SnapshotRef, WorkerReply } from './worker-protocol.ts';

export interface SearchPoolOptions {
  /** Worker threads; default one per core. */
  threads?: number;
  /** Longest a search may take from the call, queueing included; 0 for no limit; default DEFAULT_SEARCH_TIMEOUT_MS. */
  timeoutMs?: number;
  /**
   * Whether a short search runs on the calling thread even while others wait (see `search`).
   * Default: on a machine of two cores or fewer, where the search threads would only compete
   * with the calling thread (and the clients) for the same cores.
   */
  inlineUnderLoad?: boolean;
}

/** Cores at or below which short searches run on the calling thread under load too. */
export const INLINE_UNDER_LOAD_CORES = 2;
/**
 * Searches stop being tried on the calling thread while more than this share of recent tries
 * needed longer than INLINE_SEARCH_MS (each such try is time lost: 5 ms against the ~0.15 ms a
 * hop to a thread costs), as on a large collection or for costly queries.
 */
export const INLINE_OVERRUN_LIMIT = 0.05;
/** Weight of the latest try in the moving share of tries that ran over (about the last 50). */
const OVERRUN_WEIGHT = 0.02;
/** While searches are not tried here, one in this many still is, so the share can come down. */
const INLINE_PROBE_EVERY = 20;

/** `--search-timeout` default: a search answers with what it found after this long (`timed_out`). */
export const DEFAULT_SEARCH_TIMEOUT_MS = 2_000;

export function defaultSearchThreads(): number {
  return Math.max(1, availableParallelism());
}

export class SearchPool {
  readonly threadCount: number;
  readonly timeoutMs: number;
  readonly inlineUnderLoad: boolean;
  private readonly workers: LazyPiscina<SearchTask, WorkerReply<SearchPage | CorpusStatistics | FacetValues>>;
  private readonly channel = new BroadcastChannel(READER_CACHE_CHANNEL);
  private running = 0;
  /** Searches asked of the pool and not answered yet, wherever they run (here or in a thread). */
  private asked = 0;
  /** The moving share of searches tried on this thread that needed longer than allowed there. */
  private overrunShare = 0;
  private passedOver = 0;

  constructor(options: SearchPoolOptions = {}) {
    this.threadCount = options.threads ?? defaultSearchThreads();
    if (!Number.isInteger(this.threadCount) || this.threadCount < 1) throw new RangeError('search threads must be a positive integer');
    this.timeoutMs = options.timeoutMs ?? DEFAULT_SEARCH_TIMEOUT_MS;
    if (!(this.timeoutMs >= 0)) throw new RangeError('the search timeout must be 0 or more');
    this.inlineUnderLoad = options.inlineUnderLoad ?? availableParallelism() <= INLINE_UNDER_LOAD_CORES;
    this.workers = new LazyPiscina({
      ...workerEntry('search-worker', import.meta.url),
      minThreads: this.threadCount,
      maxThreads: this.threadCount,
      idleTimeout: Infinity,
      // Idle workers go back to their event loop, where the cache channel's messages arrive.
      atomics: 'disabled',
      resourceLimits: workerResourceLimits(SEARCH_WORKER_HEAP),
    });
    this.channel.unref();
  }

  /** Starts the threads now (a server with collections), so the first search does not wait for them. */
  start(): void {
    this.workers.start();
  }

  /**
   * A search's page. With `here` (the snapshot open on this thread, or null when it may not be
   * searched here), a keyword search runs on this thread (inline-search.ts) when no other
   * search is waiting — checked after one turn of the event loop, so that requests already
   * received are counted first: under concurrent load searches go to the threads, which search
   * in parallel while this thread serves HTTP — or always, with `inlineUnderLoad` (few cores).
   * A search that needs more than INLINE_SEARCH_MS here goes to the threads; while too many do
   * (INLINE_OVERRUN_LIMIT), searches go to the threads at once.
   */
  async search(snapshot: SnapshotRef, request: SearchRequest, here?: () => OpenedSnapshot | null): Promise<SearchPage> {
    this.asked++;
    try {
      const deadline = this.timeoutMs === 0 ? null : Date.now() + this.timeoutMs;
      if (here !== undefined && request.semantic === undefined && (this.inlineUnderLoad || this.asked === 1) && this.worthTryingHere()) {
        if (!this.inlineUnderLoad) await new Promise((resolve) => setImmediate(resolve));
        const opened = this.inlineUnderLoad || this.asked === 1 ? here() : null;
        if (opened !== null) {
          const page = searchHere(opened, { request, deadline });
          this.overrunShare += ((page === null ? 1 : 0) - this.overrunShare) * OVERRUN_WEIGHT;
          if (page !== null) return page;
        }
      }
      return await this.run<SearchPage>(snapshot, request, 'default', undefined, deadline);
    } finally {
      this.asked--;
    }
  }

  /** Whether searches tried here mostly finish in time (and, when not, whether to try one anyway). */
  private worthTryingHere(): boolean {
    if (this.overrunShare <= INLINE_OVERRUN_LIMIT) return true;
    return ++this.passedOver % INLINE_PROBE_EVERY === 0;
  }

  /** A search's first pass over several collections: this snapshot's part of their statistics (engine corpus-statistics.ts). */
  async statistics(snapshot: SnapshotRef, request: SearchRequest): Promise<CorpusStatistics> {
    return this.run<CorpusStatistics>(snapshot, request, 'statistics');
  }

  /** The values of a facet matching what was typed, with their counts among the request's matches. */
  async facetSearch(snapshot: SnapshotRef, request: SearchRequest, facetQuery: FacetValueQuery): Promise<FacetValues> {
    return this.run<FacetValues>(snapshot, request, 'facetSearch', facetQuery);
  }

  /** Runs the worker's export `name` (Piscina's `default`: the search) within the search timeout. */
  private async run<T>(
    snapshot: SnapshotRef,
    request: SearchRequest,
    name: 'default' | 'statistics' | 'facetSearch',
    facetQuery?: FacetValueQuery,
    deadline = this.timeoutMs === 0 ? null : Date.now() + this.timeoutMs,
  ): Promise<T> {
    let reply: WorkerReply<T>;
    this.running++;
    try {
      const task: SearchTask = facetQuery === undefined ? { snapshot, request, deadline } : { snapshot, request, deadline, facetQuery };
      reply = (await this.workers.pool.run(task, { name })) as WorkerReply<T>;
    } catch (error) {
      throw workerCrashed(error);
    } finally {
      this.running--;
    }
    return unwrapReply(reply);
  }

  /** Searches handed to the pool and not answered yet (running, or queued for a thread). */
  get inFlight(): number {
    return this.running;
  }

  /** Tells every worker to drop the readers of a collection that is gone. */
  forget(collectionId: string): void {
    const message: ReaderCacheMessage = { type: 'forget', collectionId };
    this.channel.postMessage(message);
  }

  /** The worker threads (tests use this to kill one mid-search). */
  get threads(): readonly Worker[] {
    return this.workers.threads;
  }

  async close(): Promise<void> {
    this.channel.close();
    await this.workers.close();
  }
}
