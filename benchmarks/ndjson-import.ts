// Imports documents into a Folio server over HTTP as NDJSON batches (`POST
// /v1/collections/{c}/documents`), one request at a time, the next batch read while the
// current one is sent. A `429` or `503` answer is back-pressure: the importer waits the
// answer's `Retry-After` seconds (1 s if it has none) and sends the same batch again, and
// counts the retry. Every request is timed on its own, so a stalled request shows.

import { streamJsonlLines } from './jsonl-corpus.ts';

/** A batch answered 429/503 this many times in a row fails the import. */
const MAX_RETRIES_PER_BATCH = 600;
/** A request longer than this counts as slow (issue 15: no import request stalls > 1 s). */
export const SLOW_REQUEST_MS = 1_000;

export interface ImportOptions {
  url: string;
  headers: Record<string, string>;
  collection: string;
  /** NDJSON bodies, each one request. */
  batches: Iterable<string> | AsyncIterable<string>;
}

export interface ImportResult {
  /** Batches accepted. */
  batches: number;
  /** 429/503 answers waited out, and the seconds spent waiting. */
  retries: number;
  retryWaitMs: number;
  /** The longest single request (any answer), and how many took over SLOW_REQUEST_MS. */
  maxRequestMs: number;
  slowRequests: number;
}

function retryAfterMs(header: string | null): number {
  const seconds = header === null ? Number.NaN : Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = header === null ? Number.NaN : Date.parse(header);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : 1000;
}

export async function importNdjson(options: ImportOptions): Promise<ImportResult> {
  const url = `${options.url}/v1/collections/${encodeURIComponent(options.collection)}/documents`;
  const headers = { ...options.headers, 'content-type': 'application/x-ndjson' };
  const result: ImportResult = { batches: 0, retries: 0, retryWaitMs: 0, maxRequestMs: 0, slowRequests: 0 };
  const send = async (body: string): Promise<void> => {
    for (let attempt = 0; ; attempt++) {
      const started = performance.now();
      const response = await fetch(url, { method: 'POST', headers, body });
      const text = await response.text();
      const elapsed = performance.now() - started;
      result.maxRequestMs = Math.max(result.maxRequestMs, elapsed);
      if (elapsed > SLOW_REQUEST_MS) result.slowRequests++;
      if (response.ok) return;
      if ((response.status === 429 || response.status === 503) && attempt < MAX_RETRIES_PER_BATCH) {
        const wait = retryAfterMs(response.headers.get('retry-after'));
        result.retries++;
        result.retryWaitMs += wait;
        await new Promise((resolve) => setTimeout(resolve, wait));
        continue;
      }
      throw new Error(`POST ${url} → ${response.status} ${text.slice(0, 500)}`);
    }
  };
  const iterator = Symbol.asyncIterator in options.batches
    ? (options.batches as AsyncIterable<string>)[Symbol.asyncIterator]()
    : (options.batches as Iterable<string>)[Symbol.iterator]();
  let next = Promise.resolve(iterator.next());
  for (;;) {
    const item = await next;
    if (item.done) break;
    next = Promise.resolve(iterator.next());
    await send(item.value);
    result.batches++;
  }
  return result;
}

/** The JSONL file's first `limit` lines as NDJSON bodies of `batchSize` lines, streamed. */
export async function* ndjsonBatches(file: string, batchSize: number, limit = Infinity): AsyncGenerator<string> {
  let lines: string[] = [];
  for await (const line of streamJsonlLines(file, limit)) {
    lines.push(line);
    if (lines.length >= batchSize) {
      yield lines.join('\n');
      lines = [];
    }
  }
  if (lines.length > 0) yield lines.join('\n');
}
