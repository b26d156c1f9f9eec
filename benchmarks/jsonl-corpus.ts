// Readers for the benchmark corpora written as JSONL (GCIDE, the synthetic scaling corpus):
// documents `{id, title, text, metadata}` one a line, and queries `{_id, text, …}` one a line.
// Reads the first N lines at once, or streams documents without holding the file in memory.

import { createReadStream, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

export interface CorpusDoc {
  id: string;
  title: string;
  text: string;
  metadata: Record<string, string | number | boolean | string[] | number[]>;
}

/** The first `limit` non-empty lines of a JSONL file, unparsed (all of them for Infinity). */
export function readJsonlLines(file: string, limit = Infinity): string[] {
  const lines: string[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (lines.length >= limit) break;
    if (line !== '') lines.push(line);
  }
  return lines;
}

export function readCorpusDocs(file: string, limit = Infinity): CorpusDoc[] {
  return readJsonlLines(file, limit).map((line) => JSON.parse(line) as CorpusDoc);
}

/** Streams the first `limit` non-empty lines of a JSONL file, unparsed. */
export async function* streamJsonlLines(file: string, limit = Infinity): AsyncGenerator<string> {
  if (limit <= 0) return;
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  let read = 0;
  try {
    for await (const line of lines) {
      if (line === '') continue;
      yield line;
      if (++read >= limit) break;
    }
  } finally {
    lines.close();
  }
}

/** Streams the first `limit` documents, parsed. */
export async function* streamCorpusDocs(file: string, limit = Infinity): AsyncGenerator<CorpusDoc> {
  for await (const line of streamJsonlLines(file, limit)) yield JSON.parse(line) as CorpusDoc;
}

/** The `text` of the first `limit` queries. */
export function readQueryTexts(file: string, limit = Infinity): string[] {
  return readJsonlLines(file, limit).map((line) => (JSON.parse(line) as { text: string }).text);
}
