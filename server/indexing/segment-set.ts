// The committed state of a collection's index as one immutable snapshot: the manifest and, per
// listed segment, its open reader and deletes bitmap. Searches take the snapshot's views; a
// refresh or merge builds a new snapshot and swaps it in, so searches in flight keep theirs.

import fs from 'node:fs';
import path from 'node:path';
import { SegmentReader, readDeletesFile } from '../../engine/index.ts';
import type { DeletesBitmap, IndexDocument, SegmentView } from '../../engine/index.ts';
import { CorruptFileError } from '../../storage/index.ts';
import type { Manifest, ManifestSegment } from '../../storage/index.ts';

/** A segment of the snapshot: what the manifest says, plus the open reader and its deletes. */
export interface LiveSegment {
  readonly meta: ManifestSegment;
  readonly reader: SegmentReader;
  /** Never modified once in a snapshot: a new delete makes a copy. */
  readonly deleted: DeletesBitmap | null;
}

/** Where a live document sits in a snapshot. */
export interface DocLocation {
  segmentIndex: number;
  doc: number;
}


export class SegmentSet {
  readonly manifest: Manifest;
  readonly segments: readonly LiveSegment[];
  /** What searches run over (same order as `segments`). */
  readonly views: readonly SegmentView[];
  /** Live documents across all segments. */
  readonly liveCount: number;

  constructor(manifest: Manifest, segments: readonly LiveSegment[]) {
    this.manifest = manifest;
    this.segments = segments;
    this.views = segments.map(({ reader, deleted }) => ({ reader, deleted }));
    this.liveCount = segments.reduce((sum, s) => sum + s.reader.docCount - (s.deleted?.size ?? 0), 0);
  }

  /** Opens every segment the manifest lists in `dir`, with its deletes; closes them on failure. */
  static load(dir: string, manifest: Manifest): SegmentSet {
    const segments: LiveSegment[] = [];
    const opened: SegmentReader[] = [];
    try {
      for (const meta of manifest.segments) {
        const segmentPath = path.join(dir, meta.name);
        if (!fs.existsSync(segmentPath)) throw new CorruptFileError(segmentPath, 'missing (the manifest lists it)');
        const reader = SegmentReader.open(segmentPath);
        opened.push(reader);
        if (reader.docCount !== meta.docCount) {
          throw new CorruptFileError(segmentPath, `holds ${reader.docCount} documents, the manifest says ${meta.docCount}`);
        }
        const deleted = meta.deletes === null ? null : readDeletesFile(path.join(dir, meta.deletes));
        segments.push({ meta, reader, deleted });
      }
    } catch (error) {
      for (const reader of opened) reader.close();
      throw error;
    }
    return new SegmentSet(manifest, segments);
  }

  /** Every live copy of `id` (normally at most one), newest segment first. */
  locateAll(id: string): DocLocation[] {
    const found: DocLocation[] = [];
    for (let segmentIndex = this.segments.length - 1; segmentIndex >= 0; segmentIndex--) {
      const { reader, deleted } = this.segments[segmentIndex];
      const doc = reader.findDoc(id);
      if (doc >= 0 && !(deleted?.has(doc) ?? false)) found.push({ segmentIndex, doc });
    }
    return found;
  }

  /** The live document `id` from the newest segment holding it, or null. */
  document(id: string): IndexDocument | null {
    for (let segmentIndex = this.segments.length - 1; segmentIndex >= 0; segmentIndex--) {
      const { reader, deleted } = this.segments[segmentIndex];
      const doc = reader.findDoc(id);
      if (doc >= 0 && !(deleted?.has(doc) ?? false)) return reader.document(doc);
    }
    return null;
  }

  has(id: string): boolean {
    for (let segmentIndex = this.segments.length - 1; segmentIndex >= 0; segmentIndex--) {
      const { reader, deleted } = this.segments[segmentIndex];
      const doc = reader.findDoc(id);
      if (doc >= 0 && !(deleted?.has(doc) ?? false)) return true;
    }
    return false;
  }

  closeAll(): void {
    for (const segment of this.segments) segment.reader.close();
  }
}
