// Where one search request's time goes (`npm run bench:request-profile`, issue 32). A real
// server process runs under `--cpu-prof` (its main thread and every worker thread profiled)
// with GCIDE imported and the search cache off; one keep-alive connection then sends the
// 1,000 queries, each kind of request in a time window of its own: `fields=id&typos=0`, and
// full hits with the defaults. Each sample of each thread inside a window is put in one phase
// by the first frame of its stack, leaf first, that names one (request-phases.ts), and each
// phase's sampled time is divided by the requests of the window: microseconds per request.
// "Not on any server thread" is the rest of the wall time: the client, the loopback, and the
// waits while one thread wakes another. Sampling is every 100 µs by default (`--interval`),
// so a phase is exact to a few µs a request, not to the µs.
// Options: --docs N (all), --queries N (1,000), --passes P (3), --interval µs (100),
// --server-arg X (repeatable), --keep DIR (profiles kept there instead of deleted).

import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { numberOption } from './bench-options.ts';
import { readProfile } from './cpu-profile-summary.ts';
import { AUTH_HEADERS, BENCH_MASTER_KEY } from './folio-api.ts';
import { importCollection, ndjsonBatches, nowMicros } from './folio-import.ts';
import type { PhaseWindow } from './folio-import.ts';
import { GCIDE_CORPUS, gcideAvailable, readGcideQueries } from './gcide-corpus.ts';
import { COLLECTION, searchPath } from './gcide-folio.ts';
import { measureHttpCeiling } from './http-ceiling.ts';
import { readJsonlLines } from './jsonl-corpus.ts';
import { KeepAliveClient } from './keep-alive-client.ts';
import { measureSequential } from './latency.ts';
import type { LatencySummary } from './latency.ts';
import { count, markdownTable } from './markdown-table.ts';
import { PHASE_LABELS, phaseTimes } from './request-phases.ts';
import { startServerProcess } from './server-process.ts';

const { values: args } = parseArgs({
  options: {
    docs: { type: 'string' },
    queries: { type: 'string' },
    passes: { type: 'string' },
    interval: { type: 'string', default: '100' },
    'server-arg': { type: 'string', multiple: true, default: [] },
    keep: { type: 'string' },
    smoke: { type: 'boolean', default: false },
  },
});

const DOCS = numberOption(args.docs, args.smoke ? 2_000 : Infinity, 'docs');
const QUERIES = numberOption(args.queries, args.smoke ? 100 : 1_000, 'queries');
const PASSES = numberOption(args.passes, args.smoke ? 1 : 3, 'passes');
const INTERVAL = numberOption(args.interval, 100, 'interval');

interface Kind {
  name: string;
  paths: string[];
}

interface Measured {
  kind: Kind;
  latency: LatencySummary;
  window: PhaseWindow;
}

if (!gcideAvailable()) {
  console.log(`GCIDE not found at ${GCIDE_CORPUS}; skipping the request profile (it needs ../shared/corpora beside the checkout).`);
  process.exit(0);
}

const scratch = mkdtempSync(join(tmpdir(), 'folio-request-profile-'));
const profileDir = args.keep ?? join(scratch, 'profiles');
mkdirSync(profileDir, { recursive: true });
try {
  const queries = readGcideQueries(QUERIES);
  const kinds: Kind[] = [
    { name: '`fields=id&typos=0`', paths: queries.map((q) => `${searchPath(q)}&fields=id&typos=0`) },
    { name: 'full hits, defaults', paths: queries.map(searchPath) },
  ];
  const dataDir = join(scratch, 'folio');
  const server = await startServerProcess(dataDir, BENCH_MASTER_KEY, ['--search-cache-mb', '0', ...args['server-arg']], [
    '--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-interval=${INTERVAL}`,
  ]);
  const measured: Measured[] = [];
  try {
    const lines = readJsonlLines(GCIDE_CORPUS, DOCS);
    console.error(`[request-profile] importing ${count(lines.length)} entries…`);
    await importCollection({ server, dataDir, collection: COLLECTION, batches: ndjsonBatches(lines), expectedDocs: lines.length, probe: false });
    const client = new KeepAliveClient(server.url, { ...AUTH_HEADERS });
    try {
      for (const kind of kinds) {
        console.error(`[request-profile] ${kind.name}…`);
        // A warm-up pass of its own, outside the window (measureSequential's own warm-up is inside it).
        for (const path of kind.paths) await client.get(path);
        const fromMicros = nowMicros();
        const latency = await measureSequential(kind.paths, PASSES, (path) => client.get(path));
        measured.push({ kind, latency, window: { fromMicros, toMicros: nowMicros() } });
      }
    } finally {
      client.close();
    }
  } finally {
    await server.stop();
  }
  const floor = await measureHttpCeiling({ paths: kinds[0].paths, headers: { ...AUTH_HEADERS }, passes: PASSES, connections: 1, seconds: 0 });

  const profiles = readdirSync(profileDir).filter((name) => name.endsWith('.cpuprofile')).map((name) => readProfile(join(profileDir, name)));
  const cpu = cpus();
  console.log('# Where a search request\'s time goes\n');
  console.log(`${new Date().toISOString().slice(0, 10)}; ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; ` +
    `GCIDE ${DOCS === Infinity ? 'whole' : `first ${count(DOCS)} entries`}, ${count(QUERIES)} queries × (1 warm-up + ${PASSES}) passes on one keep-alive connection, search cache off; ` +
    `server under --cpu-prof (every ${INTERVAL} µs, all threads). µs per request.\n`);
  const columns = measured.map(({ kind, latency, window }) => {
    const requests = latency.count + kind.paths.length; // the timed passes and measureSequential's warm-up
    const wallMicros = window.toMicros - window.fromMicros;
    return { times: phaseTimes(profiles, window), requests, wallMicros };
  });
  const perRequest = (micros: number, requests: number): string => (micros / requests).toFixed(0);
  const rows: string[][] = PHASE_LABELS.map((label) => [label, ...columns.map((c) => perRequest(c.times.get(label) ?? 0, c.requests))]);
  rows.push(['**on server threads**', ...columns.map((c) => `**${perRequest(sum(c.times), c.requests)}**`)]);
  rows.push(['not on any server thread (client, loopback, thread wake-ups)', ...columns.map((c) => perRequest(c.wallMicros - sum(c.times), c.requests))]);
  rows.push(['**wall time a request**', ...columns.map((c) => `**${perRequest(c.wallMicros, c.requests)}**`)]);
  rows.push(['QPS (timed passes; under the profiler)', ...measured.map((m) => count(m.latency.qps))]);
  console.log(markdownTable(['phase', ...measured.map((m) => m.kind.name)], rows));
  console.log(`\nThe same client against an empty Fastify route (its own process, not profiled): ${(1000 / floor.latency.qps * 1000).toFixed(0)} µs a request, ${count(floor.latency.qps)} QPS.`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

function sum(times: Map<string, number>): number {
  let total = 0;
  for (const micros of times.values()) total += micros;
  return total;
}
