// Throughput peer: MiniSearch (in-memory, JavaScript), run as a child by benchmarks/gcide.ts
// (peer-process.ts) with --expose-gc. Indexes title and text with MiniSearch's defaults (no
// stemming, OR of terms, BM25+), times `addAll` over the parsed corpus, reports the heap the
// index takes (heap after a full GC, minus the heap before the build with the corpus already
// loaded), and searches each query keeping the first 10 results.

import MiniSearch from 'minisearch';
import { readCorpusDocs, readQueryTexts } from './jsonl-corpus.ts';
import type { CorpusDoc } from './jsonl-corpus.ts';
import { measureSequential } from './latency.ts';
import { peerInputFromArgv, reportPeerResult } from './peer-process.ts';
import { peakRssBytes } from './proc-memory.ts';

const gc = (globalThis as { gc?: () => void }).gc;
function heapAfterGc(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

const input = peerInputFromArgv();
const docs = readCorpusDocs(input.corpusFile, input.docs);
const heapBefore = heapAfterGc();
const started = performance.now();
const index = new MiniSearch<CorpusDoc>({ fields: ['title', 'text'], storeFields: ['title'] });
index.addAll(docs);
const buildMs = performance.now() - started;
const indexBytes = heapAfterGc() - heapBefore;

const queries = readQueryTexts(input.queriesFile, input.queries);
const latency = await measureSequential(queries, input.passes, (query) => index.search(query).slice(0, 10));
reportPeerResult({
  engine: 'MiniSearch',
  docs: docs.length,
  buildMs,
  indexBytes: gc === undefined ? null : indexBytes,
  indexBytesNote: 'heap growth (in memory, nothing on disk)',
  peakRssBytes: peakRssBytes('self'),
  latency,
  failedQueries: 0,
});
