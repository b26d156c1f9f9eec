// Throughput benchmark on GCIDE (`npm run bench:gcide`): Folio over HTTP (a real server
// process) next to peers in the same run, on ../shared/corpora/gcide (126,236 entries, 1,000
// queries). Prints one Markdown table per section and the issue's goals met or missed:
//  - import over HTTP until searchable, index bytes on disk, server peak RSS (VmHWM);
//  - sequential single-connection search latency (p50/p99) and QPS;
//  - autocannon, 50 connections cycling through the queries, next to an empty Fastify route;
//  - sequential search again with `fields=id` (hits carry only id and score; a server that
//    answers 400 to it gets a note instead);
//  - peers, each in a child process of its own: SQLite FTS5, MiniSearch and Xapian (build,
//    size, peak RSS, latency; Xapian only where a Python with the xapian module is found),
//    Lucene 8 on the JVM (where Debian's liblucene8-java and a JDK are), Sphinx's searchd, a
//    C++ search server queried over its MySQL wire at 1 and N connections (where Debian's
//    sphinxsearch is), and Folio's engine without HTTP over the server's index;
//  - issue 15's goals, as ratios to FTS5 and Xapian in the same run, and issue 32's, as ratios
//    to Sphinx and Lucene.
// Options: --docs N (default all), --queries N (1,000), --seconds S for autocannon (10),
// --connections C (50), --passes P timed passes over the queries (3), --batch B docs per
// NDJSON request (5,000), --smoke (2,000 docs, 100 queries, 1 s, 1 pass),
// --peers fts5,minisearch,xapian,lucene,sphinx,engine (or none), --server-arg X (repeatable; e.g. --log-level=warn),
// --profile DIR (server under --cpu-prof, profile written to DIR when it stops),
// --skip-typo-cost (issue 14: by default the cache-off run also times the queries with
// `typos=0` and `typos=auto`, passes alternating on the same server, and prints the ratio).

import { cpus, tmpdir, totalmem } from 'node:os';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { numberOption, peerSet } from './bench-options.ts';
import { formatSummary, readProfile, summariseProfile } from './cpu-profile-summary.ts';
import { FIELDS_ID_UNSUPPORTED } from './fields-id.ts';
import { AUTH_HEADERS } from './folio-api.ts';
import { GCIDE_CORPUS, GCIDE_QUERIES, gcideAvailable, readGcideQueries } from './gcide-corpus.ts';
import { runFolio, searchPath } from './gcide-folio.ts';
import type { FolioRunResult } from './gcide-folio.ts';
import { atLeast, atMost, goalsTable, ratioGoal } from './goals.ts';
import type { Goal } from './goals.ts';
import { measureHttpCeiling } from './http-ceiling.ts';
import type { CeilingResult } from './http-ceiling.ts';
import { readJsonlLines } from './jsonl-corpus.ts';
import { IMPORT_HEADER, LATENCY_HEADER, LOAD_HEADER, MIB, count, latencyCells, loadCells, markdownTable, mib, ms, peerImportCells, seconds } from './markdown-table.ts';
import { peerLabel, runPeer } from './peer-process.ts';
import type { PeerInput, PeerResult } from './peer-process.ts';
import { runLucenePeer } from './peer-lucene.ts';
import { runXapianPeer } from './peer-xapian.ts';
import { servingGoals } from './serving-goals.ts';
import { runSphinxPeer } from './sphinx-available.ts';

const { values: args } = parseArgs({
  options: {
    docs: { type: 'string' },
    queries: { type: 'string' },
    seconds: { type: 'string' },
    connections: { type: 'string', default: '50' },
    passes: { type: 'string' },
    batch: { type: 'string', default: '5000' },
    smoke: { type: 'boolean', default: false },
    peers: { type: 'string', default: 'fts5,minisearch,xapian,lucene,sphinx,engine' },
    'server-arg': { type: 'string', multiple: true, default: [] },
    profile: { type: 'string' },
    // Skip the second run that measures the server with its search cache on (its default).
    'skip-cache-run': { type: 'boolean', default: false },
    // Skip the typo tolerance cost (sequential search with typos=0 and typos=auto alternating).
    'skip-typo-cost': { type: 'boolean', default: false },
  },
});

/** Entries in the full corpus; the goals are for all of them. */
const GCIDE_ENTRIES = 126_236;
const smoke = args.smoke;
const DOCS = numberOption(args.docs, smoke ? 2_000 : Infinity, 'docs');
const QUERIES = numberOption(args.queries, smoke ? 100 : 1_000, 'queries');
const SECONDS = numberOption(args.seconds, smoke ? 1 : 10, 'seconds');
const CONNECTIONS = numberOption(args.connections, 50, 'connections');
const PASSES = numberOption(args.passes, smoke ? 1 : 3, 'passes');
const BATCH = numberOption(args.batch, 5_000, 'batch');
const PEERS = peerSet(args.peers, ['fts5', 'minisearch', 'xapian', 'lucene', 'sphinx', 'engine']);
if (!(Number.isInteger(BATCH) && BATCH >= 1 && BATCH <= 10_000)) throw new Error('--batch must be 1 to 10,000 (the server\'s batch limit)');
if (!(Number.isInteger(PASSES) && PASSES >= 1)) throw new Error('--passes must be a whole number ≥ 1');

if (!gcideAvailable()) {
  console.log(`GCIDE not found at ${GCIDE_CORPUS}; skipping the GCIDE benchmark (it needs ../shared/corpora beside the checkout).`);
  process.exit(0);
}

// ---- goals (issue 4) -------------------------------------------------------------------
function goals(folio: FolioRunResult): Goal[] {
  const list: Goal[] = [
    { what: 'GCIDE imported and searchable over HTTP', target: '≤ 2 s', measured: `${seconds(folio.importMs)} s`, verdict: atMost(folio.importMs / 1000, 2, 's') },
    { what: 'single connection: QPS', target: '≥ 3,000', measured: count(folio.latency.qps), verdict: atLeast(folio.latency.qps, 3000, 'QPS') },
    { what: 'single connection: p99', target: '≤ 2 ms', measured: `${ms(folio.latency.p99Ms)} ms`, verdict: atMost(folio.latency.p99Ms, 2, 'ms') },
  ];
  if (folio.load !== null) {
    list.push(
      { what: `${CONNECTIONS} connections: requests/s`, target: '≥ 10,000', measured: count(folio.load.requestsPerSecond), verdict: atLeast(folio.load.requestsPerSecond, 10_000, 'req/s') },
      { what: `${CONNECTIONS} connections: p99`, target: '≤ 25 ms', measured: `${folio.load.p99Ms} ms`, verdict: atMost(folio.load.p99Ms, 25, 'ms', 0) },
    );
  }
  list.push(
    { what: 'server peak RSS', target: '≤ 250 MiB', measured: `${mib(folio.peakRss)} MiB`, verdict: folio.peakRss === null ? 'not measured' : atMost(folio.peakRss / MIB, 250, 'MiB', 1) },
    { what: 'index on disk', target: '≤ 60 MiB', measured: `${mib(folio.files.total)} MiB`, verdict: atMost(folio.files.total / MIB, 60, 'MiB', 1) },
  );
  return list;
}

// ---- goals (issue 15): ratios to the peers of the same run --------------------------------
function issue15Goals(folio: FolioRunResult, engine: PeerResult | null, fts5: PeerResult | null, xapian: PeerResult | null): Goal[] {
  const qps = (value: number): string => `${count(value)} QPS`;
  const noXapian = 'no Xapian peer in this run';
  const xapianQps = xapian?.latency.qps ?? null;
  const ids = typeof folio.idsOnly === 'string' ? null : folio.idsOnly;
  const goals: Goal[] = [
    ratioGoal({
      what: 'GCIDE import over HTTP until searchable', value: folio.importMs, reference: fts5?.buildMs ?? null,
      referenceName: "FTS5's build time", factor: 1.0, better: 'lower', format: (v) => `${seconds(v)} s`, missing: 'no FTS5 peer in this run',
    }),
    ratioGoal({
      what: 'one connection over HTTP, `fields=id&typos=0`: QPS', value: ids?.qps ?? null, reference: xapianQps,
      referenceName: "Xapian's QPS (in process)", factor: 1.0, better: 'higher', format: qps, missing: ids === null ? FIELDS_ID_UNSUPPORTED : noXapian,
    }),
    ratioGoal({
      what: 'one connection over HTTP, full hits: QPS', value: folio.latency.qps, reference: xapianQps,
      referenceName: "Xapian's QPS", factor: 0.7, better: 'higher', format: qps, missing: noXapian,
    }),
    ratioGoal({
      what: `${CONNECTIONS} connections over HTTP: requests/s`, value: folio.load?.requestsPerSecond ?? null, reference: xapianQps,
      referenceName: "Xapian's single-thread QPS", factor: 2.0, better: 'higher', format: (v) => `${count(v)}/s`,
      missing: folio.load === null ? 'no load run' : noXapian,
    }),
    folio.load === null
      ? { what: `${CONNECTIONS} connections over HTTP: p99`, target: '≤ 25 ms', measured: '—', verdict: 'not measured (no load run)' }
      : { what: `${CONNECTIONS} connections over HTTP: p99`, target: '≤ 25 ms', measured: `${folio.load.p99Ms} ms`, verdict: atMost(folio.load.p99Ms, 25, 'ms', 0) },
    ratioGoal({
      what: `Folio engine in process${engine?.idsLatency === undefined ? '' : ', `fields=id&typos=0`'}: QPS`, value: (engine?.idsLatency ?? engine?.latency)?.qps ?? null, reference: xapianQps,
      referenceName: "Xapian's QPS", factor: 1.5, better: 'higher', format: qps, missing: engine === null ? 'no engine peer in this run' : noXapian,
    }),
    ratioGoal({
      what: 'server peak RSS', value: folio.peakRss, reference: fts5?.peakRssBytes ?? null,
      referenceName: "FTS5's peak RSS", factor: 1.5, better: 'lower', format: (v) => `${mib(v)} MiB`, missing: 'no FTS5 peer in this run',
    }),
  ];
  return goals;
}

// ---- CPU profile of the server, per phase ---------------------------------------------
function printProfile(dir: string, folio: FolioRunResult): void {
  // CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile: thread 0 is the main thread (tsx's
  // module hooks run on a thread of their own and get a profile too).
  const newest = readdirSync(dir)
    .filter((name) => /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/.test(name))
    .map((name) => join(dir, name))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
  if (newest === undefined) {
    console.log(`\nNo CPU profile found in ${dir}.`);
    return;
  }
  const profile = readProfile(newest);
  console.log(`\n## Server CPU profile (${newest})`);
  const phases = [['import', folio.phases.import], ['sequential search', folio.phases.search], ['autocannon load', folio.phases.load]] as const;
  for (const [name, window] of phases) {
    if (window === null) continue;
    console.log(`\n### ${name} (µs ${window.fromMicros}–${window.toMicros})\n`);
    console.log(formatSummary(summariseProfile(profile, window, 15)));
  }
}

// ---- run -------------------------------------------------------------------------------
async function main(): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'folio-bench-gcide-'));
  try {
    const docLines = readJsonlLines(GCIDE_CORPUS, DOCS);
    const queries = readGcideQueries(QUERIES);
    const cpu = cpus();
    console.log(`# GCIDE throughput benchmark`);
    console.log('');
    console.log(`${new Date().toISOString().slice(0, 10)}; ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; ` +
      `${count(docLines.length)} docs in NDJSON batches of ${count(BATCH)}, ${count(queries.length)} queries × ${PASSES} timed passes after a warm-up pass, ` +
      `autocannon ${CONNECTIONS} connections × ${SECONDS} s.`);

    const dataDir = join(scratch, 'folio');
    if (args.profile !== undefined) mkdirSync(args.profile, { recursive: true });
    const profileArgs = args.profile === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${args.profile}`];
    console.error(`[gcide] Folio: importing ${docLines.length} docs over HTTP…`);
    const runOptions = { docLines, batchSize: BATCH, queries, passes: PASSES, connections: CONNECTIONS, seconds: SECONDS };
    // The main run turns the search cache off: every timed search runs in the search pool.
    const folio = await runFolio({
      ...runOptions,
      dataDir,
      serverArgs: ['--search-cache-mb', '0', ...args['server-arg']],
      nodeArgs: profileArgs,
      typoCost: !args['skip-typo-cost'],
    });
    let cached: FolioRunResult | null = null;
    if (!args['skip-cache-run']) {
      console.error('[gcide] Folio again, search cache on (the default)…');
      cached = await runFolio({ ...runOptions, dataDir: join(scratch, 'folio-cached'), serverArgs: args['server-arg'], nodeArgs: [] });
    }
    docLines.length = 0;

    console.error('[gcide] HTTP ceiling: empty Fastify route…');
    const ceiling: CeilingResult = await measureHttpCeiling({ paths: queries.map(searchPath), headers: { ...AUTH_HEADERS }, passes: PASSES, connections: CONNECTIONS, seconds: SECONDS });

    const peerInput: PeerInput = { docs: DOCS, queries: QUERIES, passes: PASSES, dir: scratch, corpusFile: GCIDE_CORPUS, queriesFile: GCIDE_QUERIES };
    const peers: PeerResult[] = [];
    let engine: PeerResult | null = null;
    let fts5: PeerResult | null = null;
    let xapian: PeerResult | null = null;
    if (PEERS.has('engine')) {
      console.error('[gcide] Folio engine in process…');
      engine = await runPeer('peer-folio-engine.ts', { ...peerInput, dir: dataDir });
    }
    if (PEERS.has('fts5')) {
      console.error('[gcide] SQLite FTS5…');
      fts5 = await runPeer('peer-fts5.ts', peerInput);
      peers.push(fts5);
    }
    if (PEERS.has('minisearch')) {
      console.error('[gcide] MiniSearch…');
      peers.push(await runPeer('peer-minisearch.ts', peerInput, ['--expose-gc']));
    }
    if (PEERS.has('xapian')) {
      console.error('[gcide] Xapian…');
      xapian = await runXapianPeer(peerInput);
      if (xapian !== null) peers.push(xapian);
    }
    let lucene: PeerResult | null = null;
    if (PEERS.has('lucene')) {
      console.error('[gcide] Lucene…');
      lucene = await runLucenePeer(peerInput);
      if (lucene !== null) peers.push(lucene);
    }
    let sphinx: PeerResult | null = null;
    if (PEERS.has('sphinx')) {
      console.error('[gcide] Sphinx searchd…');
      sphinx = await runSphinxPeer({ ...peerInput, connections: CONNECTIONS, seconds: SECONDS });
      if (sphinx !== null) peers.push(sphinx);
    }

    console.log('\n## Import and index\n');
    console.log(markdownTable(
      IMPORT_HEADER,
      [
        [
          '**Folio** (HTTP, NDJSON)',
          count(folio.docs),
          seconds(folio.importMs),
          mib(folio.files.total),
          mib(folio.peakRss),
          `until \`POST …/refresh\` answered; ${folio.batches} requests (longest ${seconds(folio.imported.maxRequestMs)} s, ${folio.imported.retries} retries after 429/503); background merges settled ${seconds(folio.settleMs)} s later; ` +
            `then ${folio.files.segmentCount} segment(s): ` +
            `segments ${mib(folio.files.segments)}, WAL ${mib(folio.files.wal)}, deletes ${mib(folio.files.deletes)} MiB; ` +
            `RSS ${mib(folio.rssBeforeImport)} MiB before the import, peak ${mib(folio.peakRssAfterImport)} MiB after it; ` +
            `peak RSS column: whole run, VmHWM of the server process`,
        ],
        ...peers.map((peer) => peerImportCells(peer, `index: ${peer.indexBytesNote}; peak RSS: VmHWM of its own child process`)),
      ],
    ));

    console.log(`\n## Sequential search, one connection (${count(folio.latency.count)} timed queries, \`limit\` 10)\n`);
    console.log(markdownTable(
      LATENCY_HEADER,
      [
        latencyCells('**Folio** over HTTP', folio.latency, '`GET …/search?q=…&limit=10`, keep-alive, node:http client; search cache off'),
        typeof folio.idsOnly === 'string'
          ? ['**Folio** over HTTP, `fields=id&typos=0`', '—', '—', '—', '—', folio.idsOnly]
          : latencyCells('**Folio** over HTTP, `fields=id&typos=0`', folio.idsOnly, 'the same with `&fields=id&typos=0` (ids and scores, exact words: as the peers), after the passes above; search cache off'),
        ...(cached === null ? [] : [latencyCells('**Folio** over HTTP, search cache on', cached.latency, 'the default server: the warm-up pass fills the cache, so timed passes repeat cached searches')]),
        latencyCells('empty Fastify route (HTTP floor)', ceiling.latency, 'same client, same paths'),
        ...(engine === null ? [] : [latencyCells(engine.engine, engine.latency, 'the route\'s search request over the server\'s segments')]),
        ...(engine?.idsLatency === undefined ? [] : [latencyCells(`${engine.engine}, \`fields=id&typos=0\``, engine.idsLatency, 'the same with ids and scores only, passes alternating with the row above')]),
        ...peers.map((peer) => latencyCells(peerLabel(peer), peer.latency, peer.failedQueries > 0 ? `${peer.failedQueries} queries refused` : '')),
      ],
    ));

    if (folio.typoCost !== null) {
      const { off, auto } = folio.typoCost;
      const ratio = auto.qps / off.qps;
      console.log(`\n## Typo tolerance cost (issue 14): the same server, search cache off, \`typos=0\` against \`typos=auto\` (the default)\n`);
      console.log(`${count(off.count)} timed queries each: a warm-up pass of each, then ${PASSES} round(s) of one pass each, alternating.\n`);
      console.log(markdownTable(
        ['typos', ...LATENCY_HEADER.slice(1)],
        [
          latencyCells('`0` (off)', off),
          latencyCells('`auto` (default)', auto, `${(ratio * 100).toFixed(1)} % of the QPS with typos off; p99 ×${(auto.p99Ms / off.p99Ms).toFixed(2)}`),
        ],
      ));
      console.log('');
      console.log(markdownTable(
        ['goal', 'target', 'measured', 'verdict'],
        [[
          'distinct-query throughput with typo tolerance on',
          '≥ 70 % of off',
          `${count(auto.qps)} / ${count(off.qps)} QPS = ${(ratio * 100).toFixed(1)} %`,
          ratio >= 0.7 ? '**met**' : `**missed** by ${((0.7 - ratio) * 100).toFixed(1)} points`,
        ]],
      ));
    }

    if (folio.load !== null && ceiling.load !== null) {
      console.log(`\n## Concurrent load: autocannon, ${CONNECTIONS} connections, ${SECONDS} s\n`);
      console.log(markdownTable(
        LOAD_HEADER,
        [
          loadCells('**Folio** search, cache off', folio.load),
          ...(folio.idsLoad === null ? [] : [loadCells('**Folio** search, `fields=id&typos=0`, cache off', folio.idsLoad)]),
          ...(sphinx?.load === undefined ? [] : [loadCells(`${sphinx.engine}: ids, a mysql2 client`, sphinx.load)]),
          ...(cached?.load == null ? [] : [loadCells('**Folio** search, cache on (default)', cached.load)]),
          loadCells('empty Fastify route (HTTP ceiling)', ceiling.load),
        ],
      ));
    }

    console.log('\n## Goals (issue 4)\n');
    if (folio.docs < GCIDE_ENTRIES || queries.length < 1_000) console.log('(A partial run: the goals are for all 126,236 entries and 1,000 queries.)\n');
    console.log('Verdicts are for the server with its search cache off; the last column is the same server with the cache on.\n');
    const withCache = cached === null ? [] : goals(cached);
    console.log(markdownTable(
      ['goal', 'target', 'measured (cache off)', 'verdict', 'cache on'],
      goals(folio).map((g, i) => [g.what, g.target, g.measured, g.verdict, withCache[i]?.measured ?? '—']),
    ));

    console.log('\n## Goals (issue 15): beside FTS5 and Xapian in the same run\n');
    if (folio.docs < GCIDE_ENTRIES || queries.length < 1_000) console.log('(A partial run: the goals are for all 126,236 entries and 1,000 queries.)\n');
    console.log('Folio figures are for the server with its search cache off; the peers run in process, one thread.\n');
    console.log(goalsTable(issue15Goals(folio, engine, fts5, xapian)));

    console.log('\n## Goals (issue 32): beside Sphinx searchd and Lucene in the same run\n');
    if (folio.docs < GCIDE_ENTRIES || queries.length < 1_000) console.log('(A partial run: the goals are for all 126,236 entries and 1,000 queries.)\n');
    console.log('Folio figures are for the server with its search cache off; Sphinx is a server too, queried over its own wire; Lucene runs in process.\n');
    console.log(goalsTable(servingGoals({
      connections: CONNECTIONS,
      ids: typeof folio.idsOnly === 'string' ? null : folio.idsOnly,
      idsLoad: folio.idsLoad,
      full: folio.latency,
      fullLoad: folio.load,
      engine,
      sphinx,
      lucene,
      importMs: folio.importMs,
      importReference: { name: 'Lucene', buildMs: lucene?.buildMs ?? null, factor: 1.5 },
      peakRss: folio.peakRss,
      peakRssLimitMib: 450,
    })));
    if (args.profile !== undefined) printProfile(args.profile, folio);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
