// The two ways a collection's committed index changes, each ending in one atomic manifest write:
//  - refresh: pending changes become a new segment, and the older live versions of their ids
//    are marked deleted in new copies of the affected deletes bitmaps;
//  - merge: several segments are rewritten as one, dropping deleted documents.
// New files are written first, the manifest last; if anything fails before the manifest is
// replaced, the new files are removed and the old snapshot stays valid. The caller swaps in
// the returned snapshot, then removes the obsolete files and closes the retired readers.

import fs from 'node:fs';
import path from 'node:path';
import { SegmentReader, mergeSegments, writeSegment } from '../../engine/index.ts';
import type { Analyzer, IndexDocument } from '../../engine/index.ts';
import { RoaringBitmap32, readManifest, writeBitmapFile, writeManifest } from '../../storage/index.ts';
import type { Manifest } from '../../storage/index.ts';
import { deletesFileName, segmentFileName } from './collection-layout.ts';
import type { PendingChange } from './pending-writes.ts';
import { SegmentSet } from './segment-set.ts';
import type { LiveSegment } from './segment-set.ts';

export interface CommitResult {
  /** The new snapshot, already durable. */
  snapshot: SegmentSet;
  /** File names (in the collection directory) no longer referenced. */
  obsoleteFiles: string[];
  /** Segments no longer in the snapshot; close their readers once it is swapped in. */
  retired: LiveSegment[];
}

/** Collects what a commit writes, and undoes it if the commit does not happen. */
class CommitBuilder {
  readonly created: string[] = [];
  readonly openedReaders: SegmentReader[] = [];

  constructor(readonly dir: string) {}

  filePath(name: string): string {
    return path.join(this.dir, name);
  }

  /** Writes the manifest; if that throws but the new manifest is in place anyway, it counts. */
  commit(manifest: Manifest): void {
    try {
      writeManifest(this.dir, manifest);
    } catch (error) {
      let visible: Manifest | null = null;
      try {
        visible = readManifest(this.dir);
      } catch {
        // unreadable: treat as not committed
      }
      if (visible === null || visible.generation !== manifest.generation) throw error;
    }
  }

  abandon(): void {
    for (const reader of this.openedReaders) reader.close();
    for (const name of this.created) fs.rmSync(this.filePath(name), { force: true });
  }
}

function writeNewSegment(builder: CommitBuilder, segmentNumber: number, write: (filePath: string) => { docCount: number; byteLength: number }): LiveSegment | null {
  const name = segmentFileName(segmentNumber);
  const filePath = builder.filePath(name);
  builder.created.push(name);
  const result = write(filePath);
  if (result.docCount === 0) return null;
  const reader = SegmentReader.open(filePath);
  builder.openedReaders.push(reader);
  return {
    meta: { name, docCount: result.docCount, deletedCount: 0, deletes: null, byteLength: result.byteLength },
    reader,
    deleted: null,
  };
}

/**
 * Commits `changes` (id → new document, or null for a delete) on top of `snapshot`; WAL
 * generations before `walGeneration` are then covered by segments.
 */
export function commitRefresh(
  dir: string,
  analyzer: Analyzer,
  snapshot: SegmentSet,
  changes: ReadonlyMap<string, PendingChange>,
  walGeneration: number,
): CommitResult {
  const builder = new CommitBuilder(dir);
  const generation = snapshot.manifest.generation + 1;
  let nextSegmentNumber = snapshot.manifest.nextSegmentNumber;
  try {
    // Every id written or deleted loses its current live version(s).
    const newDeletes = new Map<number, RoaringBitmap32>();
    for (const id of changes.keys()) {
      for (const { segmentIndex, doc } of snapshot.locateAll(id)) {
        let bitmap = newDeletes.get(segmentIndex);
        if (bitmap === undefined) {
          const current = snapshot.segments[segmentIndex].deleted;
          bitmap = current === null ? new RoaringBitmap32() : current.clone();
          newDeletes.set(segmentIndex, bitmap);
        }
        bitmap.add(doc);
      }
    }

    const docs: IndexDocument[] = [];
    for (const change of changes.values()) if (change !== null) docs.push(change);
    let added: LiveSegment | null = null;
    if (docs.length > 0) {
      added = writeNewSegment(builder, nextSegmentNumber++, (filePath) => writeSegment(filePath, docs, analyzer));
    }

    const segments: LiveSegment[] = [];
    const obsoleteFiles: string[] = [];
    const retired: LiveSegment[] = [];
    snapshot.segments.forEach((segment, index) => {
      const deleted = newDeletes.get(index);
      if (deleted === undefined) {
        segments.push(segment);
        return;
      }
      if (segment.meta.deletes !== null) obsoleteFiles.push(segment.meta.deletes);
      if (deleted.size >= segment.reader.docCount) {
        // Nothing left alive: drop the segment instead of writing an all-deleted bitmap.
        obsoleteFiles.push(segment.meta.name);
        retired.push(segment);
        return;
      }
      const deletesName = deletesFileName(segment.meta.name, generation);
      builder.created.push(deletesName);
      writeBitmapFile(builder.filePath(deletesName), deleted);
      segments.push({
        meta: { ...segment.meta, deletedCount: deleted.size, deletes: deletesName },
        reader: segment.reader,
        deleted,
      });
    });
    if (added !== null) segments.push(added);

    const manifest: Manifest = {
      ...snapshot.manifest,
      generation,
      walGeneration,
      nextSegmentNumber,
      segments: segments.map((segment) => segment.meta),
    };
    builder.commit(manifest);
    return { snapshot: new SegmentSet(manifest, segments), obsoleteFiles, retired };
  } catch (error) {
    builder.abandon();
    throw error;
  }
}

/** Merges the named segments of `snapshot` into one new segment (in the first one's place). */
export function commitMerge(dir: string, analyzer: Analyzer, snapshot: SegmentSet, names: readonly string[]): CommitResult {
  const chosen = new Set(names);
  const merged = snapshot.segments.filter((segment) => chosen.has(segment.meta.name));
  if (merged.length !== chosen.size) throw new Error(`merge of unknown segments: ${names.join(', ')}`);
  const builder = new CommitBuilder(dir);
  try {
    const segmentNumber = snapshot.manifest.nextSegmentNumber;
    const views = merged.map(({ reader, deleted }) => ({ reader, deleted }));
    const added = writeNewSegment(builder, segmentNumber, (filePath) => mergeSegments(filePath, views, analyzer));

    const segments: LiveSegment[] = [];
    for (const segment of snapshot.segments) {
      if (!chosen.has(segment.meta.name)) segments.push(segment);
      else if (segment === merged[0] && added !== null) segments.push(added);
    }
    const obsoleteFiles: string[] = [];
    for (const segment of merged) {
      obsoleteFiles.push(segment.meta.name);
      if (segment.meta.deletes !== null) obsoleteFiles.push(segment.meta.deletes);
    }
    if (added === null) obsoleteFiles.push(segmentFileName(segmentNumber));

    const manifest: Manifest = {
      ...snapshot.manifest,
      generation: snapshot.manifest.generation + 1,
      nextSegmentNumber: segmentNumber + 1,
      segments: segments.map((segment) => segment.meta),
    };
    builder.commit(manifest);
    return { snapshot: new SegmentSet(manifest, segments), obsoleteFiles, retired: merged };
  } catch (error) {
    builder.abandon();
    throw error;
  }
}
