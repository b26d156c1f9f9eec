// One collection's part of a data snapshot (`POST /v1/snapshots`): its committed index and its
// write-ahead log as they stand at one instant, gathered in a folder in one synchronous step, so
// every write acknowledged before it is in the copy (in a segment, or in the WAL it replays)
// and no commit can slip in between. Immutable files — segments, deletes and vector files, kept
// originals — are hard links (no bytes copied); the manifest is written from the snapshot
// in memory (a closed collection's from its file); collection.json and the WAL files are copied
// (the WAL grows in place).

import fs from 'node:fs';
import path from 'node:path';
import { listWalGenerations, walFilePath, writeManifest } from '../../storage/index.ts';
import { COLLECTION_CONFIG_FILE, WAL_DIR_NAME, segmentFiles } from './collection-layout.ts';
import type { Manifest } from '../../storage/index.ts';

/** A hard link of `from` at `to`, or a copy where links cannot be made (another file system). */
export function linkOrCopy(from: string, to: string): void {
  try {
    fs.linkSync(from, to);
  } catch (error) {
    if (!['EXDEV', 'EPERM', 'ENOTSUP'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
    fs.copyFileSync(from, to);
  }
}

/** Gathers the collection at `dir` (its current committed `manifest`: an open one's in memory, a closed one's from its file) into `target`. */
export function captureCollection(dir: string, manifest: Manifest, target: string, originalsDirName: string): void {
  fs.mkdirSync(path.join(target, WAL_DIR_NAME), { recursive: true, mode: 0o700 });
  for (const file of manifest.segments.flatMap(segmentFiles)) linkOrCopy(path.join(dir, file), path.join(target, file));
  writeManifest(target, manifest);
  fs.copyFileSync(path.join(dir, COLLECTION_CONFIG_FILE), path.join(target, COLLECTION_CONFIG_FILE));
  const walDir = path.join(dir, WAL_DIR_NAME);
  for (const generation of listWalGenerations(walDir)) {
    if (generation >= manifest.walGeneration) fs.copyFileSync(walFilePath(walDir, generation), walFilePath(path.join(target, WAL_DIR_NAME), generation));
  }
  const originals = path.join(dir, originalsDirName);
  if (fs.existsSync(originals)) {
    fs.mkdirSync(path.join(target, originalsDirName), { mode: 0o700 });
    for (const name of fs.readdirSync(originals)) linkOrCopy(path.join(originals, name), path.join(target, originalsDirName, name));
  }
}
