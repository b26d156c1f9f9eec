// SciFact for the search-by-meaning benchmark (semantic.ts): a small subset with the judgments
// that stay answerable in it (`--smoke`), indexing into a collection that has an embedder from
// its creation (as scifact.ts's indexScifact does for a keyword collection), waiting until every
// live document is embedded, and the passages the server cuts (counted with the engine's own
// cutPassages, so passages/s can be given next to docs/s), and the server's CPU time (how many
// cores embedding kept busy).

import { cutPassages } from '../engine/vectors/passages.ts';
import type { Qrels } from './ir-metrics.ts';
import type { JsonCall, ScifactDocument } from './scifact.ts';

/** Documents per NDJSON request by default (as scifact.ts). */
export const BATCH = 1000;
/** How often embedding progress is read. */
const POLL_MS = 250;

export interface EmbedderProgress {
  embedded: number;
  pending: number;
  failed: number;
}

/**
 * The first `count` documents, and `qrels` judged on them only: each query keeps the judgments
 * of documents in the subset, and a query with no relevant document left is dropped.
 */
export function subsetWithJudgments(docs: readonly ScifactDocument[], qrels: Qrels, count: number): { docs: ScifactDocument[]; qrels: Qrels } {
  const subset = docs.slice(0, count);
  const ids = new Set(subset.map((d) => d._id));
  const kept: Qrels = new Map();
  for (const [query, judged] of qrels) {
    const inSubset = new Map([...judged].filter(([doc]) => ids.has(doc)));
    if ([...inSubset.values()].some((grade) => grade > 0)) kept.set(query, inSubset);
  }
  return { docs: subset, qrels: kept };
}

/** Passages the server embeds for these documents (JSON documents: no pages). */
export function countPassages(docs: readonly ScifactDocument[]): number {
  let passages = 0;
  for (const doc of docs) passages += cutPassages({ text: doc.text, pages: null }).length;
  return passages;
}

/**
 * Creates `collection` with `embedders` and indexes the documents in NDJSON batches of `batch`;
 * answers ms until keyword-searchable. `refreshEachBatch`: a refresh after every batch, so each
 * batch becomes its own segment; otherwise one refresh at the end (one segment, as scifact.ts's
 * indexScifact).
 */
export async function indexWithEmbedders(
  call: JsonCall,
  collection: string,
  embedders: Record<string, unknown>,
  docs: readonly ScifactDocument[],
  options: { batch?: number; refreshEachBatch?: boolean } = {},
): Promise<number> {
  const batch = options.batch ?? BATCH;
  await call('POST', '/v1/collections', { name: collection, language: 'english', embedders });
  const started = performance.now();
  for (let i = 0; i < docs.length; i += batch) {
    const ndjson = docs
      .slice(i, i + batch)
      .map((d) => JSON.stringify({ id: d._id, title: d.title, text: d.text }))
      .join('\n');
    await call('POST', `/v1/collections/${collection}/documents`, ndjson, 'application/x-ndjson');
    if (options.refreshEachBatch === true && i + batch < docs.length) await call('POST', `/v1/collections/${collection}/refresh`, {});
  }
  await call('POST', `/v1/collections/${collection}/refresh`, {});
  return performance.now() - started;
}

/**
 * Polls the collection until `embedder` has nothing pending and has embedded `expected` live
 * documents; throws after `timeoutMs`. Answers the last progress read.
 */
export async function waitForEmbedding(
  call: JsonCall,
  collection: string,
  embedder: string,
  expected: number,
  timeoutMs: number,
  onProgress?: (progress: EmbedderProgress) => void,
): Promise<EmbedderProgress> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const record = await call('GET', `/v1/collections/${collection}`);
    const progress = record.embedding?.[embedder] as EmbedderProgress | undefined;
    if (progress === undefined) throw new Error(`collection ${collection} has no embedding progress for '${embedder}'`);
    onProgress?.(progress);
    if (progress.pending === 0 && progress.embedded + progress.failed >= expected) return progress;
    if (performance.now() > deadline) throw new Error(`embedding not done after ${timeoutMs} ms: ${JSON.stringify(progress)}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
