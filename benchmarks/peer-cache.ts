// The peer cache (`npm run bench:scale -- --peer-cache DIR`): a peer's built index kept for
// later runs, one directory per peer and corpus, keyed by the corpus's manifest.json (the
// generator writes the same manifest for the same corpus). A directory counts only once it
// holds a build record (build.json, written after the build succeeded), which keeps what the
// build measured; a directory without one is a build that was cut short and is started over.
// benchmarks/peers/xapian_peer.py reads and writes the same record.

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const BUILD_RECORD_FILE = 'build.json';

export interface BuildRecord {
  engine: string;
  docs: number;
  buildMs: number;
  /** VmHWM of the process that built it, measured when the build ended. */
  peakRssBytes: number | null;
  /** ISO 8601. */
  builtAt: string;
}

/** `root/<peer>-<first 16 hex digits of the manifest's SHA-256>`. */
export function peerCacheDir(root: string, peer: string, manifestFile: string): string {
  const key = createHash('sha256').update(readFileSync(manifestFile)).digest('hex').slice(0, 16);
  return join(root, `${peer}-${key}`);
}

/** The record of a finished build in `indexDir`, or null (nothing cached there). */
export function readBuildRecord(indexDir: string): BuildRecord | null {
  const file = join(indexDir, BUILD_RECORD_FILE);
  if (!existsSync(file)) return null;
  return JSON.parse(readFileSync(file, 'utf8')) as BuildRecord;
}

/** Empties `indexDir` for a fresh build (whatever an interrupted build left goes). */
export function prepareIndexDir(indexDir: string): void {
  rmSync(indexDir, { recursive: true, force: true });
  mkdirSync(indexDir, { recursive: true });
}

export function writeBuildRecord(indexDir: string, record: BuildRecord): void {
  writeFileSync(join(indexDir, BUILD_RECORD_FILE), JSON.stringify(record, null, 2) + '\n');
}
