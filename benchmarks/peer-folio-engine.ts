// Throughput peer: Folio's own engine in process, without HTTP, run as a child by
// benchmarks/gcide.ts and benchmarks/scale.ts (peer-process.ts) after the server has stopped.
// Opens the collection the server built (its manifest, segments and deletes, as the server
// does) and runs the same searches as GET …/search?q=…&limit=10 does (the route's own request
// builder, with the default typo tolerance a new collection has, as the route adds it), so the
// table separates the engine's time from the HTTP layer's. It times full hits and
// `fields=id&typos=0` (ids and scores, exact words: what the other peers do), passes
// alternating. It builds nothing: buildMs is null.

import { join } from 'node:path';
import { Analyzer, DEFAULT_TYPO_TOLERANCE, searchSegments } from '../engine/index.ts';
import { toSearchRequest } from '../server/http/routes/search/search-request.ts';
import { SegmentSet } from '../server/indexing/segment-set.ts';
import { readManifest } from '../storage/index.ts';
import { readQueryTexts } from './jsonl-corpus.ts';
import { measureAlternating } from './latency.ts';
import { peerInputFromArgv, reportPeerResult } from './peer-process.ts';
import { peakRssBytes } from './proc-memory.ts';

// The peer's scratch directory is the server's data directory.
const input = peerInputFromArgv();
const collectionDir = join(input.dir, 'collections', input.collection ?? 'gcide');
const manifest = readManifest(collectionDir);
if (manifest === null) throw new Error(`no manifest in ${collectionDir}`);
const snapshot = SegmentSet.load(collectionDir, manifest);
const analyzer = Analyzer.for('english');
const queries = readQueryTexts(input.queriesFile, input.queries);
const search = (params: { q: string; limit: number; fields?: string; typos?: '0' }): unknown =>
  searchSegments(snapshot.views, analyzer, { ...toSearchRequest(params, 'querystring'), typoTolerance: DEFAULT_TYPO_TOLERANCE });
const [latency, idsLatency] = await measureAlternating(
  [
    { queries, run: (q: string) => search({ q, limit: 10 }) },
    { queries, run: (q: string) => search({ q, limit: 10, fields: 'id', typos: '0' }) },
  ],
  input.passes,
);
snapshot.closeAll();
reportPeerResult({
  engine: 'Folio engine (in process, no HTTP)',
  docs: snapshot.liveCount,
  buildMs: null,
  indexBytes: null,
  indexBytesNote: '',
  peakRssBytes: peakRssBytes('self'),
  latency,
  idsLatency,
  failedQueries: 0,
});
