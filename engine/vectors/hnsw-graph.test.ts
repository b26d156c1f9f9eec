// The HNSW graph against brute force: recall@10 on clustered random vectors (unfiltered and with
// a 10 % filter), identical results after writing the graph to bytes and reading it back
// zero-copy, deterministic builds, the byte kernels for unaligned codes, clear errors on corrupt
// sections, and the 0- and 1-node edges.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { seededRandom } from '../../test/helpers/seeded-random.ts';
import { buildHnswGraph, decodeHnswGraph, encodeHnswGraph, exactTopK, searchHnswGraph } from './hnsw-graph.ts';
import type { HnswGraph, HnswParams, QuantizedVectors } from './hnsw-graph.ts';
import { normalizeVector, quantizeInto } from './quantization.ts';

const DIMS = 64;
const COUNT = 5000;
const CLUSTERS = 50;
const NOISE = 0.6;
const QUERIES = 200;
const K = 10;
const EF = 64;
const PARAMS: HnswParams = { m: 16, efConstruction: 100, seed: 7 };

function gaussian(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/** Points around random centroids, normalised; the first `count` are quantised, the rest are queries. */
function clustered(count: number, queries: number, dims: number, seed: number, clusters = CLUSTERS, noise = NOISE): { vectors: QuantizedVectors; queries: Float32Array[] } {
  const random = seededRandom(seed);
  const centroids = Array.from({ length: clusters }, () => Float64Array.from({ length: dims }, () => gaussian(random)));
  const point = (): Float32Array => {
    const centroid = centroids[Math.floor(random() * clusters)];
    return normalizeVector(Array.from(centroid, (c) => c + noise * gaussian(random)));
  };
  const codes = new Int8Array(count * dims);
  const scales = new Float32Array(count);
  for (let row = 0; row < count; row++) quantizeInto(point(), codes, scales, row);
  return { vectors: { dims, count, codes, scales }, queries: Array.from({ length: queries }, point) };
}

function recall(found: Uint32Array, truth: Uint32Array): number {
  const wanted = new Set(truth);
  let hits = 0;
  for (const node of found) if (wanted.has(node)) hits++;
  return truth.length === 0 ? 1 : hits / truth.length;
}

/** The sections copied into one buffer at 8-byte aligned offsets, as a mapped file would hold them. */
function asFile(graph: HnswGraph): Map<string, Uint8Array> {
  const sections = encodeHnswGraph(graph);
  let size = 0;
  for (const [, bytes] of sections) size += (bytes.byteLength + 7) & ~7;
  const file = new Uint8Array(size);
  const views = new Map<string, Uint8Array>();
  let offset = 0;
  for (const [name, bytes] of sections) {
    file.set(bytes, offset);
    views.set(name, file.subarray(offset, offset + bytes.byteLength));
    offset += (bytes.byteLength + 7) & ~7;
  }
  return views;
}

const data = clustered(COUNT, QUERIES, DIMS, 42);
const graph = buildHnswGraph(data.vectors, PARAMS);

test('recall@10 against brute force is at least 0.95 at ef = 64', () => {
  let total = 0;
  for (const query of data.queries) {
    const found = searchHnswGraph(graph, data.vectors, query, K, EF, null);
    const truth = exactTopK(data.vectors, query, K, null);
    assert.equal(found.nodes.length, K);
    for (let i = 1; i < K; i++) assert.ok(found.scores[i - 1] >= found.scores[i], 'results are best first');
    total += recall(found.nodes, truth.nodes);
  }
  const mean = total / data.queries.length;
  assert.ok(mean >= 0.95, `recall@10 ${mean.toFixed(3)}`);
});

test('the neighbour heuristic keeps many tight clusters reachable', () => {
  // Linking each node to its plainly nearest neighbours walls clusters off from one another
  // here (recall about 0.67); the heuristic's long links keep them reachable.
  const tight = clustered(4000, 200, 16, 9, 200, 0.1);
  const tightGraph = buildHnswGraph(tight.vectors, { m: 6, efConstruction: 50, seed: 1 });
  let total = 0;
  for (const query of tight.queries) total += recall(searchHnswGraph(tightGraph, tight.vectors, query, K, 32, null).nodes, exactTopK(tight.vectors, query, K, null).nodes);
  const mean = total / tight.queries.length;
  assert.ok(mean >= 0.95, `recall@10 over tight clusters ${mean.toFixed(3)}`);
});

test('returned scores are the quantised similarity, to within the fixed point of the walk', () => {
  const query = data.queries[0];
  const found = searchHnswGraph(graph, data.vectors, query, K, EF, null);
  const { dims, codes, scales } = data.vectors;
  found.nodes.forEach((node, i) => {
    let dot = 0;
    for (let j = 0; j < dims; j++) dot += query[j] * codes[node * dims + j];
    assert.ok(Math.abs(found.scores[i] - dot * scales[node]) < 1e-4, `node ${node}: ${found.scores[i]} vs ${dot * scales[node]}`);
  });
});

test('encode → decode from an aligned buffer gives the same graph and the same results', () => {
  const views = asFile(graph);
  const decoded = decodeHnswGraph((name) => views.get(name) ?? null, COUNT);
  assert.deepEqual(decoded, graph);
  assert.equal(decoded.layer0.buffer, views.get('hnsw.layer0')!.buffer, 'the decoded graph is a view, not a copy');
  for (const query of data.queries.slice(0, 50)) {
    assert.deepEqual(searchHnswGraph(decoded, data.vectors, query, K, EF, null), searchHnswGraph(graph, data.vectors, query, K, EF, null));
  }
});

test('a build is deterministic for its seed', () => {
  const small = clustered(800, 0, 16, 3).vectors;
  assert.deepEqual(buildHnswGraph(small, PARAMS), buildHnswGraph(small, PARAMS));
  assert.notDeepEqual(buildHnswGraph(small, { ...PARAMS, seed: 8 }).levels, buildHnswGraph(small, PARAMS).levels);
});

test('a 10 % filter returns only accepted nodes and keeps recall of at least 0.9', () => {
  const random = seededRandom(11);
  const allowed = new Uint8Array(COUNT).map(() => (random() < 0.1 ? 1 : 0));
  const accept = (node: number): boolean => allowed[node] === 1;
  let total = 0;
  for (const query of data.queries) {
    const found = searchHnswGraph(graph, data.vectors, query, K, EF, accept);
    for (const node of found.nodes) assert.equal(allowed[node], 1, `node ${node} was filtered out`);
    total += recall(found.nodes, exactTopK(data.vectors, query, K, accept).nodes);
  }
  const mean = total / data.queries.length;
  assert.ok(mean >= 0.9, `filtered recall@10 ${mean.toFixed(3)}`);
});

test('out-of-range neighbour ids throw a clear error', () => {
  const views = asFile(graph);
  const layer0 = views.get('hnsw.layer0')!;
  const links = new Uint32Array(layer0.buffer, layer0.byteOffset, layer0.byteLength / 4);
  const block = 2 * PARAMS.m + 1;
  for (let node = 0; node < COUNT; node++) {
    for (let i = 1; i <= links[node * block]; i++) links[node * block + i] = COUNT + node;
  }
  const decoded = decodeHnswGraph((name) => views.get(name) ?? null, COUNT);
  assert.throws(() => searchHnswGraph(decoded, data.vectors, data.queries[0], K, EF, null), /HNSW graph is corrupt: node \d+ has neighbour \d+ on layer 0, out of range for 5000 nodes/);
});

test('inconsistent sections are refused when decoding', () => {
  const views = asFile(graph);
  const read = (overrides: Record<string, Uint8Array | null>) => () => decodeHnswGraph((name) => (name in overrides ? overrides[name] : (views.get(name) ?? null)), COUNT);
  assert.throws(() => decodeHnswGraph((name) => views.get(name) ?? null, COUNT + 1), /graph of 5000 nodes for 5001 vectors/);
  assert.throws(read({ 'hnsw.upper': null }), /section 'hnsw.upper' is missing/);
  assert.throws(read({ 'hnsw.layer0': views.get('hnsw.layer0')!.subarray(0, 400) }), /section 'hnsw.layer0' holds 100 Uint32s, expected 165000/);
  const levels = views.get('hnsw.levels')!.slice();
  levels[levels.findIndex((level) => level === 0)] = 1;
  assert.throws(read({ 'hnsw.levels': levels }), /upper-layer offsets do not match its level 1/);
});

test('codes that are not word-aligned give the same results (byte kernels)', () => {
  const shifted = new Int8Array(new ArrayBuffer(data.vectors.codes.length + 1), 1);
  shifted.set(data.vectors.codes);
  const unaligned: QuantizedVectors = { ...data.vectors, codes: shifted };
  for (const query of data.queries.slice(0, 20)) {
    assert.deepEqual(searchHnswGraph(graph, unaligned, query, K, EF, null), searchHnswGraph(graph, data.vectors, query, K, EF, null));
  }
  const odd = clustered(1000, 20, 30, 5);
  const oddGraph = buildHnswGraph(odd.vectors, PARAMS);
  let total = 0;
  for (const query of odd.queries) total += recall(searchHnswGraph(oddGraph, odd.vectors, query, K, EF, null).nodes, exactTopK(odd.vectors, query, K, null).nodes);
  assert.ok(total / odd.queries.length >= 0.95, `recall@10 with 30 dims ${(total / odd.queries.length).toFixed(3)}`);
});

test('an empty graph and a one-node graph', () => {
  const empty: QuantizedVectors = { dims: 4, count: 0, codes: new Int8Array(0), scales: new Float32Array(0) };
  const emptyGraph = buildHnswGraph(empty);
  const views = asFile(emptyGraph);
  const decoded = decodeHnswGraph((name) => views.get(name) ?? null, 0);
  const query = Float32Array.of(0.5, 0.5, 0.5, 0.5);
  assert.equal(searchHnswGraph(decoded, empty, query, 10, 64, null).nodes.length, 0);
  assert.equal(exactTopK(empty, query, 10, null).nodes.length, 0);

  const one: QuantizedVectors = { dims: 4, count: 1, codes: Int8Array.of(127, 0, 0, 0), scales: Float32Array.of(1 / 127) };
  const oneGraph = decodeHnswGraph((name) => asFile(buildHnswGraph(one)).get(name) ?? null, 1);
  const found = searchHnswGraph(oneGraph, one, query, 10, 64, null);
  assert.deepEqual([...found.nodes], [0]);
  assert.ok(Math.abs(found.scores[0] - 0.5) < 1e-6);
  assert.equal(searchHnswGraph(oneGraph, one, query, 10, 64, () => false).nodes.length, 0);
});
