// The embedding pool's worker entry (Piscina, several tasks at once on one thread): embeds a
// query's text, or every live document of a segment — its passages cut (never across pages),
// the collection's template filled for each, embedded in small batches — and writes the
// segment's vector file. Query tasks go first: a segment's embedding waits between batches while
// a query is being embedded, so a search waits at most one batch.

import { SegmentReader, cutPassages, passageText, writeVectorFile } from '../../engine/index.ts';
import type { EmbeddedPassage } from '../../engine/index.ts';
import { FolioError } from '../errors/index.ts';
import { embedTexts } from './text-embedders.ts';
import { replyOfAsync } from './worker-protocol.ts';
import type { EmbedQueryTask, EmbedSegmentTask, EmbeddingTask, SegmentEmbedded, WorkerReply } from './worker-protocol.ts';

/** Passages embedded per call, per source: small for the builtin model, so queries wait little. */
const BATCH_PASSAGES = { builtin: 8, openai: 64 } as const;

let queriesRunning = 0;

export default async function embed(task: EmbeddingTask): Promise<WorkerReply<number[] | SegmentEmbedded>> {
  return replyOfAsync<number[] | SegmentEmbedded>(() => (task.kind === 'embed-query' ? embedQuery(task) : embedSegment(task)));
}

async function embedQuery(task: EmbedQueryTask): Promise<number[]> {
  queriesRunning++;
  try {
    const [vector] = await embedTexts(task.runtime, [task.text], task.timeoutMs);
    checkDimensions(vector, task.runtime.dimensions);
    return vector;
  } finally {
    queriesRunning--;
  }
}

async function embedSegment(task: EmbedSegmentTask): Promise<SegmentEmbedded> {
  const reader = SegmentReader.open(task.segmentPath, { verifyChecksum: false });
  try {
    const deleted = new Set(task.deletedDocs);
    const passages: EmbeddedPassage[] = [];
    const texts: string[] = [];
    let docs = 0;
    for (let doc = 0; doc < reader.docCount; doc++) {
      if (deleted.has(doc)) continue;
      docs++;
      const document = reader.document(doc);
      for (const passage of cutPassages(document)) {
        passages.push({ doc, ...passage, vector: [] });
        texts.push(passageText(task.documentTemplate, document, passage));
      }
    }
    const batch = BATCH_PASSAGES[task.runtime.source];
    let dims = task.runtime.dimensions;
    for (let start = 0; start < texts.length; start += batch) {
      // Queries first: wait while one is being embedded.
      while (queriesRunning > 0) await new Promise((resolve) => setTimeout(resolve, 1));
      const vectors = await embedTexts(task.runtime, texts.slice(start, start + batch));
      for (let i = 0; i < vectors.length; i++) {
        dims ??= vectors[i].length;
        checkDimensions(vectors[i], dims);
        passages[start + i].vector = Float32Array.from(vectors[i]);
      }
    }
    const byteLength = writeVectorFile(task.outPath, { embedder: task.embedder, model: `${task.runtime.source}:${task.runtime.model}`, dims: dims ?? 1, docCount: reader.docCount, passages });
    return { docs, passages: passages.length, byteLength };
  } finally {
    reader.close();
  }
}

function checkDimensions(vector: readonly number[], dims: number | null): void {
  if (dims !== null && vector.length !== dims) {
    throw new FolioError('embedder_failed', `the embedder answered a vector of ${vector.length} dimensions, ${dims} expected`);
  }
}
