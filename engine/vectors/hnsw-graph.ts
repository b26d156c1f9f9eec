// A hierarchical navigable small world graph (Malkov & Yashunin) over int8-quantised vectors:
// built in memory from a segment's codes, written as a few byte sections of plain Uint32 data,
// and searched straight from those bytes (memory-mapped, never copied). Layer 0 links every
// node to at most 2·m neighbours in one preallocated array; upper layers hold the few nodes drawn
// above it, m neighbours per layer, packed in a second array. Neighbours are chosen with the
// paper's heuristic (algorithm 4), node levels with a seeded PRNG, so a build is deterministic.
//
// Scores are the caller's: the similarity of a normalised float query to node i is
// scales[i] · Σ q[j]·codes[i·dims + j]. While walking the graph the query is held in fixed
// point (int16 values, scaled so no sum can leave int32: scores within about 1e-5 of the float
// formula), and a node's unvisited neighbours are scored together: in WebAssembly SIMD on this
// thread's copy of the codes, or in JavaScript, four bytes a read and four rows a pass (see
// hnsw-kernels.ts). The scores handed back are the walk's; a caller that needs exact ones
// rescores its best nodes on their float vectors, as search/semantic-search.ts does. The build compares
// stored vectors code against code, in exact integer arithmetic.
//
// As in hnswlib, a new node is linked to the m neighbours the heuristic picks on every layer,
// and lists fill up to their capacity (2·m on layer 0, m above) through links back from later
// nodes; a full list is re-selected with the same heuristic.
//
// The parts: hnsw-format.ts (types, header, sections), hnsw-kernels.ts (scoring),
// hnsw-scratch.ts (visited set, heaps), hnsw-walk.ts (layer search), hnsw-builder.ts (build);
// this file is their door and the search.

import { codesDot } from './quantization.ts';
import { META_COUNT, checkVectors, metaOf } from './hnsw-format.ts';
import type { HnswGraph, HnswResult, QuantizedVectors } from './hnsw-format.ts';
import { RowScorer } from './hnsw-kernels.ts';
import { NodeHeap, searchScratch } from './hnsw-scratch.ts';
import { greedyClosest, searchLayer } from './hnsw-walk.ts';

export { DEFAULT_HNSW_PARAMS, HNSW_FORMAT_VERSION, HNSW_SECTION, decodeHnswGraph, encodeHnswGraph } from './hnsw-format.ts';
export type { HnswGraph, HnswParams, HnswResult, QuantizedVectors } from './hnsw-format.ts';
export { buildHnswGraph } from './hnsw-builder.ts';

// ---------------------------------------------------------------------------------------------
// Search.

function checkSearch(graph: HnswGraph, vectors: QuantizedVectors, query: Float32Array): void {
  const count = graph.meta[META_COUNT];
  if (vectors.count !== count) throw new Error(`HNSW search: graph of ${count} nodes over ${vectors.count} vectors`);
  checkVectors(vectors);
  if (query.length !== vectors.dims) throw new Error(`HNSW search: query of ${query.length} dims for vectors of ${vectors.dims}`);
}

/** A scorer per codes array (held weakly, so closed segments' vectors can be collected). */
const scorers = new WeakMap<Int8Array, RowScorer>();
function searchScorer(vectors: QuantizedVectors): RowScorer {
  const { codes, scales, dims } = vectors;
  let scorer = scorers.get(codes);
  if (scorer === undefined || !scorer.covers(codes, scales, dims)) {
    scorer = new RowScorer(codes, scales, dims);
    scorers.set(codes, scorer);
  }
  return scorer;
}

/** The heap's nodes and scores, best first, ties by node (the heap leaves equal keys in any order). */
function drainBestFirst(heap: NodeHeap): HnswResult {
  const nodes = new Uint32Array(heap.size);
  const scores = new Float32Array(heap.size);
  for (let i = nodes.length - 1; i >= 0; i--) {
    const node = heap.topNode;
    const score = Math.fround(heap.topKey);
    heap.pop();
    let j = i;
    for (; j < nodes.length - 1 && scores[j + 1] === score && nodes[j + 1] < node; j++) {
      nodes[j] = nodes[j + 1];
      scores[j] = scores[j + 1];
    }
    nodes[j] = node;
    scores[j] = score;
  }
  return { nodes, scores };
}

/**
 * The k best nodes for `query` (normalised, of the vectors' dims), best first, with the walk's
 * scores (within about 1e-5 of the float formula). Nodes that
 * `accept` rejects (deleted, filtered out) are walked through but never returned. `ef` (raised
 * to k) is the candidate list size on layer 0: larger is slower and finds more of the true k.
 */
export function searchHnswGraph(
  graph: HnswGraph,
  vectors: QuantizedVectors,
  query: Float32Array,
  k: number,
  ef: number,
  accept: ((node: number) => boolean) | null,
): HnswResult {
  checkSearch(graph, vectors, query);
  const { count, m, entry, topLevel } = metaOf(graph);
  if (count === 0 || !(k >= 1)) return { nodes: new Uint32Array(0), scores: new Float32Array(0) };
  k = Math.floor(k);
  ef = Math.max(k, Math.floor(ef) || 0);
  const scorer = searchScorer(vectors);
  scorer.loadFloat(query);
  let node = entry;
  let score = scorer.score(node);
  const best = { score: 0 };
  for (let layer = topLevel; layer > 0; layer--) {
    node = greedyClosest(graph, scorer, node, score, layer, m, count, best);
    score = best.score;
  }
  const scratch = searchScratch;
  searchLayer(graph, scorer, scratch, node, score, ef, 0, accept);
  const results = scratch.results;
  while (results.size > k) results.pop();
  return drainBestFirst(results);
}

/**
 * scores[i] = the similarity of `query` to row rows[i], for i < n, as the graph walk scores
 * (fixed point, within about 1e-5 of the float formula; SIMD where this thread holds a copy of
 * the codes): for scans that rescore their best rows on floats afterwards.
 */
export function scoreQuantizedRows(vectors: QuantizedVectors, query: Float32Array, rows: Uint32Array, n: number, scores: Float64Array): void {
  checkVectors(vectors);
  if (query.length !== vectors.dims) throw new Error(`scoreQuantizedRows: query of ${query.length} dims for vectors of ${vectors.dims}`);
  for (let i = 0; i < n; i++) if (rows[i] >= vectors.count) throw new Error(`scoreQuantizedRows: row ${rows[i]} out of range for ${vectors.count} vectors`);
  const scorer = searchScorer(vectors);
  scorer.loadFloat(query);
  scorer.scoreMany(rows, n, scores);
}

/** Brute force: every accepted node scored with the float formula (no fixed point), the k best, best first. */
export function exactTopK(vectors: QuantizedVectors, query: Float32Array, k: number, accept: ((node: number) => boolean) | null): HnswResult {
  checkVectors(vectors);
  const { count, dims, codes, scales } = vectors;
  if (query.length !== dims) throw new Error(`exactTopK: query of ${query.length} dims for vectors of ${dims}`);
  if (!(k >= 1) || count === 0) return { nodes: new Uint32Array(0), scores: new Float32Array(0) };
  k = Math.floor(k);
  const heap = new NodeHeap(k + 1);
  for (let node = 0; node < count; node++) {
    if (accept !== null && !accept(node)) continue;
    const score = codesDot(query, codes, node * dims) * scales[node];
    if (heap.size < k) heap.push(score, node);
    else if (score > heap.topKey) heap.replaceTop(score, node);
  }
  return drainBestFirst(heap);
}

