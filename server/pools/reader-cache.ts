// A search worker's open segments: per collection, a reader (memory map) per segment file and a
// deletes bitmap per deletes file and a vector reader per vector file, opened the first time a task's snapshot names them. Tasks
// tell the worker about new manifests, so it never needs a restart. After each task the cache
// keeps only what the newest snapshot it has seen uses; a retired segment's reader is dropped
// then (no search is running in this thread between tasks) and its map is released by the
// garbage collector. The main thread keeps retired files on disk until no search task that
// names them is in flight, so opening an older snapshot's file always succeeds.

import path from 'node:path';
import { Analyzer, SegmentReader, VectorReader, readDeletesFile } from '../../engine/index.ts';
import type { DeletesBitmap, SegmentView } from '../../engine/index.ts';
import type { SnapshotRef } from './worker-protocol.ts';

interface CachedCollection {
  analyzer: Analyzer;
  readers: Map<string, SegmentReader>;
  deletes: Map<string, DeletesBitmap>;
  vectors: Map<string, VectorReader>;
  newestGeneration: number;
  /** Files the newest snapshot seen uses (segments and deletes). */
  newestFiles: Set<string>;
}

export interface OpenedSnapshot {
  analyzer: Analyzer;
  views: readonly SegmentView[];
}

export class ReaderCache {
  private readonly collections = new Map<string, CachedCollection>();

  /** The snapshot's segments, opening what this worker has not opened yet. */
  open(snapshot: SnapshotRef): OpenedSnapshot {
    const cached = this.collection(snapshot);
    const views = snapshot.segments.map(({ name, deletes, vectors }): SegmentView => {
      let reader = cached.readers.get(name);
      if (reader === undefined) {
        // The main thread verified the checksum when the segment joined the collection.
        reader = SegmentReader.open(path.join(snapshot.dir, name), { verifyChecksum: false });
        cached.readers.set(name, reader);
      }
      let deleted: DeletesBitmap | null = null;
      if (deletes !== null) {
        deleted = cached.deletes.get(deletes) ?? null;
        if (deleted === null) {
          deleted = readDeletesFile(path.join(snapshot.dir, deletes));
          cached.deletes.set(deletes, deleted);
        }
      }
      if (vectors === undefined) return { reader, deleted };
      const byEmbedder = new Map<string, VectorReader>();
      for (const [embedder, file] of Object.entries(vectors)) {
        let vectorReader = cached.vectors.get(file);
        if (vectorReader === undefined) {
          // Verified by the main thread when the file joined the collection, like segments.
          vectorReader = VectorReader.open(path.join(snapshot.dir, file), { verifyChecksum: false });
          cached.vectors.set(file, vectorReader);
        }
        byEmbedder.set(embedder, vectorReader);
      }
      return { reader, deleted, vectors: byEmbedder };
    });
    return { analyzer: cached.analyzer, views };
  }

  /** After a task: note a newer snapshot, and drop what the newest one no longer uses. */
  release(snapshot: SnapshotRef): void {
    const cached = this.collections.get(snapshot.collectionId);
    if (cached === undefined) return;
    if (snapshot.generation > cached.newestGeneration) {
      cached.newestGeneration = snapshot.generation;
      cached.newestFiles = filesOf(snapshot);
    }
    for (const [name, reader] of cached.readers) {
      if (cached.newestFiles.has(name)) continue;
      reader.close();
      cached.readers.delete(name);
    }
    for (const name of cached.deletes.keys()) if (!cached.newestFiles.has(name)) cached.deletes.delete(name);
    for (const name of cached.vectors.keys()) if (!cached.newestFiles.has(name)) cached.vectors.delete(name);
  }

  /** Drops every reader of a deleted (or closed) collection. */
  forget(collectionId: string): void {
    const cached = this.collections.get(collectionId);
    if (cached === undefined) return;
    for (const reader of cached.readers.values()) reader.close();
    this.collections.delete(collectionId);
  }

  /** How many segment readers are open (for tests and stats). */
  openReaderCount(): number {
    let count = 0;
    for (const cached of this.collections.values()) count += cached.readers.size;
    return count;
  }

  private collection(snapshot: SnapshotRef): CachedCollection {
    let cached = this.collections.get(snapshot.collectionId);
    if (cached === undefined) {
      cached = {
        analyzer: Analyzer.for(snapshot.language),
        readers: new Map(),
        deletes: new Map(),
        vectors: new Map(),
        newestGeneration: snapshot.generation,
        newestFiles: filesOf(snapshot),
      };
      this.collections.set(snapshot.collectionId, cached);
    }
    return cached;
  }
}

function filesOf(snapshot: SnapshotRef): Set<string> {
  const files = new Set<string>();
  for (const { name, deletes, vectors } of snapshot.segments) {
    files.add(name);
    if (deletes !== null) files.add(deletes);
    if (vectors !== undefined) for (const file of Object.values(vectors)) files.add(file);
  }
  return files;
}
