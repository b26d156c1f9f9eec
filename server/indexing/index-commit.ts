// The two ways a collection's committed index changes, each ending in one atomic manifest write.
// The new segment file itself is built beforehand in the index pool; committing it here is
// synchronous on the main thread, so commits never interleave and always apply to the snapshot
// that is current at that moment:
//  - refresh: a new segment of pending documents joins, and the older live versions of the
//    changed ids are marked deleted in new copies of the affected deletes bitmaps;
//  - merge: segments rewritten as one replace their sources. Documents deleted from a source
//    while the merge ran (a refresh committed meanwhile) are found by id and deleted in the
//    merged segment, so a merge never brings a deleted document back.
// New files are written first, the manifest last; if anything fails before the manifest is
// replaced, the new files are removed and the old snapshot stays valid. The caller swaps in
// the returned snapshot, then retires the obsolete files and the retired readers.

import fs from 'node:fs';
import path from 'node:path';
import { SegmentReader, readDeletesFile } from '../../engine/index.ts';
import { RoaringBitmap32, readManifest, writeBitmapFile, writeManifest } from '../../storage/index.ts';
import type { Manifest, ManifestSegment } from '../../storage/index.ts';
import { deletesFileName, segmentFiles } from './collection-layout.ts';
import type { PendingChange } from './pending-writes.ts';
import { SegmentSet } from './segment-set.ts';
import type { LiveSegment } from './segment-set.ts';

export interface CommitResult {
  /** The new snapshot, already durable. */
  snapshot: SegmentSet;
  /** File names (in the collection directory) the new snapshot no longer lists. */
  obsoleteFiles: string[];
  /** Segments no longer in the snapshot; close their readers once it is swapped in. */
  retired: LiveSegment[];
}

/** A segment file the index pool has written and that is not committed yet. */
export interface WrittenSegment {
  name: string;
  docCount: number;
  byteLength: number;
  /** Vector files written with it (a merge carries its sources'), by embedder. */
  vectors?: Record<string, string>;
}

/** Collects what a commit writes, and undoes it if the commit does not happen. */
class CommitBuilder {
  readonly created: string[] = [];

  constructor(readonly dir: string) {}

  filePath(name: string): string {
    return path.join(this.dir, name);
  }

  /** Opens a written segment (the pool wrote and checksummed it, so it is not re-read). */
  openWritten(written: WrittenSegment): LiveSegment {
    this.created.push(written.name, ...Object.values(written.vectors ?? {}));
    const reader = SegmentReader.open(this.filePath(written.name), { verifyChecksum: false });
    const meta: ManifestSegment = { name: written.name, docCount: written.docCount, deletedCount: 0, deletes: null, byteLength: written.byteLength };
    if (written.vectors !== undefined && Object.keys(written.vectors).length > 0) meta.vectors = written.vectors;
    return { meta, reader, deleted: null };
  }

  /** Writes `deleted` as the deletes file of `segment` for manifest `generation`. */
  withDeletes(segment: LiveSegment, deleted: RoaringBitmap32, generation: number): LiveSegment {
    const name = deletesFileName(segment.meta.name, generation);
    this.created.push(name);
    writeBitmapFile(this.filePath(name), deleted);
    return { meta: { ...segment.meta, deletedCount: deleted.size, deletes: name }, reader: segment.reader, deleted };
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
    for (const name of this.created) fs.rmSync(this.filePath(name), { force: true });
  }
}

function manifestFor(current: SegmentSet, segments: readonly LiveSegment[], changes: Partial<Manifest>): Manifest {
  return { ...current.manifest, ...changes, generation: current.manifest.generation + 1, segments: segments.map((s) => s.meta) };
}

/**
 * Commits `changes` (id → new document, or null for a delete) on top of `current`, with
 * `added` holding the changes' documents (none when all are deletes; several when a large
 * refresh was built in parallel). WAL generations before `walGeneration` are then covered.
 */
export function commitRefresh(
  dir: string,
  current: SegmentSet,
  changes: ReadonlyMap<string, PendingChange>,
  added: readonly WrittenSegment[],
  walGeneration: number,
  nextSegmentNumber: number,
): CommitResult {
  const builder = new CommitBuilder(dir);
  const generation = current.manifest.generation + 1;
  try {
    const addedSegments = added.map((written) => builder.openWritten(written));
    // Every id written or deleted loses its current live version(s).
    const newDeletes = new Map<number, RoaringBitmap32>();
    for (const id of changes.keys()) {
      for (const { segmentIndex, doc } of current.locateAll(id)) {
        let bitmap = newDeletes.get(segmentIndex);
        if (bitmap === undefined) {
          const deleted = current.segments[segmentIndex].deleted;
          bitmap = deleted === null ? new RoaringBitmap32() : deleted.clone();
          newDeletes.set(segmentIndex, bitmap);
        }
        bitmap.add(doc);
      }
    }

    const segments: LiveSegment[] = [];
    const obsoleteFiles: string[] = [];
    const retired: LiveSegment[] = [];
    current.segments.forEach((segment, index) => {
      const deleted = newDeletes.get(index);
      if (deleted === undefined) {
        segments.push(segment);
        return;
      }
      if (segment.meta.deletes !== null) obsoleteFiles.push(segment.meta.deletes);
      if (deleted.size >= segment.reader.docCount) {
        // Nothing left alive: drop the segment instead of writing an all-deleted bitmap.
        obsoleteFiles.push(segment.meta.name, ...Object.values(segment.meta.vectors ?? {}));
        retired.push(segment);
        return;
      }
      segments.push(builder.withDeletes(segment, deleted, generation));
    });
    segments.push(...addedSegments);

    const manifest = manifestFor(current, segments, { walGeneration, nextSegmentNumber });
    builder.commit(manifest);
    return { snapshot: new SegmentSet(manifest, segments), obsoleteFiles, retired };
  } catch (error) {
    builder.abandon();
    throw error;
  }
}

/** Docs of `source` deleted in `now` but not in `then` (all its docs when `now` is gone). */
function deletedSince(then: LiveSegment, now: LiveSegment | undefined): Iterable<number> {
  const wasDeleted = (doc: number): boolean => then.deleted?.has(doc) ?? false;
  if (now === undefined) {
    const docs: number[] = [];
    for (let doc = 0; doc < then.reader.docCount; doc++) if (!wasDeleted(doc)) docs.push(doc);
    return docs;
  }
  if (now.deleted === null || now.deleted === then.deleted) return [];
  return now.deleted.toArray().filter((doc) => !wasDeleted(doc));
}

/**
 * Commits the merge of `sources` (the segments as they were when the merge started) into the
 * written segment `merged`, on top of `current`.
 */
export function commitMerge(
  dir: string,
  current: SegmentSet,
  sources: readonly LiveSegment[],
  merged: WrittenSegment,
  nextSegmentNumber: number,
): CommitResult {
  const builder = new CommitBuilder(dir);
  const generation = current.manifest.generation + 1;
  try {
    const byName = new Map(current.segments.map((segment) => [segment.meta.name, segment]));
    let added: LiveSegment | null = null;
    if (merged.docCount > 0) {
      added = builder.openWritten(merged);
      const lateDeletes = new RoaringBitmap32();
      for (const source of sources) {
        for (const doc of deletedSince(source, byName.get(source.meta.name))) {
          const mergedDoc = added.reader.findDoc(source.reader.docId(doc));
          if (mergedDoc >= 0) lateDeletes.add(mergedDoc);
        }
      }
      if (lateDeletes.size >= merged.docCount) added = null;
      else if (lateDeletes.size > 0) added = builder.withDeletes(added, lateDeletes, generation);
    }

    const sourceNames = new Set(sources.map((source) => source.meta.name));
    const segments: LiveSegment[] = [];
    const obsoleteFiles: string[] = [];
    const retired: LiveSegment[] = [];
    for (const segment of current.segments) {
      if (!sourceNames.has(segment.meta.name)) {
        segments.push(segment);
        continue;
      }
      // The merged segment takes the place of its first source still listed.
      if (added !== null) segments.push(added);
      added = null;
      obsoleteFiles.push(...segmentFiles(segment.meta));
      retired.push(segment);
    }
    if (added !== null) segments.push(added);
    // A merged segment left out (empty, or everything deleted since) is obsolete at once.
    const listed = new Set(segments.flatMap((s) => segmentFiles(s.meta)));
    for (const name of builder.created) if (!listed.has(name)) obsoleteFiles.push(name);
    if (merged.docCount === 0) obsoleteFiles.push(merged.name, ...Object.values(merged.vectors ?? {}));

    const manifest = manifestFor(current, segments, { nextSegmentNumber });
    builder.commit(manifest);
    return { snapshot: new SegmentSet(manifest, segments), obsoleteFiles, retired };
  } catch (error) {
    builder.abandon();
    throw error;
  }
}

/** A segment's vector file for one embedder: set (`file`), or dropped (null). */
export interface VectorsChange {
  segment: string;
  embedder: string;
  file: string | null;
}

/**
 * Commits vector files (written beforehand) to segments of `current`, or drops them. A change
 * to a segment no longer live is left out and its file is obsolete at once; null when nothing
 * is left to commit (the caller then removes the files).
 */
export function commitVectors(dir: string, current: SegmentSet, changes: readonly VectorsChange[]): CommitResult | null {
  const builder = new CommitBuilder(dir);
  const byName = new Map(current.segments.map((segment, index) => [segment.meta.name, index]));
  const segments = [...current.segments];
  const obsoleteFiles: string[] = [];
  let changed = false;
  for (const change of changes) {
    const index = byName.get(change.segment);
    if (index === undefined) {
      if (change.file !== null) obsoleteFiles.push(change.file);
      continue;
    }
    const segment = segments[index];
    const vectors = { ...segment.meta.vectors };
    const previous = vectors[change.embedder];
    if (previous === change.file || (previous === undefined && change.file === null)) continue;
    if (previous !== undefined) obsoleteFiles.push(previous);
    if (change.file === null) delete vectors[change.embedder];
    else vectors[change.embedder] = change.file;
    const meta = { ...segment.meta };
    if (Object.keys(vectors).length > 0) meta.vectors = vectors;
    else delete meta.vectors;
    segments[index] = { ...segment, meta };
    changed = true;
  }
  if (!changed) return null;
  const manifest = manifestFor(current, segments, {});
  builder.commit(manifest);
  return { snapshot: new SegmentSet(manifest, segments), obsoleteFiles, retired: [] };
}

/**
 * A replica takes a manifest another node published (cluster mode): its files are already in
 * `dir`. Readers of segments it keeps are reused (their deletes may change); the others are
 * opened, and those it no longer lists are retired. The manifest is written last, as any commit.
 */
export function adoptManifest(dir: string, current: SegmentSet, manifest: Manifest): CommitResult {
  const open = new Map(current.segments.map((segment) => [segment.meta.name, segment]));
  const opened: SegmentReader[] = [];
  const segments: LiveSegment[] = [];
  try {
    for (const meta of manifest.segments) {
      const kept = open.get(meta.name);
      const reader = kept?.reader ?? SegmentReader.open(path.join(dir, meta.name));
      if (kept === undefined) opened.push(reader);
      if (reader.docCount !== meta.docCount) throw new Error(`segment ${meta.name} holds ${reader.docCount} documents, the published manifest says ${meta.docCount}`);
      const deleted = meta.deletes === null ? null : kept?.meta.deletes === meta.deletes ? kept.deleted : readDeletesFile(path.join(dir, meta.deletes));
      segments.push({ meta, reader, deleted });
    }
    writeManifest(dir, manifest);
  } catch (error) {
    for (const reader of opened) reader.close();
    throw error;
  }
  const keptFiles = new Set(manifest.segments.flatMap(segmentFiles));
  const obsoleteFiles = current.segments.flatMap((segment) => segmentFiles(segment.meta)).filter((name) => !keptFiles.has(name));
  const listed = new Set(manifest.segments.map((meta) => meta.name));
  const retired = current.segments.filter((segment) => !listed.has(segment.meta.name));
  return { snapshot: new SegmentSet(manifest, segments), obsoleteFiles, retired };
}
