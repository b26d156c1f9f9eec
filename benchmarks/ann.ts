// Approximate nearest neighbours benchmark (`npx tsx benchmarks/ann.ts`): the engine's HNSW graph
// over int8 codes (engine/vectors/hnsw-graph.ts) against hnswlib-node (C++, float32, space 'ip')
// on the same seeded clustered vectors, in one process, single-threaded. For each: build time,
// index bytes, and per ef: recall@10 against exact float brute force, p50/p99 latency and QPS,
// so the two can be compared at equal recall. The int8 brute-force scan (exactTopK) is reported
// too: its recall is the ceiling the quantised graph can reach without float rescoring; the
// graph's ef best rescored on the float vectors (what a caller that keeps them does) is shown
// as a third engine.
// Options: --n N (100,000) --dims D (384) --queries Q (1,000) --clusters C (1,000) --noise S (0.6)
// --m M and --ef-construction E (DEFAULT_HNSW_PARAMS: 16, 100) --ef 16,24,32,48,64,128 --peers hnswlib|none --json FILE
// --smoke (5,000 vectors, 200 queries: finishes in seconds).

import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import hnswlib from 'hnswlib-node';
import { seededRandom } from '../test/helpers/seeded-random.ts';
import { DEFAULT_HNSW_PARAMS, buildHnswGraph, encodeHnswGraph, exactTopK, searchHnswGraph } from '../engine/vectors/hnsw-graph.ts';
import type { HnswParams, QuantizedVectors } from '../engine/vectors/hnsw-graph.ts';
import { normalizeVector, quantizeInto } from '../engine/vectors/quantization.ts';
import { setSimdCodesBudget, simdAvailable } from '../engine/vectors/simd-codes.ts';
import { numberOption, peerSet } from './bench-options.ts';
import { summarise } from './latency.ts';
import type { LatencySummary } from './latency.ts';
import { count, markdownTable, mib, ms, seconds } from './markdown-table.ts';

const K = 10;
/** The recall at which engines are compared on speed. */
const TARGET_RECALL = 0.95;
const FOLIO = 'folio hnsw (int8)';
const FOLIO_JS = 'folio hnsw (int8), JavaScript kernels';
const FOLIO_RESCORED = 'folio hnsw (int8), ef best rescored on floats';
const HNSWLIB = 'hnswlib-node (float32)';
/** The brute-force scan is slow (all vectors per query): timed on the first queries only. */
const SCAN_QUERIES = 200;
const INT8_SCAN = `int8 brute force (exactTopK, first ${SCAN_QUERIES} queries)`;
const PEERS = ['hnswlib'] as const;
/** Queries searched untimed before each timed pass (JIT warm-up, caches). */
const WARMUP_QUERIES = 100;

const { values: args } = parseArgs({
  options: {
    n: { type: 'string' },
    dims: { type: 'string' },
    queries: { type: 'string' },
    clusters: { type: 'string' },
    noise: { type: 'string' },
    m: { type: 'string' },
    'ef-construction': { type: 'string' },
    ef: { type: 'string', default: '16,24,32,48,64,128' },
    peers: { type: 'string', default: 'hnswlib' },
    seed: { type: 'string' },
    json: { type: 'string' },
    smoke: { type: 'boolean', default: false },
  },
});
const smoke = args.smoke;
const N = numberOption(args.n, smoke ? 5_000 : 100_000, 'n');
const DIMS = numberOption(args.dims, 384, 'dims');
const QUERIES = numberOption(args.queries, smoke ? 200 : 1_000, 'queries');
const CLUSTERS = numberOption(args.clusters, smoke ? 100 : 1_000, 'clusters');
const NOISE = numberOption(args.noise, 0.6, 'noise');
const SEED = numberOption(args.seed, 2026, 'seed');
const PARAMS: HnswParams = {
  m: numberOption(args.m, DEFAULT_HNSW_PARAMS.m, 'm'),
  efConstruction: numberOption(args['ef-construction'], DEFAULT_HNSW_PARAMS.efConstruction, 'ef-construction'),
  seed: SEED,
};
const EFS = args.ef.split(',').map((value) => numberOption(value, 0, 'ef'));
const peers = peerSet(args.peers, PEERS);
if (!Number.isFinite(N) || N < 1) throw new Error('--n must be a positive number');

interface Dataset {
  floats: Float32Array;
  quantized: QuantizedVectors;
  queries: Float32Array[];
}

interface BuildResult {
  engine: string;
  buildMs: number;
  bytes: number;
}

interface SearchRow {
  engine: string;
  ef: number | null;
  recall: number;
  latency: LatencySummary;
  /** Queries per second of this process's CPU time: what QPS would be on an idle core. */
  cpuQps: number;
}

function gaussian(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/** Gaussian centroids; each point is a random centroid plus gaussian noise, normalised. */
function generate(): Dataset {
  const random = seededRandom(SEED);
  const centroids = new Float32Array(CLUSTERS * DIMS);
  for (let i = 0; i < centroids.length; i++) centroids[i] = gaussian(random);
  const raw = new Float64Array(DIMS);
  const point = (): Float32Array => {
    const base = Math.floor(random() * CLUSTERS) * DIMS;
    for (let j = 0; j < DIMS; j++) raw[j] = centroids[base + j] + NOISE * gaussian(random);
    return normalizeVector(raw);
  };
  const floats = new Float32Array(N * DIMS);
  const codes = new Int8Array(N * DIMS);
  const scales = new Float32Array(N);
  for (let row = 0; row < N; row++) {
    const vector = point();
    floats.set(vector, row * DIMS);
    quantizeInto(vector, codes, scales, row);
  }
  const queries = Array.from({ length: QUERIES }, point);
  return { floats, quantized: { dims: DIMS, count: N, codes, scales }, queries };
}

/** Exact top-K by float dot product (the ground truth), best first. */
function floatTruth(floats: Float32Array, query: Float32Array): Uint32Array {
  const bestNodes = new Uint32Array(K);
  const bestScores = new Float64Array(K).fill(-Infinity);
  for (let row = 0; row < N; row++) {
    const base = row * DIMS;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    for (let j = 0; j < DIMS; j += 4) {
      s0 += query[j] * floats[base + j];
      s1 += query[j + 1] * floats[base + j + 1];
      s2 += query[j + 2] * floats[base + j + 2];
      s3 += query[j + 3] * floats[base + j + 3];
    }
    const score = s0 + s1 + s2 + s3;
    if (score <= bestScores[K - 1]) continue;
    let i = K - 1;
    while (i > 0 && bestScores[i - 1] < score) {
      bestScores[i] = bestScores[i - 1];
      bestNodes[i] = bestNodes[i - 1];
      i--;
    }
    bestScores[i] = score;
    bestNodes[i] = row;
  }
  return bestNodes;
}

/** The nodes' float vectors scored against the query; the K best (what a caller holding floats does). */
function rescore(data: Dataset, q: number, nodes: Uint32Array): Uint32Array {
  const query = data.queries[q];
  const best = new Uint32Array(Math.min(K, nodes.length));
  const bestScores = new Float64Array(best.length).fill(-Infinity);
  for (const node of nodes) {
    let score = 0;
    for (let j = 0; j < DIMS; j++) score += query[j] * data.floats[node * DIMS + j];
    if (score <= bestScores[best.length - 1]) continue;
    let i = best.length - 1;
    for (; i > 0 && bestScores[i - 1] < score; i--) {
      bestScores[i] = bestScores[i - 1];
      best[i] = best[i - 1];
    }
    bestScores[i] = score;
    best[i] = node;
  }
  return best;
}

function recallOf(found: ArrayLike<number>[], truth: Uint32Array[]): number {
  let hits = 0;
  found.forEach((nodes, q) => {
    const wanted = new Set(truth[q]);
    for (let i = 0; i < nodes.length; i++) if (wanted.has(nodes[i])) hits++;
  });
  return hits / (truth.length * K);
}

/** One untimed warm-up, then every query timed once; the results kept for recall. */
function measure<Q>(queries: readonly Q[], search: (query: Q) => ArrayLike<number>): { latency: LatencySummary; cpuQps: number; found: ArrayLike<number>[] } {
  for (let i = 0; i < Math.min(WARMUP_QUERIES, queries.length); i++) search(queries[i]);
  const samples: number[] = [];
  const found: ArrayLike<number>[] = [];
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  for (const query of queries) {
    const t0 = performance.now();
    const nodes = search(query);
    samples.push(performance.now() - t0);
    found.push(nodes);
  }
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  return { latency: summarise(samples, wallMs), cpuQps: queries.length / ((cpu.user + cpu.system) / 1e6), found };
}

function log(message: string): void {
  process.stderr.write(`${message}\n`);
}

function main(): void {
  log(`ann: ${count(N)} × ${DIMS} dims, ${count(QUERIES)} queries, ${CLUSTERS} clusters, noise ${NOISE}, m ${PARAMS.m}, efConstruction ${PARAMS.efConstruction}`);
  let t0 = performance.now();
  const data = generate();
  log(`generated in ${seconds(performance.now() - t0)} s`);
  t0 = performance.now();
  const truth = data.queries.map((query) => floatTruth(data.floats, query));
  log(`float brute force (ground truth) in ${seconds(performance.now() - t0)} s`);

  const builds: BuildResult[] = [];
  const rows: SearchRow[] = [];

  const scanQueries = data.queries.slice(0, SCAN_QUERIES);
  const scan = measure(scanQueries, (query) => exactTopK(data.quantized, query, K, null).nodes);
  rows.push({ engine: INT8_SCAN, ef: null, recall: recallOf(scan.found, truth.slice(0, SCAN_QUERIES)), latency: scan.latency, cpuQps: scan.cpuQps });
  log(`int8 brute force: recall ${rows[0].recall.toFixed(4)}, ${count(scan.latency.qps)} QPS`);

  t0 = performance.now();
  const graph = buildHnswGraph(data.quantized, PARAMS);
  const buildMs = performance.now() - t0;
  let graphBytes = 0;
  for (const [, bytes] of encodeHnswGraph(graph)) graphBytes += bytes.byteLength;
  builds.push({ engine: FOLIO, buildMs, bytes: graphBytes + data.quantized.codes.byteLength + data.quantized.scales.byteLength });
  log(`folio hnsw built in ${seconds(buildMs)} s (graph ${mib(graphBytes)} MiB)`);

  // The graph's scorer is made (and cached per codes array) at the first search: for the
  // JavaScript kernels, a second codes array whose first search runs with no SIMD budget.
  const jsQuantized: QuantizedVectors = { ...data.quantized, codes: data.quantized.codes.slice() };
  const budget = setSimdCodesBudget(0);
  searchHnswGraph(graph, jsQuantized, data.queries[0], K, K, null);
  setSimdCodesBudget(budget);
  log(`scoring kernels: ${simdAvailable() ? 'WebAssembly SIMD' : 'JavaScript (no WebAssembly SIMD here)'}, and JavaScript`);
  const engines: { name: string; search: (q: number, ef: number) => ArrayLike<number>; setEf?: (ef: number) => void }[] = [
    { name: FOLIO, search: (q, ef) => searchHnswGraph(graph, data.quantized, data.queries[q], K, ef, null).nodes },
    { name: FOLIO_RESCORED, search: (q, ef) => rescore(data, q, searchHnswGraph(graph, data.quantized, data.queries[q], ef, ef, null).nodes) },
    { name: FOLIO_JS, search: (q, ef) => searchHnswGraph(graph, jsQuantized, data.queries[q], K, ef, null).nodes },
  ];
  if (peers.has('hnswlib')) {
    const index = new hnswlib.HierarchicalNSW('ip', DIMS);
    t0 = performance.now();
    index.initIndex(N, PARAMS.m, PARAMS.efConstruction, SEED);
    const point = new Array<number>(DIMS);
    for (let row = 0; row < N; row++) {
      for (let j = 0; j < DIMS; j++) point[j] = data.floats[row * DIMS + j];
      index.addPoint(point, row);
    }
    const peerBuildMs = performance.now() - t0;
    const dir = mkdtempSync(join(tmpdir(), 'folio-ann-'));
    let bytes: number;
    try {
      index.writeIndexSync(join(dir, 'index.bin'));
      bytes = statSync(join(dir, 'index.bin')).size;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    builds.push({ engine: HNSWLIB, buildMs: peerBuildMs, bytes });
    log(`hnswlib-node built in ${seconds(peerBuildMs)} s`);
    const queries = data.queries.map((query) => Array.from(query));
    engines.push({ name: HNSWLIB, search: (q) => index.searchKnn(queries[q], K).neighbors, setEf: (ef) => index.setEf(Math.max(ef, K)) });
  }

  // Engines take turns at each ef, so a neighbour's load on this shared machine hits all alike.
  const queryNumbers = data.queries.map((_, q) => q);
  for (const ef of EFS) {
    for (const engine of engines) {
      engine.setEf?.(ef);
      const run = measure(queryNumbers, (q) => engine.search(q, ef));
      rows.push({ engine: engine.name, ef, recall: recallOf(run.found, truth), latency: run.latency, cpuQps: run.cpuQps });
      log(`${engine.name} ef ${ef}: recall ${rows.at(-1)!.recall.toFixed(4)}, ${count(run.latency.qps)} QPS (${count(run.cpuQps)} per CPU second)`);
    }
  }

  const date = new Date().toISOString();
  const machine = `${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), Node.js ${process.version}`;
  console.log(`\n## ANN: ${count(N)} × ${DIMS} dims, m ${PARAMS.m}, efConstruction ${PARAMS.efConstruction} (${date}, ${machine})\n`);
  console.log(`${count(QUERIES)} queries, ${CLUSTERS} gaussian clusters (noise ${NOISE}), recall@${K} against exact float brute force, one thread. QPS is over wall time; QPS per CPU s over this process's CPU time (steadier on a shared machine).\n`);
  console.log(markdownTable(['engine', 'build s', 'index MiB'], builds.map((b) => [b.engine, seconds(b.buildMs), mib(b.bytes)])));
  console.log('');
  console.log(
    markdownTable(
      ['engine', 'ef', `recall@${K}`, 'p50 ms', 'p99 ms', 'QPS', 'QPS per CPU s'],
      rows.map((r) => [r.engine, r.ef === null ? '—' : String(r.ef), r.recall.toFixed(4), ms(r.latency.p50Ms, 3), ms(r.latency.p99Ms, 3), count(r.latency.qps), count(r.cpuQps)]),
    ),
  );
  console.log('');
  for (const engine of [FOLIO, FOLIO_RESCORED, FOLIO_JS, HNSWLIB]) {
    const fastest = rows.filter((r) => r.engine === engine && r.recall >= TARGET_RECALL).sort((a, b) => b.cpuQps - a.cpuQps)[0];
    if (fastest !== undefined) {
      console.log(`- ${engine}: ${count(fastest.cpuQps)} QPS per CPU second (${count(fastest.latency.qps)} wall, p50 ${ms(fastest.latency.p50Ms, 3)} ms) at recall ${fastest.recall.toFixed(4)} (ef ${fastest.ef}), its fastest row with recall ≥ ${TARGET_RECALL}`);
    }
    else if (rows.some((r) => r.engine === engine)) console.log(`- ${engine}: no ef reached recall ${TARGET_RECALL}`);
  }
  if (args.json !== undefined) {
    const report = { date, machine, n: N, dims: DIMS, queries: QUERIES, clusters: CLUSTERS, noise: NOISE, params: PARAMS, k: K, builds, searches: rows };
    writeFileSync(args.json, `${JSON.stringify(report, null, 2)}\n`);
    log(`wrote ${args.json}`);
  }
}

main();
