// The embedding pool's worker entry (Piscina, several tasks at once on one thread): embeds a
// query's text, or the live documents of a range of a segment — their passages cut (never
// across pages), the collection's template filled for each, embedded in small batches — and
// writes a segment's vector file from its embedded ranges. Query tasks go first: a segment's embedding waits between batches while
// a query is being embedded, so a search waits at most one batch.

import { SegmentReader, cutPassages, passageText, writeVectorFile } from '../../engine/index.ts';
import type { EmbeddedPassage, IndexDocument } from '../../engine/index.ts';
import { FolioError } from '../errors/index.ts';
import { ownVectorPassage } from './own-vectors.ts';
import { embedTexts } from '../embedders/index.ts';
import { replyOfAsync } from './worker-protocol.ts';
import type {
  EmbedDocsTask,
  EmbedQueryTask,
  EmbeddedRange,
  EmbeddingResult,
  EmbeddingTask,
  SegmentEmbedded,
  WorkerReply,
  WriteVectorsTask,
} from './worker-protocol.ts';

/** Passages embedded per call, per source: small for the builtin model, so queries wait little. */
const BATCH_PASSAGES = { builtin: 8, local: 16, openai: 64, user: 64 } as const;

let queriesRunning = 0;

export default async function embed(task: EmbeddingTask): Promise<WorkerReply<EmbeddingResult>> {
  return replyOfAsync<EmbeddingResult>(async () => {
    if (task.kind === 'embed-query') return embedQuery(task);
    if (task.kind === 'embed-docs') return embedDocs(task);
    return writeVectors(task);
  });
}

async function embedQuery(task: EmbedQueryTask): Promise<number[]> {
  queriesRunning++;
  try {
    const [vector] = await embedTexts(task.runtime, [task.text], task.timeoutMs, true);
    checkDimensions(vector, task.runtime.dimensions);
    return vector;
  } finally {
    queriesRunning--;
  }
}

/** The passages of the live documents in [fromDoc, toDoc) of a segment, embedded. */
async function embedDocs(task: EmbedDocsTask): Promise<EmbeddedRange> {
  if (task.runtime.source === 'user') return documentsOwnVectors(task);
  const docs: number[] = [];
  const pages: number[] = [];
  const spans: number[] = [];
  const texts: string[] = [];
  const liveDocs = forEachLiveDocument(task, (doc, document) => {
    for (const passage of cutPassages(document)) {
      docs.push(doc);
      pages.push(passage.page);
      spans.push(passage.start, passage.end);
      texts.push(passageText(task.documentTemplate, document, passage));
    }
  });
  const batch = BATCH_PASSAGES[task.runtime.source];
  let dims = task.runtime.dimensions;
  let vectors = new Float32Array(0);
  for (let start = 0; start < texts.length; start += batch) {
    // Queries first: wait while one is being embedded.
    while (queriesRunning > 0) await new Promise((resolve) => setTimeout(resolve, 1));
    const embedded = await embedTexts(task.runtime, texts.slice(start, start + batch));
    for (let i = 0; i < embedded.length; i++) {
      dims ??= embedded[i].length;
      checkDimensions(embedded[i], dims);
      if (vectors.length === 0) vectors = new Float32Array(texts.length * dims);
      vectors.set(embedded[i], (start + i) * dims);
    }
  }
  return { liveDocs, docs: Uint32Array.from(docs), pages: Int32Array.from(pages), spans: Uint32Array.from(spans), vectors, dims: dims ?? 0 };
}

/** Calls `visit` with each live document in [fromDoc, toDoc) of the task's segment; answers how many there were. */
function forEachLiveDocument(task: EmbedDocsTask, visit: (doc: number, document: IndexDocument) => void): number {
  const reader = SegmentReader.open(task.segmentPath, { verifyChecksum: false });
  try {
    const deleted = new Set(task.deletedDocs);
    let liveDocs = 0;
    for (let doc = task.fromDoc; doc < task.toDoc; doc++) {
      if (deleted.has(doc)) continue;
      liveDocs++;
      visit(doc, reader.document(doc));
    }
    return liveDocs;
  } finally {
    reader.close();
  }
}

/**
 * A `user` embedder: each live document's own vector (own-vectors.ts; a document without one is
 * not found by meaning). Nothing is embedded.
 */
function documentsOwnVectors(task: EmbedDocsTask): EmbeddedRange {
  const dims = task.runtime.dimensions ?? 0;
  const docs: number[] = [];
  const pages: number[] = [];
  const spans: number[] = [];
  const vectors: number[] = [];
  const liveDocs = forEachLiveDocument(task, (doc, document) => {
    const passage = ownVectorPassage(doc, document, task.embedder, dims);
    if (passage === null) return;
    docs.push(doc);
    pages.push(passage.page);
    spans.push(passage.start, passage.end);
    for (let i = 0; i < passage.vector.length; i++) vectors.push(passage.vector[i]);
  });
  return { liveDocs, docs: Uint32Array.from(docs), pages: Int32Array.from(pages), spans: Uint32Array.from(spans), vectors: Float32Array.from(vectors), dims };
}

/** One vector file from the embedded ranges of a segment (in doc order). */
function writeVectors(task: WriteVectorsTask): SegmentEmbedded {
  const passages: EmbeddedPassage[] = [];
  let dims = 0;
  let docs = 0;
  for (const range of task.ranges) {
    docs += range.liveDocs;
    if (range.docs.length === 0) continue;
    if (dims !== 0 && range.dims !== dims) throw new FolioError('embedder_failed', `the embedder answered vectors of ${range.dims} and ${dims} dimensions`);
    dims = range.dims;
    for (let row = 0; row < range.docs.length; row++) {
      passages.push({
        doc: range.docs[row],
        page: range.pages[row],
        start: range.spans[row * 2],
        end: range.spans[row * 2 + 1],
        vector: range.vectors.subarray(row * dims, (row + 1) * dims),
      });
    }
  }
  const byteLength = writeVectorFile(task.outPath, { embedder: task.embedder, model: task.model, dims: Math.max(1, dims), docCount: task.docCount, passages });
  return { docs, passages: passages.length, byteLength };
}

function checkDimensions(vector: readonly number[], dims: number | null): void {
  if (dims !== null && vector.length !== dims) {
    throw new FolioError('embedder_failed', `the embedder answered a vector of ${vector.length} dimensions, ${dims} expected`);
  }
}
