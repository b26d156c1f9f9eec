// Throughput peer: Sphinx's searchd (Debian's sphinxsearch 2.2.11) over SphinxQL with mysql2,
// run as a child by the throughput benchmarks (peer-process.ts; sphinx-available.ts says
// whether it can run). Build: sphinx-config.ts's sphinx.conf in a fresh folder under `dir`,
// then `indexer --all`, which pipes the corpus through benchmarks/peers/sphinx_tsv.mjs; the
// build time is that whole run (reading and parsing the JSONL included), and the build's
// peak RSS is the indexer's, given in indexBytesNote. Then searchd is started and each query
// sent as `SELECT id … WHERE MATCH('term | term') LIMIT 10 OPTION ranker=bm25` (sphinxql.ts):
// one connection for the latency passes, then, when `connections` and `seconds` are set, that
// many connections at once (sphinxql-load.ts). peakRssBytes is searchd's VmHWM at the end;
// doclists and hitlists are read from the index files, through the page cache RSS does not
// count. searchd is stopped whatever happens. With `indexDir` (the peer cache) an index built
// on an earlier run is served instead of building one.

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { LoadResult } from './http-load.ts';
import { readQueryTexts } from './jsonl-corpus.ts';
import { measureSequential } from './latency.ts';
import type { LatencySummary } from './latency.ts';
import { BUILD_RECORD_FILE, prepareIndexDir, readBuildRecord, writeBuildRecord } from './peer-cache.ts';
import { peerInputFromArgv, reportPeerResult } from './peer-process.ts';
import { peakRssBytes } from './proc-memory.ts';
import { SPHINX_SKIPPED_NOTE, sphinxBinaries } from './sphinx-available.ts';
import { SPHINX_INDEX, sphinxConfig } from './sphinx-config.ts';
import { interrupted, runIndexer, startSearchd, stopSearchd } from './sphinx-searchd.ts';
import { runSphinxQLLoad } from './sphinxql-load.ts';
import { closeSphinxQL, openSphinxQL, runSql, sphinxMatchExpression, sphinxSearchSql } from './sphinxql.ts';

const ENGINE_FALLBACK = 'Sphinx searchd (SphinxQL)';

/** A TCP port free on loopback now (the OS picks it). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Bytes of the index's files in `indexRoot` (`<index>.sp*`; not the build record). */
function indexBytes(indexRoot: string): number {
  let total = 0;
  for (const name of readdirSync(indexRoot)) {
    if (name !== BUILD_RECORD_FILE && name.startsWith(`${SPHINX_INDEX}.`)) total += statSync(join(indexRoot, name)).size;
  }
  return total;
}

const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

const binaries = sphinxBinaries();
if (binaries === null) throw new Error(SPHINX_SKIPPED_NOTE);
const input = peerInputFromArgv();
const cacheDir = input.indexDir ?? null;
const cached = cacheDir === null ? null : readBuildRecord(cacheDir);

mkdirSync(input.dir, { recursive: true });
const runDir = mkdtempSync(join(input.dir, 'sphinx-'));
const indexRoot = cacheDir ?? join(runDir, 'index');
const port = await freePort();
const configFile = join(runDir, 'sphinx.conf');
writeFileSync(
  configFile,
  sphinxConfig({
    corpusFile: input.corpusFile,
    docs: input.docs,
    indexPath: join(indexRoot, SPHINX_INDEX),
    port,
    pidFile: join(runDir, 'searchd.pid'),
    logFile: join(runDir, 'searchd.log'),
  }),
);

let docs: number;
let buildMs: number;
let buildPeakRss: number | null;
if (cached !== null) {
  ({ docs, buildMs, peakRssBytes: buildPeakRss } = cached);
} else {
  if (cacheDir !== null) prepareIndexDir(cacheDir);
  else mkdirSync(indexRoot);
  const build = await runIndexer(binaries.indexer, configFile);
  ({ docs, buildMs, peakRssBytes: buildPeakRss } = build);
  if (cacheDir !== null) {
    writeBuildRecord(cacheDir, { engine: ENGINE_FALLBACK, docs, buildMs, peakRssBytes: buildPeakRss, builtAt: new Date().toISOString() });
  }
}

const statements = readQueryTexts(input.queriesFile, input.queries)
  .map(sphinxMatchExpression)
  .filter((expression): expression is string => expression !== null)
  .map((expression) => sphinxSearchSql(SPHINX_INDEX, expression));

interface SearchRun {
  latency: LatencySummary;
  load?: LoadResult;
  failedQueries: number;
  searchdPeakRss: number | null;
}

/** The latency passes on one connection, then the load run if asked for. */
async function search(searchdPid: number): Promise<SearchRun> {
  const connection = await openSphinxQL(port);
  const runnable: string[] = [];
  let latency: LatencySummary;
  try {
    // A query searchd refuses is counted and left out of the timing.
    for (const sql of statements) {
      try {
        await runSql(connection, sql);
        runnable.push(sql);
      } catch {
        // counted below
      }
    }
    latency = await measureSequential(runnable, input.passes, (sql) => runSql(connection, sql));
  } finally {
    closeSphinxQL(connection);
  }
  const connections = input.connections ?? 0;
  const seconds = input.seconds ?? 0;
  const load = connections > 0 && seconds > 0 && runnable.length > 0 ? await runSphinxQLLoad({ port, statements: runnable, connections, seconds }) : undefined;
  return { latency, ...(load === undefined ? {} : { load }), failedQueries: statements.length - runnable.length, searchdPeakRss: peakRssBytes(searchdPid) };
}

const outputFile = join(runDir, 'searchd.out');
const searchd = await startSearchd(binaries.searchd, configFile, port, outputFile, sphinxSearchSql(SPHINX_INDEX, 'a'));
let run: SearchRun;
try {
  run = await search(searchd.pid);
} finally {
  await stopSearchd(searchd.child);
}
// Interrupted, the figures are cut short: no result (the exit code is the signal's).
if (interrupted()) process.exit();
const version = /^Sphinx (\d+(?:\.\d+)+)/m.exec(readFileSync(outputFile, 'utf8'));

reportPeerResult({
  engine: version === null ? ENGINE_FALLBACK : `Sphinx searchd ${version[1]} (SphinxQL)`,
  server: true,
  docs,
  buildMs,
  indexBytes: indexBytes(indexRoot),
  indexBytesNote: `index files on disk; built by indexer, peak RSS ${buildPeakRss === null ? 'unknown' : mib(buildPeakRss)} (peak RSS is searchd's)`,
  peakRssBytes: run.searchdPeakRss,
  latency: run.latency,
  ...(run.load === undefined ? {} : { load: run.load }),
  failedQueries: run.failedQueries,
  builtAt: cached?.builtAt ?? null,
});
