// The GCIDE throughput corpus in ../shared/corpora/gcide (see its SOURCES.md): 126,236
// dictionary entries `{id, title, text, metadata}` and 1,000 queries of 1–3 words. Where it
// lives, whether it is there, its first N queries (jsonl-corpus.ts reads the files), the run
// options the GCIDE benchmarks share, and a stable bucket of an entry's id (for the fields they
// add to the entries: a grouping field, a tenant).

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { numberOption } from './bench-options.ts';
import { readQueryTexts } from './jsonl-corpus.ts';

export const GCIDE_DIR = fileURLToPath(new URL('../../shared/corpora/gcide/', import.meta.url));
export const GCIDE_CORPUS = join(GCIDE_DIR, 'corpus.jsonl');
export const GCIDE_QUERIES = join(GCIDE_DIR, 'queries.jsonl');

export function gcideAvailable(): boolean {
  return existsSync(GCIDE_CORPUS) && existsSync(GCIDE_QUERIES);
}

export function readGcideQueries(limit = Infinity): string[] {
  return readQueryTexts(GCIDE_QUERIES, limit);
}

/** A GCIDE benchmark's run: entries, queries and passes. */
export interface GcideRun {
  /** Entries to import (all unless `--docs`). */
  docLimit: number;
  queries: string[];
  passes: number;
}

/**
 * The options the GCIDE benchmarks share: `--docs N` (default all), `--queries N` (1,000),
 * `--passes P` (3), `--smoke` (2,000 entries, 100 queries, 1 pass).
 */
export function gcideRunOptions(): GcideRun {
  const { values: args } = parseArgs({
    options: {
      docs: { type: 'string' },
      queries: { type: 'string' },
      passes: { type: 'string' },
      smoke: { type: 'boolean', default: false },
    },
  });
  const smoke = args.smoke;
  return {
    docLimit: numberOption(args.docs, smoke ? 2_000 : Infinity, 'docs'),
    queries: readGcideQueries(numberOption(args.queries, smoke ? 100 : 1_000, 'queries')),
    passes: numberOption(args.passes, smoke ? 1 : 3, 'passes'),
  };
}

/** A small stable hash (FNV-1a) of an entry's id, as one of `buckets` numbers. */
export function idBucket(id: string, buckets: number): number {
  let hash = 2_166_136_261;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 16_777_619);
  return (hash >>> 0) % buckets;
}
