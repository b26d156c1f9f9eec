// The SciFact corpus (../shared/corpora/scifact) for the relevance benchmarks (quality.ts,
// typos.ts): reading documents, queries and judgments, a JSON caller for a running server, and
// indexing the corpus into a collection over HTTP the way a user would (NDJSON batches, then
// a refresh).

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseQrelsTsv } from './ir-metrics.ts';
import type { Qrels } from './ir-metrics.ts';

export const SCIFACT_DIR = fileURLToPath(new URL('../../shared/corpora/scifact/', import.meta.url));
/** Documents per NDJSON request. */
const BATCH = 1000;

export interface ScifactDocument {
  _id: string;
  title: string;
  text: string;
}

export interface Scifact {
  docs: ScifactDocument[];
  queries: Map<string, string>;
  qrels: Qrels;
}

export type Split = 'test' | 'train';

export function scifactAvailable(): boolean {
  return existsSync(join(SCIFACT_DIR, 'corpus.jsonl'));
}

/** Checks a `--split` value. */
export function parseSplit(value: string | undefined): Split {
  const split = value ?? 'test';
  if (split !== 'test' && split !== 'train') throw new Error(`--split is test or train, not '${split}'`);
  return split;
}

function jsonLines<T>(file: string): T[] {
  return readFileSync(join(SCIFACT_DIR, file), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as T);
}

export function readScifact(split: Split): Scifact {
  return {
    docs: jsonLines<ScifactDocument>('corpus.jsonl'),
    queries: new Map(jsonLines<{ _id: string; text: string }>('queries.jsonl').map((q) => [q._id, q.text])),
    qrels: parseQrelsTsv(readFileSync(join(SCIFACT_DIR, `qrels/${split}.tsv`), 'utf8')),
  };
}

/** Calls the server's JSON API with the master key; throws on a non-2xx answer. */
export type JsonCall = (method: string, path: string, body?: unknown, contentType?: string) => Promise<any>;

export function jsonCaller(url: string, masterKey: string): JsonCall {
  const headers = { authorization: `Bearer ${masterKey}`, 'content-type': 'application/json' };
  return async (method, path, body, contentType) => {
    const response = await fetch(url + path, {
      method,
      headers: { ...headers, ...(contentType ? { 'content-type': contentType } : {}) },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const json = await response.json().catch(() => null);
    if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
}

/** Creates `collection` and indexes the documents into it until they are searchable; answers ms. */
export async function indexScifact(call: JsonCall, collection: string, docs: readonly ScifactDocument[]): Promise<number> {
  await call('POST', '/v1/collections', { name: collection, language: 'english' });
  const started = performance.now();
  for (let i = 0; i < docs.length; i += BATCH) {
    const ndjson = docs
      .slice(i, i + BATCH)
      .map((d) => JSON.stringify({ id: d._id, title: d.title, text: d.text }))
      .join('\n');
    await call('POST', `/v1/collections/${collection}/documents`, ndjson, 'application/x-ndjson');
  }
  await call('POST', `/v1/collections/${collection}/refresh`, {});
  return performance.now() - started;
}
