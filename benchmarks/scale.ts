// Scaling benchmark (`npm run bench:scale`, issue 15): Folio over HTTP beside SQLite FTS5 and
// Xapian on the synthetic corpus of ../shared/corpora/synthetic at several sizes (10k, 100k
// and 1M documents by default), in the same run. For each size:
//  - Folio as a real server process, search cache off: import as NDJSON batches until
//    searchable (429/503 waited out and counted, the longest request, a search probe every
//    200 ms), index bytes, peak RSS during the import and over the run; one-connection
//    searches with `fields=id`, with full hits, and with a filter and 3 facets; autocannon;
//  - the HTTP floor and ceiling (an empty Fastify route; measured once per run);
//  - Folio's engine in process over the server's segments, SQLite FTS5, Xapian, Lucene 8 on the
//    JVM and Sphinx's searchd (over its MySQL wire, also under N connections), each in a child
//    process of its own (build time, index bytes, peak RSS, latency); Lucene and Sphinx only
//    where Debian's packages are installed, like Xapian.
// Then a curve table over the sizes, the chart benchmarks/scale-curve.svg, and issue 15's
// and issue 32's goals at the largest size (they are stated for 1M).
// Options: --sizes 10000,100000,1000000; --data DIR (corpora in DIR/nN, generated there when
// missing; default $TMPDIR/folio-synthetic); --queries N (1,000); --passes P (3);
// --seconds S (10) and --connections C (50) for autocannon; --batch B (5,000 docs a request);
// --peers fts5,xapian,lucene,sphinx,engine (or none); --peer-cache DIR (keep the peers' indexes, keyed by
// the corpus manifest, and reuse them on later runs: their build figures are those measured
// when built); --chart PATH; --server-arg X (repeatable); --smoke (2,000 docs generated in a
// temporary directory, 50 queries, 1 pass, 1 s of load; the chart goes to $TMPDIR); --keep-folio DIR
// (move Folio's data directory of the largest size there instead of deleting it, to profile the
// engine on it later).

import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { numberOption, peerSet } from './bench-options.ts';
import { AUTH_HEADERS } from './folio-api.ts';
import { measureHttpCeiling } from './http-ceiling.ts';
import type { CeilingResult } from './http-ceiling.ts';
import { readQueryTexts } from './jsonl-corpus.ts';
import { count } from './markdown-table.ts';
import { peerCacheDir } from './peer-cache.ts';
import { runPeer } from './peer-process.ts';
import type { PeerInput } from './peer-process.ts';
import { runLucenePeer } from './peer-lucene.ts';
import { XAPIAN_SKIPPED_NOTE, runXapianPeer, xapianPython } from './peer-xapian.ts';
import { runSphinxPeer } from './sphinx-available.ts';
import { GENERATOR, corpusDir, corpusExists, ensureCorpus, generatorAvailable } from './scale-corpus.ts';
import { scaleChartSvg } from './scale-chart.ts';
import { SCALE_COLLECTION, runScaleFolio, scaleSearchPath } from './scale-folio.ts';
import { printScaleCurve, printScaleGoals, printSizeTables, scaleChart } from './scale-report.ts';
import type { SizeResult } from './scale-report.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string' },
    data: { type: 'string' },
    queries: { type: 'string' },
    passes: { type: 'string' },
    seconds: { type: 'string' },
    connections: { type: 'string', default: '50' },
    batch: { type: 'string', default: '5000' },
    peers: { type: 'string', default: 'fts5,xapian,lucene,sphinx,engine' },
    'peer-cache': { type: 'string' },
    chart: { type: 'string' },
    'server-arg': { type: 'string', multiple: true, default: [] },
    smoke: { type: 'boolean', default: false },
    'keep-folio': { type: 'string' },
  },
});

const smoke = args.smoke;
const SIZES = (args.sizes ?? (smoke ? '2000' : '10000,100000,1000000')).split(',').map((size) => {
  const n = Number(size.trim().replace(/_/g, ''));
  if (!(Number.isInteger(n) && n >= 1)) throw new Error(`--sizes: '${size}' is not a whole number of documents`);
  return n;
}).sort((a, b) => a - b);
const QUERIES = numberOption(args.queries, smoke ? 50 : 1_000, 'queries');
const PASSES = numberOption(args.passes, smoke ? 1 : 3, 'passes');
const SECONDS = numberOption(args.seconds, smoke ? 1 : 10, 'seconds');
const CONNECTIONS = numberOption(args.connections, 50, 'connections');
const BATCH = numberOption(args.batch, 5_000, 'batch');
const PEERS = peerSet(args.peers, ['fts5', 'xapian', 'lucene', 'sphinx', 'engine']);
if (!(Number.isInteger(BATCH) && BATCH >= 1 && BATCH <= 10_000)) throw new Error('--batch must be 1 to 10,000 (the server\'s batch limit)');
if (!(Number.isInteger(PASSES) && PASSES >= 1)) throw new Error('--passes must be a whole number ≥ 1');

// A smoke run generates its small corpus in a temporary directory of its own.
const dataRoot = smoke ? mkdtempSync(join(tmpdir(), 'folio-bench-scale-smoke-')) : resolve(args.data ?? join(tmpdir(), 'folio-synthetic'));
const chartPath = resolve(args.chart ?? (smoke ? join(tmpdir(), 'folio-scale-curve-smoke.svg') : join(ROOT, 'benchmarks', 'scale-curve.svg')));
const peerCache = args['peer-cache'] === undefined ? null : resolve(args['peer-cache']);

const missing = SIZES.filter((size) => !corpusExists(corpusDir(dataRoot, size)));
if (missing.length > 0 && !generatorAvailable()) {
  console.log(`Synthetic corpus generator not found at ${GENERATOR} (it needs ../shared/corpora beside the checkout), ` +
    `and ${dataRoot} has no corpus for ${missing.join(', ')} documents; skipping the scaling benchmark.`);
  if (smoke) rmSync(dataRoot, { recursive: true, force: true });
  process.exit(0);
}
if (PEERS.has('xapian') && xapianPython() === null) {
  console.log(XAPIAN_SKIPPED_NOTE);
  PEERS.delete('xapian');
}

async function measureSize(size: number, ceiling: CeilingResult | null): Promise<{ result: SizeResult; ceiling: CeilingResult }> {
  const corpus = ensureCorpus(size, corpusDir(dataRoot, size));
  const queries = readQueryTexts(corpus.queriesFile, QUERIES);
  const scratch = mkdtempSync(join(tmpdir(), `folio-bench-scale-n${size}-`));
  const log = (message: string): void => console.error(`[scale ${size}] ${message}`);
  try {
    const folioDir = join(scratch, 'folio');
    log(`Folio: importing ${corpus.corpusFile} over HTTP…`);
    const folio = await runScaleFolio({
      dataDir: folioDir,
      corpusFile: corpus.corpusFile,
      docs: size,
      batchSize: BATCH,
      queries,
      passes: PASSES,
      connections: CONNECTIONS,
      seconds: SECONDS,
      serverArgs: args['server-arg'],
    });
    if (ceiling === null) {
      log('HTTP floor and ceiling: empty Fastify route…');
      ceiling = await measureHttpCeiling({ paths: queries.map(scaleSearchPath), headers: { ...AUTH_HEADERS }, passes: PASSES, connections: CONNECTIONS, seconds: SECONDS });
    }
    const peerInput: PeerInput = { docs: Infinity, queries: QUERIES, passes: PASSES, dir: scratch, corpusFile: corpus.corpusFile, queriesFile: corpus.queriesFile };
    const cacheFor = (peer: string): string | null => (peerCache === null ? null : peerCacheDir(peerCache, peer, corpus.manifestFile));
    let engine = null;
    if (PEERS.has('engine')) {
      log('Folio engine in process…');
      engine = await runPeer('peer-folio-engine.ts', { ...peerInput, dir: folioDir, collection: SCALE_COLLECTION });
    }
    if (args['keep-folio'] !== undefined && size === SIZES[SIZES.length - 1]) {
      const kept = resolve(args['keep-folio']);
      rmSync(kept, { recursive: true, force: true });
      mkdirSync(dirname(kept), { recursive: true });
      renameSync(folioDir, kept);
      log(`Folio's data directory kept in ${args['keep-folio']}`);
    } else {
      rmSync(folioDir, { recursive: true, force: true });
    }
    let fts5 = null;
    if (PEERS.has('fts5')) {
      log('SQLite FTS5…');
      fts5 = await runPeer('peer-fts5.ts', { ...peerInput, indexDir: cacheFor('fts5') });
    }
    let xapian = null;
    if (PEERS.has('xapian')) {
      log('Xapian…');
      xapian = await runXapianPeer({ ...peerInput, indexDir: cacheFor('xapian') });
    }
    let lucene = null;
    if (PEERS.has('lucene')) {
      log('Lucene…');
      lucene = await runLucenePeer({ ...peerInput, indexDir: cacheFor('lucene') });
    }
    let sphinx = null;
    if (PEERS.has('sphinx')) {
      log('Sphinx searchd…');
      sphinx = await runSphinxPeer({ ...peerInput, indexDir: cacheFor('sphinx'), connections: CONNECTIONS, seconds: SECONDS });
    }
    return { result: { size, corpus, queries: queries.length, folio, engine, fts5, xapian, lucene, sphinx }, ceiling };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const cpu = cpus();
  const date = new Date().toISOString().slice(0, 10);
  const setting = `${count(QUERIES)} queries × ${PASSES} timed pass(es) after a warm-up pass, autocannon ${CONNECTIONS} connections × ${SECONDS} s`;
  console.log('# Scaling benchmark: synthetic corpus');
  console.log('');
  console.log(`${date}; ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; ` +
    `sizes ${SIZES.map(count).join(', ')} from ${dataRoot}; NDJSON batches of ${count(BATCH)}; ${setting}; ` +
    `peers: ${[...PEERS].join(', ') || 'none'}${peerCache === null ? '' : ` (peer cache ${peerCache})`}.`);
  const results: SizeResult[] = [];
  let ceiling: CeilingResult | null = null;
  try {
    for (const size of SIZES) {
      const measured = await measureSize(size, ceiling);
      ceiling = measured.ceiling;
      results.push(measured.result);
      printSizeTables(measured.result, ceiling, { connections: CONNECTIONS, seconds: SECONDS, batch: BATCH });
    }
    printScaleCurve(results);
    writeFileSync(chartPath, scaleChartSvg(scaleChart(results, `${date}, ${cpu.length} cores, Node ${process.version}; ${setting}`)));
    console.log(`\nChart written to ${chartPath}.`);
    printScaleGoals(results[results.length - 1], { connections: CONNECTIONS, seconds: SECONDS, batch: BATCH });
  } finally {
    if (smoke) rmSync(dataRoot, { recursive: true, force: true });
  }
}

await main();
