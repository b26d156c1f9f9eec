// Whether the Sphinx peer of the throughput benchmarks (benchmarks/peer-sphinx.ts) can run:
// Sphinx's `searchd` and `indexer` executables on PATH (Debian's sphinxsearch puts them in
// /usr/bin). Where they are missing the peer is skipped with SPHINX_SKIPPED_NOTE, never an
// error, as the Xapian peer is (peer-xapian.ts).

import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { runPeer } from './peer-process.ts';
import type { PeerInput, PeerResult } from './peer-process.ts';

export interface SphinxBinaries {
  searchd: string;
  indexer: string;
}

export const SPHINX_SKIPPED_NOTE = 'Sphinx peer skipped: searchd/indexer not found; on Debian: apt-get install sphinxsearch';

/** The first executable `name` in a PATH directory (or /usr/bin), or null. */
function findExecutable(name: string): string | null {
  const dirs = [...(process.env.PATH ?? '').split(delimiter).filter((dir) => dir !== ''), '/usr/bin'];
  for (const dir of dirs) {
    const file = join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return null;
}

/** Full paths of searchd and indexer, or null when either is missing. */
export function sphinxBinaries(): SphinxBinaries | null {
  const searchd = findExecutable('searchd');
  const indexer = findExecutable('indexer');
  return searchd !== null && indexer !== null ? { searchd, indexer } : null;
}

export function sphinxAvailable(): boolean {
  return sphinxBinaries() !== null;
}

/** Runs the Sphinx peer, or prints why it is skipped and resolves with null. */
export async function runSphinxPeer(input: PeerInput): Promise<PeerResult | null> {
  if (!sphinxAvailable()) {
    console.log(SPHINX_SKIPPED_NOTE);
    return null;
  }
  return runPeer('peer-sphinx.ts', input);
}
