// Embedding off the request path, for one collection: after every commit (and at open), each
// committed segment that lacks a vector file for one of the collection's embedders is embedded
// in the embedding pool, as many segments at once as it has threads, and its vector file is committed to the manifest
// like a deletes file (a new snapshot; searches in flight keep theirs). Writes are acknowledged
// and keyword-searchable before any of this happens. Progress is durable per segment: after a
// crash, the segments already embedded keep their vectors and the others are embedded again.
// A segment whose embedding fails is retried after a growing delay (its documents count as
// `failed` meanwhile); merges carry vectors over (collection-updater.ts), so a merged segment
// is embedded again only when one of its sources was not embedded yet.

import path from 'node:path';
import type { EmbeddingPool } from '../pools/index.ts';
import { vectorsFileName } from './collection-layout.ts';
import type { CollectionReader } from './collection-reader.ts';
import { sameVectors } from '../settings/index.ts';
import type { EmbedderConfig } from '../settings/index.ts';
import { commitVectors } from './index-commit.ts';
import type { LiveSegment } from './segment-set.ts';

/** One embedder's documents: embedded, waiting and failed (a collection record's `embedding`). */
export interface EmbeddingCounts {
  embedded: number;
  pending: number;
  failed: number;
}

/** First delay before a failed segment is embedded again; doubled each failure up to the maximum. */
export const EMBEDDING_RETRY_MS = 5_000;
export const MAX_EMBEDDING_RETRY_MS = 10 * 60_000;

export interface CollectionEmbedderOptions {
  dir: string;
  reader: CollectionReader;
  pool: EmbeddingPool;
  /** The collection's embedders as they are now. */
  embedders: () => Readonly<Record<string, EmbedderConfig>>;
  /** Live documents of the collection, unrefreshed writes included. */
  documents: () => number;
  onBackgroundError: (error: unknown) => void;
}

interface Failure {
  attempts: number;
  retryAt: number;
}

export class CollectionEmbedder {
  private readonly options: CollectionEmbedderOptions;
  /** Segments being embedded, by `segment embedder`, with the promise that ends each. */
  private readonly inProgress = new Map<string, Promise<void>>();
  /** Failures by `segment embedder`. */
  private readonly failures = new Map<string, Failure>();
  private retryTimer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(options: CollectionEmbedderOptions) {
    this.options = options;
  }

  /** Starts embedding what the current snapshot lacks, up to the pool's threads segments at once. */
  schedule(): void {
    while (!this.closed && this.inProgress.size < this.options.pool.threadCount) {
      const next = this.nextWork();
      if (next === null) return;
      const key = failureKey(next.segment, next.embedder);
      const running = this.embedOne(next.segment, next.embedder)
        .catch((error: unknown) => {
          if (!this.closed) this.options.onBackgroundError(error);
        })
        .finally(() => {
          this.inProgress.delete(key);
          this.schedule();
        });
      this.inProgress.set(key, running);
    }
  }

  /** Something is being embedded, waits for a retry, or is still to embed (a collection is not idle meanwhile). */
  get busy(): boolean {
    return this.inProgress.size > 0 || this.retryTimer !== null || (!this.closed && this.nextWork() !== null);
  }

  /** Resolves once nothing is being embedded (segments waiting for a retry do not count). */
  async idle(): Promise<void> {
    while (this.inProgress.size > 0) await Promise.all(this.inProgress.values());
  }

  /** Drops every vector file of `embedder` (removed, or changed so that its vectors differ). */
  dropVectors(embedder: string): void {
    const { dir, reader } = this.options;
    const changes = reader.snapshot.segments
      .filter((segment) => segment.meta.vectors?.[embedder] !== undefined)
      .map((segment) => ({ segment: segment.meta.name, embedder, file: null }));
    for (const key of this.failures.keys()) if (key.endsWith(` ${embedder}`)) this.failures.delete(key);
    const result = commitVectors(dir, reader.snapshot, changes);
    if (result !== null) reader.install(result);
  }

  /** Per embedder: live documents embedded, waiting, and whose embedding failed. */
  progress(): Record<string, EmbeddingCounts> {
    const snapshot = this.options.reader.snapshot;
    const documents = this.options.documents();
    const progress: Record<string, EmbeddingCounts> = {};
    for (const embedder of Object.keys(this.options.embedders())) {
      let embedded = 0;
      let failed = 0;
      for (const segment of snapshot.segments) {
        const live = segment.reader.docCount - (segment.deleted?.size ?? 0);
        if (segment.meta.vectors?.[embedder] !== undefined) embedded += live;
        else if (this.failures.has(failureKey(segment, embedder))) failed += live;
      }
      progress[embedder] = { embedded, failed, pending: Math.max(0, documents - embedded - failed) };
    }
    return progress;
  }

  /**
   * Starts nothing more. A segment being embedded is not waited for (it may take minutes): its
   * thread finishes it and the file is removed, never committed.
   */
  close(): void {
    this.closed = true;
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
  }

  /** The first committed segment without vectors for an embedder (not waiting for a retry). */
  private nextWork(): { segment: LiveSegment; embedder: string } | null {
    const now = Date.now();
    let nextRetry = Infinity;
    for (const segment of this.options.reader.snapshot.segments) {
      for (const embedder of Object.keys(this.options.embedders())) {
        if (segment.meta.vectors?.[embedder] !== undefined || this.inProgress.has(failureKey(segment, embedder))) continue;
        const failure = this.failures.get(failureKey(segment, embedder));
        if (failure !== undefined && failure.retryAt > now) {
          nextRetry = Math.min(nextRetry, failure.retryAt);
          continue;
        }
        return { segment, embedder };
      }
    }
    if (nextRetry !== Infinity && this.retryTimer === null && !this.closed) {
      this.retryTimer = setTimeout(() => {
        this.retryTimer = null;
        this.schedule();
      }, nextRetry - now);
      this.retryTimer.unref();
    }
    return null;
  }

  private async embedOne(segment: LiveSegment, embedder: string): Promise<void> {
    const { dir, reader, pool } = this.options;
    const config = this.options.embedders()[embedder];
    const start = reader.snapshot;
    const fileName = vectorsFileName(segment.meta.name, embedder, start.manifest.generation);
    const key = failureKey(segment, embedder);
    try {
      // Not pinned: a close must not wait minutes for an embedding. The thread maps the segment
      // when it starts; a segment a merge retires before that fails here and is not retried.
      await pool.embedSegment({
        runtime: { source: config.source, model: config.model, url: config.url, apiKey: config.apiKey, dimensions: config.dimensions },
        embedder,
        documentTemplate: config.documentTemplate,
        segmentPath: path.join(dir, segment.meta.name),
        docCount: segment.reader.docCount,
        deletedDocs: segment.deleted === null ? [] : segment.deleted.toArray(),
        outPath: path.join(dir, fileName),
      });
    } catch (error) {
      reader.removeFiles([fileName]);
      const stillLive = reader.snapshot.segments.some((live) => live.meta.name === segment.meta.name);
      if (this.closed || !stillLive) return;
      const attempts = (this.failures.get(key)?.attempts ?? 0) + 1;
      this.failures.set(key, { attempts, retryAt: Date.now() + Math.min(MAX_EMBEDDING_RETRY_MS, EMBEDDING_RETRY_MS * 2 ** (attempts - 1)) });
      this.options.onBackgroundError(error);
      return;
    }
    this.failures.delete(key);
    // The embedder may have been removed or changed meanwhile: then these vectors are stale.
    const now = this.options.embedders()[embedder];
    if (this.closed || now === undefined || !sameVectors(now, config)) {
      reader.removeFiles([fileName]);
      return;
    }
    const result = commitVectors(dir, reader.snapshot, [{ segment: segment.meta.name, embedder, file: fileName }]);
    if (result === null) reader.removeFiles([fileName]);
    else reader.install(result);
  }
}

function failureKey(segment: LiveSegment, embedder: string): string {
  return `${segment.meta.name} ${embedder}`;
}
