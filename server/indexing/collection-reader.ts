// The read side of one collection: the committed snapshot searches run on, the realtime view
// of a document (pending writes first, then the snapshot), and the pins that keep a snapshot's
// files on disk while a search or a merge still uses them. The updater installs each newly
// committed snapshot here; files the new one no longer lists are removed once nothing pinned
// can still open them.

import fs from 'node:fs';
import path from 'node:path';
import { Analyzer } from '../../engine/index.ts';
import type { CorpusStatistics, FacetValueQuery, IndexDocument, SearchRequest } from '../../engine/index.ts';
import type { FacetValues, OpenedSnapshot, SearchPage, SearchPool, SnapshotRef } from '../pools/index.ts';
import { FolioError } from '../errors/index.ts';
import type { CommitResult } from './index-commit.ts';
import { pendingDocument } from './pending-writes.ts';
import type { PendingWrites } from './pending-writes.ts';
import { SearchCache } from './search-cache.ts';
import type { SegmentSet } from './segment-set.ts';
import { SnapshotPins } from './snapshot-pins.ts';

export interface CollectionReaderOptions {
  /** The collection's directory, name of its language, and the id of this opening of it. */
  dir: string;
  language: string;
  instanceId: string;
  /** Acknowledged writes not yet in the snapshot (shared with the writer and the updater). */
  pending: PendingWrites;
  searchPool: SearchPool;
  /** Answers of recent searches, shared by the server's collections; null for none. */
  searchCache: SearchCache | null;
  /** Told when a retired file cannot be removed (the next opening removes it). */
  onBackgroundError: (error: unknown) => void;
  /** Called after each new snapshot is installed. */
  onInstall?: () => void;
}

export class CollectionReader {
  private readonly options: CollectionReaderOptions;
  private current: SegmentSet;
  private currentRef: SnapshotRef;
  private readonly pins = new SnapshotPins();
  /**
   * The newest generation a search thread has searched without finding its files damaged (a
   * thread checks each file as it first opens it): searches of it may run on this thread,
   * over this snapshot's own readers (inline-search.ts).
   */
  private checkedGeneration = -1;

  constructor(snapshot: SegmentSet, options: CollectionReaderOptions) {
    this.options = options;
    this.current = snapshot;
    this.currentRef = this.refOf(snapshot);
  }

  /** The committed snapshot new searches and merges start from. */
  get snapshot(): SegmentSet {
    return this.current;
  }

  /** Realtime view of `id`: pending writes first, then the committed segments. */
  lookup(id: string): IndexDocument | null {
    const change = this.options.pending.lookup(id);
    if (change === undefined) return this.current.document(id);
    return change === null ? null : pendingDocument(change);
  }

  isLive(id: string): boolean {
    const change = this.options.pending.lookup(id);
    return change !== undefined ? change !== null : this.current.has(id);
  }

  /** Searches (and merges) holding a snapshot now. */
  get pinned(): number {
    return this.pins.pinned;
  }

  /** Runs in the search pool over the current snapshot, which stays on disk until it ends. */
  async searchPage(request: SearchRequest): Promise<SearchPage> {
    const ref = this.currentRef;
    const cache = this.options.searchCache;
    const key = cache === null ? '' : SearchCache.key(this.options.instanceId, ref.generation, request);
    const cached = cache?.get(key);
    if (cached !== undefined) return cached;
    const snapshot = this.current;
    const here = (): OpenedSnapshot | null =>
      this.current === snapshot && this.checkedGeneration === ref.generation ? { views: snapshot.views, analyzer: Analyzer.for(this.options.language) } : null;
    return this.whilePinned(ref.generation, async () => {
      const page = await this.options.searchPool.search(ref, request, here);
      if (ref.generation > this.checkedGeneration) this.checkedGeneration = ref.generation;
      if (page.timedOut) {
        // Out of time with nothing to show: an error; with some hits, those (never cached).
        if (page.hitCount === 0) {
          throw new FolioError('search_timeout', `the search found nothing within the search timeout of ${this.options.searchPool.timeoutMs / 1000} s: narrow the query (fewer or rarer words, a filter)`);
        }
        return page;
      }
      cache?.set(key, page);
      return page;
    });
  }

  /** This snapshot's part of the statistics of a search over several collections, in the search pool. */
  async statistics(request: SearchRequest): Promise<CorpusStatistics> {
    const ref = this.currentRef;
    return this.whilePinned(ref.generation, () => this.options.searchPool.statistics(ref, request));
  }

  /** A facet value search over the current snapshot, in the search pool (never cached: it is cheap). */
  async facetSearch(request: SearchRequest, facetQuery: FacetValueQuery): Promise<FacetValues> {
    const ref = this.currentRef;
    return this.whilePinned(ref.generation, () => this.options.searchPool.facetSearch(ref, request, facetQuery));
  }

  /** Runs `work` with the snapshot of `generation` pinned: its files stay on disk meanwhile. */
  async whilePinned<T>(generation: number, work: () => Promise<T>): Promise<T> {
    this.pins.pin(generation);
    try {
      return await work();
    } finally {
      this.removeFiles(this.pins.unpin(generation));
    }
  }

  /** Swaps in a committed snapshot; what it no longer lists goes once no search can open it. */
  install(result: CommitResult): void {
    const previousGeneration = this.current.manifest.generation;
    this.current = result.snapshot;
    this.currentRef = this.refOf(result.snapshot);
    for (const segment of result.retired) segment.reader.close();
    this.removeFiles(this.pins.retire(result.obsoleteFiles, previousGeneration));
    this.options.onInstall?.();
  }

  /** Removes files of the collection's directory; a failure is reported, never thrown. */
  removeFiles(names: readonly string[]): void {
    for (const name of names) {
      try {
        fs.rmSync(path.join(this.options.dir, name), { force: true });
      } catch (error) {
        // A leftover is removed at the next open; the commit itself stands.
        this.options.onBackgroundError(error);
      }
    }
  }

  /** Waits for the searches in flight, then closes the snapshot's files and the workers' readers. */
  async close(): Promise<void> {
    await this.pins.idle();
    this.current.closeAll();
    this.options.searchPool.forget(this.options.instanceId);
  }

  private refOf(snapshot: SegmentSet): SnapshotRef {
    return {
      collectionId: this.options.instanceId,
      dir: this.options.dir,
      language: this.options.language,
      generation: snapshot.manifest.generation,
      segments: snapshot.manifest.segments.map(({ name, deletes, vectors }) => ({ name, deletes, ...(vectors !== undefined && { vectors }) })),
    };
  }
}
