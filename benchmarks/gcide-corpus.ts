// The GCIDE throughput corpus in ../shared/corpora/gcide (see its SOURCES.md): 126,236
// dictionary entries `{id, title, text, metadata}` and 1,000 queries of 1–3 words. Where it
// lives, whether it is there, and its first N queries (jsonl-corpus.ts reads the files).

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
