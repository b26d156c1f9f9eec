// Which object of the store each index file in a node's collection directory came from
// (`cluster-files.json`): written when the node downloads a file or uploads one it built. A
// file with no origin, or another origin than the published manifest names, was built by this
// node as a writer and never published — a successor may have published a different file of
// the same name — so it is never taken for the published one: it is fetched again.

import path from 'node:path';
import { readPrivateJsonFile, writePrivateJsonFile } from '../../storage/index.ts';

export const ORIGINS_FILE = 'cluster-files.json';

export class LocalFileOrigins {
  private readonly origins: Map<string, string>;

  private constructor(
    private readonly file: string,
    origins: Map<string, string>,
  ) {
    this.origins = origins;
  }

  /** The origins recorded in `dir` (none when the file is missing or unreadable). */
  static read(dir: string): LocalFileOrigins {
    const file = path.join(dir, ORIGINS_FILE);
    let recorded: unknown;
    try {
      recorded = readPrivateJsonFile(file);
    } catch {
      recorded = undefined; // damaged: every file is fetched again
    }
    const entries = typeof recorded === 'object' && recorded !== null ? Object.entries(recorded as Record<string, unknown>) : [];
    return new LocalFileOrigins(file, new Map(entries.filter((entry): entry is [string, string] => typeof entry[1] === 'string')));
  }

  /** True when the local file `name` is the object `key`. */
  is(name: string, key: string): boolean {
    return this.origins.get(name) === key;
  }

  set(name: string, key: string): void {
    this.origins.set(name, key);
  }

  /** Keeps only the files in `names` and writes the record durably. */
  save(names: Iterable<string>): void {
    const keep = new Set(names);
    for (const name of [...this.origins.keys()]) if (!keep.has(name)) this.origins.delete(name);
    writePrivateJsonFile(this.file, Object.fromEntries([...this.origins].sort(([a], [b]) => (a < b ? -1 : 1))));
  }
}
