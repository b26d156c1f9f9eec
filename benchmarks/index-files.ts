// The bytes of a Folio collection on disk, by kind of file: segments (`.fseg`), deletes
// (`.del-N`), the write-ahead log (under `wal/`) and the rest (manifest and the like).

import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface IndexFiles {
  segments: number;
  deletes: number;
  wal: number;
  other: number;
  total: number;
  segmentCount: number;
}

/** Bytes under a collection directory, by kind of file. */
export function indexFiles(collectionDir: string): IndexFiles {
  const files: IndexFiles = { segments: 0, deletes: 0, wal: 0, other: 0, total: 0, segmentCount: 0 };
  const walk = (dir: string, inWal: boolean): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        walk(path, inWal || entry.name === 'wal');
        continue;
      }
      const size = statSync(path).size;
      files.total += size;
      if (inWal) files.wal += size;
      else if (entry.name.endsWith('.fseg')) {
        files.segments += size;
        files.segmentCount++;
      } else if (/\.del-\d+$/.test(entry.name)) files.deletes += size;
      else files.other += size;
    }
  };
  walk(collectionDir, false);
  return files;
}
