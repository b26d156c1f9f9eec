// Reading a segment's deletes file: the roaring bitmap of its dead doc ids that a commit wrote
// beside it (storage's bitmap file, checksummed; a damaged one raises CorruptFileError naming
// it). The one way deletes files are read: by the search and index workers and by the server's
// indexing room (snapshots, commits, `folio check`); writing them belongs to indexing alone.

import { readBitmapFile } from '../../storage/index.ts';
import type { RoaringBitmap32 } from '../../storage/index.ts';

/** A segment's deleted doc ids, as a SegmentView carries them. */
export type DeletesBitmap = RoaringBitmap32;

/** The deleted doc ids stored in the deletes file at `filePath`. */
export function readDeletesFile(filePath: string): DeletesBitmap {
  return readBitmapFile(filePath);
}
