// Where a collection keeps its files, and how they are named:
//   <dataDir>/collections/<name>/collection.json   name, language, created_at, settings
//   …/manifest.json                                which segments and deletes are live
//   …/seg-<n>.fseg                                 immutable segments
//   …/seg-<n>.del-<manifest generation>           roaring deletes bitmap of segment n
//   …/seg-<n>.vec-<embedder>-<generation>          vectors of segment n's passages (search by meaning)
//   …/wal/wal-<generation>.log                     write-ahead log
//   …/seg-<n>.fseg.part<i>, …/seg-<n>.fseg.spill-<section>   a merge's temporaries
// Also: removing index files the manifest no longer references, and bytes on disk.

import fs from 'node:fs';
import path from 'node:path';
import { ATOMIC_TEMP_PREFIX } from '../../storage/index.ts';
import type { ManifestSegment } from '../../storage/index.ts';

export const COLLECTIONS_DIR_NAME = 'collections';
export const COLLECTION_CONFIG_FILE = 'collection.json';
export const WAL_DIR_NAME = 'wal';
/** Prefixes of collection directories being created or deleted (never loaded; cleaned up). */
export const CREATING_PREFIX = '.creating-';
export const DELETING_PREFIX = '.deleting-';

const SEGMENT_SUFFIX = '.fseg';
const SEGMENT_FILE_PATTERN = /^seg-\d+\.fseg$/;
/**
 * A part of a segment being indexed again (engine/merge.ts writes `<segment>.part<n>`, then
 * merges them), or a merge's spilled postings (`<segment>.spill-<section>`, segment/postings-writer.ts).
 */
const SEGMENT_PART_PATTERN = /^seg-\d+\.fseg\.(part\d+|spill-[a-z]+)$/;
const DELETES_FILE_PATTERN = /^seg-\d+\.del-\d+$/;
const VECTORS_FILE_PATTERN = /^seg-\d+\.vec-[A-Za-z0-9_-]+-\d+$/;

export function segmentFileName(segmentNumber: number): string {
  return `seg-${segmentNumber}${SEGMENT_SUFFIX}`;
}

/** Deletes bitmap of segment `segmentName` as committed by manifest generation `generation`. */
export function deletesFileName(segmentName: string, generation: number): string {
  const base = segmentName.endsWith(SEGMENT_SUFFIX) ? segmentName.slice(0, -SEGMENT_SUFFIX.length) : segmentName;
  return `${base}.del-${generation}`;
}

/** Vectors of segment `segmentName` for `embedder`, written while manifest generation `generation` was current. */
export function vectorsFileName(segmentName: string, embedder: string, generation: number): string {
  const base = segmentName.endsWith(SEGMENT_SUFFIX) ? segmentName.slice(0, -SEGMENT_SUFFIX.length) : segmentName;
  return `${base}.vec-${embedder}-${generation}`;
}

/** Segment, deletes and vector files (and atomic-write temporaries and segment parts) that a collection directory may hold. */
export function isIndexFileName(name: string): boolean {
  return SEGMENT_FILE_PATTERN.test(name) || SEGMENT_PART_PATTERN.test(name) || DELETES_FILE_PATTERN.test(name) || VECTORS_FILE_PATTERN.test(name) || name.startsWith(ATOMIC_TEMP_PREFIX);
}

/** Every file a manifest's segment refers to: the segment, its deletes and its vector files. */
export function segmentFiles(segment: ManifestSegment): string[] {
  const files = [segment.name];
  if (segment.deletes !== null) files.push(segment.deletes);
  if (segment.vectors !== undefined) files.push(...Object.values(segment.vectors));
  return files;
}

/** Deletes index files in `dir` that are not in `referenced` (leftovers of a crash); returns them. */
export function removeUnreferencedFiles(dir: string, referenced: ReadonlySet<string>): string[] {
  const removed: string[] = [];
  for (const name of fs.readdirSync(dir)) {
    if (!isIndexFileName(name) || referenced.has(name)) continue;
    fs.rmSync(path.join(dir, name), { force: true });
    removed.push(name);
  }
  return removed;
}

/** Bytes of the regular files in `dir` and its subdirectories. */
export function directorySizeBytes(dir: string): number {
  let total = 0;
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  for (const entry of entries) {
    const entryPath = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      total += directorySizeBytes(entryPath);
    } else if (entry.isFile()) {
      try {
        total += fs.statSync(entryPath).size;
      } catch (error) {
        // A file removed between listing and stat (a refresh cleaning up) counts as gone.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
  }
  return total;
}
