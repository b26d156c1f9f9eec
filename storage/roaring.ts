// Roaring bitmaps (the `roaring` native package) and their on-disk form: a segment-file
// container with one 'bitmap' section in the portable serialization, so a bitmap file gets the
// same magic, version and checksum protection as every other index file.

import roaring from 'roaring';
import type { RoaringBitmap32 as RoaringBitmap32Instance } from 'roaring';
import { readSegmentFile, writeSegmentFile } from './segment-file.ts';
import { CorruptFileError } from './errors.ts';

// `roaring` is CommonJS: a named import type-checks but fails at run time.
export const RoaringBitmap32 = roaring.RoaringBitmap32;
export type RoaringBitmap32 = RoaringBitmap32Instance;

/** Name of the section holding the serialized bitmap. */
export const BITMAP_SECTION = 'bitmap';
const PORTABLE = 'portable';

/** Writes `bitmap` to `path` atomically and durably; returns the file's length in bytes. */
export function writeBitmapFile(path: string, bitmap: RoaringBitmap32): number {
  return writeSegmentFile(path, [[BITMAP_SECTION, bitmap.serialize(PORTABLE)]]);
}

/** Reads a bitmap written by writeBitmapFile; throws CorruptFileError if damaged. */
export function readBitmapFile(path: string): RoaringBitmap32 {
  const bytes = readSegmentFile(path).section(BITMAP_SECTION);
  try {
    return RoaringBitmap32.deserialize(bytes, PORTABLE);
  } catch (error) {
    throw new CorruptFileError(path, `bitmap does not deserialize: ${(error as Error).message}`);
  }
}
