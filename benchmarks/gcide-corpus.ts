// The GCIDE throughput corpus in ../shared/corpora/gcide (see its SOURCES.md): 126,236
// dictionary entries `{id, title, text, metadata}` and 1,000 queries of 1–3 words. Readers
// for the first N entries (all at once, or streamed line by line) and the first N queries.

import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const GCIDE_DIR = fileURLToPath(new URL('../../shared/corpora/gcide/', import.meta.url));
export const GCIDE_CORPUS = join(GCIDE_DIR, 'corpus.jsonl');
export const GCIDE_QUERIES = join(GCIDE_DIR, 'queries.jsonl');

export interface GcideDoc {
  id: string;
  title: string;
  text: string;
  metadata: Record<string, string | number | boolean | string[] | number[]>;
}

export function gcideAvailable(): boolean {
  return existsSync(GCIDE_CORPUS) && existsSync(GCIDE_QUERIES);
}

/** The first `limit` lines of a JSONL file, unparsed (all of them for Infinity). */
export function readJsonlLines(file: string, limit = Infinity): string[] {
  const lines: string[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (lines.length >= limit) break;
    if (line !== '') lines.push(line);
  }
  return lines;
}

export function readGcideDocs(limit = Infinity): GcideDoc[] {
  return readJsonlLines(GCIDE_CORPUS, limit).map((line) => JSON.parse(line) as GcideDoc);
}

/** Streams the first `limit` entries without holding the file in memory. */
export async function* streamGcideDocs(limit = Infinity): AsyncGenerator<GcideDoc> {
  if (limit <= 0) return;
  const lines = createInterface({ input: createReadStream(GCIDE_CORPUS), crlfDelay: Infinity });
  let read = 0;
  try {
    for await (const line of lines) {
      if (line === '') continue;
      yield JSON.parse(line) as GcideDoc;
      if (++read >= limit) break;
    }
  } finally {
    lines.close();
  }
}

export function readGcideQueries(limit = Infinity): string[] {
  return readJsonlLines(GCIDE_QUERIES, limit).map((line) => (JSON.parse(line) as { text: string }).text);
}
