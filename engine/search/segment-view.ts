// A segment as one snapshot of a collection sees it: the reader plus the docs deleted as of that
// snapshot. Snapshots are immutable: a later delete makes a new bitmap, never changes this one.

import type { RoaringBitmap32 } from '../../storage/index.ts';
import type { SegmentReader } from '../segment/segment-reader.ts';
import type { VectorReader } from '../vectors/vector-file.ts';
import { DocBitSet } from './doc-bitset.ts';

export interface SegmentView {
  reader: SegmentReader;
  deleted: RoaringBitmap32 | null;
  /** The segment's vector files by embedder name (search by meaning); absent or missing: not embedded. */
  vectors?: ReadonlyMap<string, VectorReader>;
}

const deletedSets = new WeakMap<RoaringBitmap32, DocBitSet>();

/** The view's deleted docs as a bit set (built once per bitmap), or null when none are deleted. */
export function deletedDocs(view: SegmentView): DocBitSet | null {
  const bitmap = view.deleted;
  if (bitmap === null || bitmap.size === 0) return null;
  let set = deletedSets.get(bitmap);
  if (set === undefined) {
    set = DocBitSet.fromDocs(view.reader.docCount, bitmap.toUint32Array());
    deletedSets.set(bitmap, set);
  }
  return set;
}
