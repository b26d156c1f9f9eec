// GCIDE peer: Folio's own engine in process, without HTTP, run as a child by
// benchmarks/gcide.ts (peer-process.ts) after the server has stopped. Opens the collection
// the server built (its manifest, segments and deletes, as the server does) and runs the same
// searches as GET …/search?q=…&limit=10 does (the route's own request builder), so the table separates the engine's time from
// the HTTP layer's. It builds nothing: buildMs is null.

import { join } from 'node:path';
import { Analyzer, searchSegments } from '../engine/index.ts';
import { toSearchRequest } from '../server/http/routes/search/search-request.ts';
import { SegmentSet } from '../server/indexing/segment-set.ts';
import { readManifest } from '../storage/index.ts';
import { readGcideQueries } from './gcide-corpus.ts';
import { measureSequential } from './latency.ts';
import { peerInputFromArgv, reportPeerResult } from './peer-process.ts';
import { peakRssBytes } from './proc-memory.ts';

// The peer's scratch directory is the server's data directory.
const input = peerInputFromArgv();
const collectionDir = join(input.dir, 'collections', 'gcide');
const manifest = readManifest(collectionDir);
if (manifest === null) throw new Error(`no manifest in ${collectionDir}`);
const snapshot = SegmentSet.load(collectionDir, manifest);
const analyzer = Analyzer.for('english');
const queries = readGcideQueries(input.queries);
const latency = await measureSequential(queries, input.passes, (q) =>
  searchSegments(snapshot.views, analyzer, toSearchRequest({ q, limit: 10 }, 'querystring')),
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
  failedQueries: 0,
});
