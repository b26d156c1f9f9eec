// A hierarchical navigable small world graph (Malkov & Yashunin) over int8-quantised vectors:
// built in memory from a segment's codes, written as a few byte sections of plain Uint32 data,
// and searched straight from those bytes (memory-mapped, never copied). Layer 0 links every
// node to at most 2·m neighbours in one preallocated array; upper layers hold the few nodes drawn
// above it, m neighbours per layer, packed in a second array. Neighbours are chosen with the
// paper's heuristic (algorithm 4), node levels with a seeded PRNG, so a build is deterministic.
//
// Scores are the caller's: the similarity of a normalised float query to node i is
// scales[i] · Σ q[j]·codes[i·dims + j]. While walking the graph the query is held in fixed
// point (an Int32Array, scaled so no sum can leave int32; the relative error is about 1e-6),
// codes are read four at a time as 32-bit words, and a node's unvisited neighbours are scored
// four rows per pass: in V8 that is 2–3 times faster than a float loop over the bytes. The k
// nodes returned are then rescored with the float formula, so the scores handed back are
// exact. The build compares stored vectors code against code, in exact integer arithmetic.
//
// As in hnswlib, a new node is linked to the m neighbours the heuristic picks on every layer,
// and lists fill up to their capacity (2·m on layer 0, m above) through links back from later
// nodes; a full list is re-selected with the same heuristic.

import { endianness } from 'node:os';
import { codesDot } from './quantization.ts';
import { seededRandom } from './seeded-random.ts';

export interface QuantizedVectors {
  dims: number;
  count: number;
  /** count × dims, row-major. */
  codes: Int8Array;
  scales: Float32Array;
}

export interface HnswParams {
  /** Neighbours per node on the upper layers (2·m on layer 0). */
  m: number;
  /** Candidates kept while searching for a new node's neighbours. */
  efConstruction: number;
  /** Seeds the PRNG that draws node levels. */
  seed: number;
}

export const DEFAULT_HNSW_PARAMS: HnswParams = Object.freeze({ m: 16, efConstruction: 100, seed: 1 });

/**
 * The graph as plain typed arrays, so it can be written to a file and read back zero-copy.
 * A node's neighbour list is a block of `1 + capacity` Uint32s: its degree, then the ids.
 */
export interface HnswGraph {
  /** [format version, node count, m, layer-0 capacity (2·m), entry point, top level]. */
  meta: Uint32Array;
  /** Level of each node (0 = layer 0 only); the array is padded to a multiple of 4 bytes. */
  levels: Uint8Array;
  /** Layer 0: node n's block starts at n · (layer-0 capacity + 1). */
  layer0: Uint32Array;
  /** count + 1 offsets into `upper`: node n's layers 1…levels[n] as consecutive (m + 1)-slot blocks. */
  upperOffsets: Uint32Array;
  upper: Uint32Array;
}

export interface HnswResult {
  /** Best first. */
  nodes: Uint32Array;
  scores: Float32Array;
}

export const HNSW_FORMAT_VERSION = 1;

export const HNSW_SECTION = {
  meta: 'hnsw.meta',
  levels: 'hnsw.levels',
  layer0: 'hnsw.layer0',
  upperOffsets: 'hnsw.upper-offsets',
  upper: 'hnsw.upper',
} as const;

const META_VERSION = 0;
const META_COUNT = 1;
const META_M = 2;
const META_M0 = 3;
const META_ENTRY = 4;
const META_TOP_LEVEL = 5;
const META_LENGTH = 6;

/** The entry point of an empty graph. */
const NO_NODE = 0xffffffff;
/** Levels are drawn from an exponential distribution; this caps the (astronomically rare) tail. */
const MAX_LEVEL = 24;
const MAX_M = 1024;
const INT32_MAX = 0x7fffffff;
const MAX_CODE = 127;
/** Code-against-code sums (127² a dimension) stay within int32 up to this many dims. */
const MAX_DIMS = 65536;
/** Ceiling of the query's fixed-point factor (beyond it the rounding error is negligible). */
const MAX_QUERY_FIXED_POINT = 2 ** 24;
/** Codes read as 32-bit words assume little-endian byte order. */
const LITTLE_ENDIAN = endianness() === 'LE';

// ---------------------------------------------------------------------------------------------
// Dot-product kernels. Hot: keep them small, monomorphic and allocation-free.

/** Σ query[j]·code[j] over one row, the codes read as little-endian words (four codes each). */
function dotWords(query: Int32Array, words: Int32Array, wordBase: number, wordCount: number): number {
  let s0 = 0;
  let s1 = 0;
  for (let w = 0; w < wordCount; w++) {
    const x = words[wordBase + w];
    const i = w << 2;
    s0 = (s0 + Math.imul(query[i], (x << 24) >> 24) + Math.imul(query[i + 1], (x << 16) >> 24)) | 0;
    s1 = (s1 + Math.imul(query[i + 2], (x << 8) >> 24) + Math.imul(query[i + 3], x >> 24)) | 0;
  }
  return s0 + s1;
}

/**
 * dotWords for four rows at once, into out[0…3]: the query's loads are shared and the four rows'
 * memory is fetched in parallel, which makes each dot product about twice as cheap.
 */
function dotWordsFour(query: Int32Array, words: Int32Array, a: number, b: number, c: number, d: number, wordCount: number, out: Float64Array): void {
  let sa = 0;
  let sb = 0;
  let sc = 0;
  let sd = 0;
  for (let w = 0; w < wordCount; w++) {
    const xa = words[a + w];
    const xb = words[b + w];
    const xc = words[c + w];
    const xd = words[d + w];
    const i = w << 2;
    const q0 = query[i];
    const q1 = query[i + 1];
    const q2 = query[i + 2];
    const q3 = query[i + 3];
    sa = (sa + Math.imul(q0, (xa << 24) >> 24) + Math.imul(q1, (xa << 16) >> 24) + Math.imul(q2, (xa << 8) >> 24) + Math.imul(q3, xa >> 24)) | 0;
    sb = (sb + Math.imul(q0, (xb << 24) >> 24) + Math.imul(q1, (xb << 16) >> 24) + Math.imul(q2, (xb << 8) >> 24) + Math.imul(q3, xb >> 24)) | 0;
    sc = (sc + Math.imul(q0, (xc << 24) >> 24) + Math.imul(q1, (xc << 16) >> 24) + Math.imul(q2, (xc << 8) >> 24) + Math.imul(q3, xc >> 24)) | 0;
    sd = (sd + Math.imul(q0, (xd << 24) >> 24) + Math.imul(q1, (xd << 16) >> 24) + Math.imul(q2, (xd << 8) >> 24) + Math.imul(q3, xd >> 24)) | 0;
  }
  out[0] = sa;
  out[1] = sb;
  out[2] = sc;
  out[3] = sd;
}

/** Σ code_a[j]·code_b[j] of two rows, both read as words. */
function dotWordPair(words: Int32Array, a: number, b: number, wordCount: number): number {
  let s0 = 0;
  let s1 = 0;
  for (let w = 0; w < wordCount; w++) {
    const x = words[a + w];
    const y = words[b + w];
    s0 = (s0 + Math.imul((x << 24) >> 24, (y << 24) >> 24) + Math.imul((x << 16) >> 24, (y << 16) >> 24)) | 0;
    s1 = (s1 + Math.imul((x << 8) >> 24, (y << 8) >> 24) + Math.imul(x >> 24, y >> 24)) | 0;
  }
  return s0 + s1;
}

/** The same over codes that are not word-aligned. */
function dotBytes(query: Int32Array, codes: Int8Array, base: number, dims: number): number {
  let s0 = 0;
  let s1 = 0;
  let j = 0;
  for (; j + 2 <= dims; j += 2) {
    s0 = (s0 + Math.imul(query[j], codes[base + j])) | 0;
    s1 = (s1 + Math.imul(query[j + 1], codes[base + j + 1])) | 0;
  }
  if (j < dims) s0 = (s0 + Math.imul(query[j], codes[base + j])) | 0;
  return s0 + s1;
}

/** dotWordPair over codes that are not word-aligned. */
function dotBytePair(codes: Int8Array, a: number, b: number, dims: number): number {
  let sum = 0;
  for (let j = 0; j < dims; j++) sum = (sum + Math.imul(codes[a + j], codes[b + j])) | 0;
  return sum;
}


/** The codes as 32-bit words when every row starts on a word (else null: use the byte kernel). */
const wordViews = new WeakMap<Int8Array, Int32Array | null>();
function codeWords(codes: Int8Array, dims: number): Int32Array | null {
  let words = wordViews.get(codes);
  if (words === undefined) {
    const aligned = LITTLE_ENDIAN && dims % 4 === 0 && codes.byteOffset % 4 === 0;
    words = aligned ? new Int32Array(codes.buffer, codes.byteOffset, codes.length >> 2) : null;
    wordViews.set(codes, words);
  }
  return words;
}

/** Scores rows against a fixed-point query: score(row) = factor · scales[row] · Σ query·codes. */
class RowScorer {
  readonly query: Int32Array;
  factor = 1;
  private readonly words: Int32Array | null;
  private readonly wordCount: number;
  private readonly four = new Float64Array(4);

  constructor(
    private readonly codes: Int8Array,
    private readonly scales: Float32Array,
    private readonly dims: number,
  ) {
    this.query = new Int32Array(dims);
    this.words = codeWords(codes, dims);
    this.wordCount = dims >> 2;
  }

  covers(codes: Int8Array, scales: Float32Array, dims: number): boolean {
    return this.codes === codes && this.scales === scales && this.dims === dims;
  }

  score(row: number): number {
    const dot = this.words !== null ? dotWords(this.query, this.words, row * this.wordCount, this.wordCount) : dotBytes(this.query, this.codes, row * this.dims, this.dims);
    return dot * this.factor * this.scales[row];
  }

  /** Scores rows[0…n) into scores[0…n), four rows per pass where it can. */
  scoreMany(rows: Uint32Array, n: number, scores: Float64Array): void {
    const words = this.words;
    let i = 0;
    if (words !== null) {
      const wc = this.wordCount;
      const four = this.four;
      // Two or three left over are scored as four (the last repeated): still cheaper than singly.
      for (; i + 2 <= n; i += 4) {
        const a = rows[i];
        const b = rows[i + 1];
        const c = i + 2 < n ? rows[i + 2] : b;
        const d = i + 3 < n ? rows[i + 3] : c;
        dotWordsFour(this.query, words, a * wc, b * wc, c * wc, d * wc, wc, four);
        const factor = this.factor;
        const scales = this.scales;
        scores[i] = four[0] * factor * scales[a];
        scores[i + 1] = four[1] * factor * scales[b];
        if (i + 2 < n) scores[i + 2] = four[2] * factor * scales[c];
        if (i + 3 < n) scores[i + 3] = four[3] * factor * scales[d];
      }
    }
    for (; i < n; i++) scores[i] = this.score(rows[i]);
  }

  /** Similarity of two stored rows, code against code (the query is not used). */
  rowPair(a: number, b: number): number {
    const dot = this.words !== null ? dotWordPair(this.words, a * this.wordCount, b * this.wordCount, this.wordCount) : dotBytePair(this.codes, a * this.dims, b * this.dims, this.dims);
    return dot * this.scales[a] * this.scales[b];
  }

  /** Row `row`'s own codes as the query (exact integer similarity between stored vectors). */
  loadRow(row: number): void {
    const base = row * this.dims;
    for (let j = 0; j < this.dims; j++) this.query[j] = this.codes[base + j];
    this.factor = this.scales[row];
  }

  /** A float query in fixed point, scaled as finely as int32 sums allow. */
  loadFloat(query: Float32Array): void {
    let sumAbs = 0;
    for (let j = 0; j < this.dims; j++) sumAbs += Math.abs(query[j]);
    if (!Number.isFinite(sumAbs)) throw new Error('HNSW search: the query vector has non-finite values');
    // Every |Σ q·code| ≤ 127 · Σ|q_fixed| ≤ 127 · (fixed · Σ|q| + dims / 2) must stay within int32.
    const room = INT32_MAX / MAX_CODE - this.dims;
    const fixed = sumAbs > 0 ? Math.min(MAX_QUERY_FIXED_POINT, Math.floor(room / sumAbs)) : 1;
    for (let j = 0; j < this.dims; j++) this.query[j] = Math.round(query[j] * fixed);
    this.factor = 1 / fixed;
  }
}

// ---------------------------------------------------------------------------------------------
// Scratch structures: a generation-stamped visited set and binary heaps over typed arrays.

class VisitedSet {
  private stamps = new Uint32Array(0);
  private generation = 0;

  /** Empties the set for nodes [0, count). */
  reset(count: number): void {
    if (this.stamps.length < count) {
      this.stamps = new Uint32Array(count);
      this.generation = 0;
    }
    if (this.generation === 0xffffffff) {
      this.stamps.fill(0);
      this.generation = 0;
    }
    this.generation++;
  }

  /** Marks `node`; false when it was already marked. */
  visit(node: number): boolean {
    if (this.stamps[node] === this.generation) return false;
    this.stamps[node] = this.generation;
    return true;
  }
}

/** A binary min-heap of (key, node) pairs; grows as needed. For a max-heap push negated keys. */
class NodeHeap {
  keys: Float64Array;
  nodes: Uint32Array;
  size = 0;

  constructor(capacity: number) {
    this.keys = new Float64Array(Math.max(16, capacity));
    this.nodes = new Uint32Array(Math.max(16, capacity));
  }

  clear(): void {
    this.size = 0;
  }

  get topKey(): number {
    return this.keys[0];
  }

  get topNode(): number {
    return this.nodes[0];
  }

  push(key: number, node: number): void {
    if (this.size === this.keys.length) this.grow();
    const keys = this.keys;
    const nodes = this.nodes;
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (keys[parent] <= key) break;
      keys[i] = keys[parent];
      nodes[i] = nodes[parent];
      i = parent;
    }
    keys[i] = key;
    nodes[i] = node;
  }

  pop(): void {
    const last = --this.size;
    if (last > 0) this.siftDown(this.keys[last], this.nodes[last]);
  }

  /** Pops the root and pushes (key, node) in one pass. */
  replaceTop(key: number, node: number): void {
    this.siftDown(key, node);
  }

  private siftDown(key: number, node: number): void {
    const keys = this.keys;
    const nodes = this.nodes;
    const size = this.size;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= size) break;
      if (child + 1 < size && keys[child + 1] < keys[child]) child++;
      if (keys[child] >= key) break;
      keys[i] = keys[child];
      nodes[i] = nodes[child];
      i = child;
    }
    keys[i] = key;
    nodes[i] = node;
  }

  private grow(): void {
    const keys = new Float64Array(this.keys.length * 2);
    const nodes = new Uint32Array(this.nodes.length * 2);
    keys.set(this.keys);
    nodes.set(this.nodes);
    this.keys = keys;
    this.nodes = nodes;
  }
}

/** What one layer search needs, reused across searches. */
class SearchScratch {
  readonly visited = new VisitedSet();
  /** Nodes still to expand, best first (negated scores). */
  readonly candidates = new NodeHeap(256);
  /** The best `ef` accepted nodes so far, worst at the root. */
  readonly results = new NodeHeap(256);
  /** Unvisited neighbours of the node being expanded. */
  readonly pending = new Uint32Array(2 * MAX_M);
  readonly pendingScores = new Float64Array(2 * MAX_M);
}

/** Shared by all searches: JavaScript runs one at a time per thread. */
const searchScratch = new SearchScratch();

// ---------------------------------------------------------------------------------------------
// Layout helpers.

function metaOf(graph: HnswGraph): { count: number; m: number; m0: number; entry: number; topLevel: number } {
  const meta = graph.meta;
  return { count: meta[META_COUNT], m: meta[META_M], m0: meta[META_M0], entry: meta[META_ENTRY], topLevel: meta[META_TOP_LEVEL] };
}

function corrupt(detail: string): never {
  throw new Error(`HNSW graph is corrupt: ${detail}`);
}

/** Scratch for greedyClosest: one upper-layer neighbour list (at most MAX_M) and its scores. */
const greedyNeighbours = new Uint32Array(MAX_M);
const greedyScores = new Float64Array(MAX_M);

/**
 * Greedy walk on an upper layer (ef = 1): from `node`, move to a better neighbour while there is
 * one. Returns the node reached; its score is left in `best.score`.
 */
function greedyClosest(graph: HnswGraph, scorer: RowScorer, node: number, score: number, layer: number, m: number, count: number, best: { score: number }): number {
  const upper = graph.upper;
  const neighbours = greedyNeighbours;
  const scores = greedyScores;
  const offsets = graph.upperOffsets;
  const block = m + 1;
  let changed = true;
  while (changed) {
    changed = false;
    const base = offsets[node] + (layer - 1) * block;
    if (base + block > offsets[node + 1]) corrupt(`node ${node} has no layer ${layer}`);
    const degree = upper[base];
    if (degree > m) corrupt(`node ${node} has ${degree} neighbours on layer ${layer}, more than ${m}`);
    for (let i = 0; i < degree; i++) {
      const neighbour = upper[base + 1 + i];
      if (neighbour >= count) corrupt(`node ${node} has neighbour ${neighbour} on layer ${layer}, out of range for ${count} nodes`);
      neighbours[i] = neighbour;
    }
    scorer.scoreMany(neighbours, degree, scores);
    const from = node;
    for (let i = 0; i < degree; i++) {
      if (scores[i] > score) {
        score = scores[i];
        node = neighbours[i];
      }
    }
    changed = node !== from;
  }
  best.score = score;
  return node;
}

/**
 * Best-first search of one layer from `entry` (algorithm 2), keeping the best `ef` accepted
 * nodes in `scratch.results`. Rejected nodes are still expanded, and while fewer than `ef` nodes
 * are accepted every node seen is, so a selective filter widens the search instead of ending it.
 */
function searchLayer(
  graph: HnswGraph,
  scorer: RowScorer,
  scratch: SearchScratch,
  entry: number,
  entryScore: number,
  ef: number,
  layer: number,
  accept: ((node: number) => boolean) | null,
): void {
  const { count, m, m0 } = metaOf(graph);
  const links = layer === 0 ? graph.layer0 : graph.upper;
  const offsets = graph.upperOffsets;
  const capacity = layer === 0 ? m0 : m;
  const block = capacity + 1;
  const { visited, candidates, results, pending, pendingScores } = scratch;
  visited.reset(count);
  candidates.clear();
  results.clear();
  visited.visit(entry);
  candidates.push(-entryScore, entry);
  if (accept === null || accept(entry)) results.push(entryScore, entry);
  while (candidates.size > 0) {
    const current = candidates.topNode;
    if (results.size >= ef && -candidates.topKey < results.topKey) break;
    candidates.pop();
    let base: number;
    if (layer === 0) {
      base = current * block;
    } else {
      base = offsets[current] + (layer - 1) * block;
      if (base + block > offsets[current + 1]) corrupt(`node ${current} has no layer ${layer}`);
    }
    const degree = links[base];
    if (degree > capacity) corrupt(`node ${current} has ${degree} neighbours on layer ${layer}, more than ${capacity}`);
    // First the unvisited neighbours, then their scores four rows at a time (see dotWordsFour).
    let fresh = 0;
    for (let i = 1; i <= degree; i++) {
      const neighbour = links[base + i];
      if (neighbour >= count) corrupt(`node ${current} has neighbour ${neighbour} on layer ${layer}, out of range for ${count} nodes`);
      if (!visited.visit(neighbour)) continue;
      pending[fresh++] = neighbour;
    }
    scorer.scoreMany(pending, fresh, pendingScores);
    for (let i = 0; i < fresh; i++) {
      const neighbour = pending[i];
      const score = pendingScores[i];
      if (results.size < ef || score > results.topKey) {
        candidates.push(-score, neighbour);
        if (accept === null || accept(neighbour)) {
          if (results.size < ef) results.push(score, neighbour);
          else results.replaceTop(score, neighbour);
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Build.


function checkVectors(vectors: QuantizedVectors): void {
  const { dims, count, codes, scales } = vectors;
  if (!Number.isInteger(dims) || dims < 1 || dims > MAX_DIMS) throw new Error(`HNSW: dims must be an integer in 1…${MAX_DIMS}, got ${dims}`);
  if (!Number.isInteger(count) || count < 0 || count >= NO_NODE) throw new Error(`HNSW: invalid vector count ${count}`);
  if (codes.length < count * dims) throw new Error(`HNSW: ${codes.length} codes for ${count} vectors of ${dims} dims`);
  if (scales.length < count) throw new Error(`HNSW: ${scales.length} scales for ${count} vectors`);
}

function checkParams(params: HnswParams): void {
  const { m, efConstruction, seed } = params;
  if (!Number.isInteger(m) || m < 2 || m > MAX_M) throw new Error(`HNSW: m must be an integer in 2…${MAX_M}, got ${m}`);
  if (!Number.isInteger(efConstruction) || efConstruction < 1) throw new Error(`HNSW: efConstruction must be a positive integer, got ${efConstruction}`);
  if (!Number.isFinite(seed)) throw new Error(`HNSW: seed must be a number, got ${seed}`);
}

export function buildHnswGraph(vectors: QuantizedVectors, params: HnswParams = DEFAULT_HNSW_PARAMS): HnswGraph {
  checkVectors(vectors);
  checkParams(params);
  return new GraphBuilder(vectors, params).build();
}

class GraphBuilder {
  private readonly count: number;
  private readonly m: number;
  private readonly m0: number;
  private readonly graph: HnswGraph;
  private readonly scorer: RowScorer;
  private readonly scratch = new SearchScratch();
  /** Second scorer for distances between candidates (neighbour selection). */
  private readonly pairScorer: RowScorer;
  private readonly best = { score: 0 };
  // Candidate lists, best first, for the layer search result and for pruning a full neighbour list.
  private readonly foundNodes: Uint32Array;
  private readonly foundScores: Float64Array;
  private readonly pruneNodes: Uint32Array;
  private readonly pruneScores: Float64Array;
  private readonly selected: Uint32Array;
  private readonly linkCandidates: Uint32Array;
  private readonly linkScores: Float64Array;

  constructor(
    private readonly vectors: QuantizedVectors,
    private readonly params: HnswParams,
  ) {
    const { count, dims, codes, scales } = vectors;
    this.count = count;
    this.m = params.m;
    this.m0 = 2 * params.m;
    let aligned = codes;
    if (codeWords(codes, dims) === null && LITTLE_ENDIAN && dims % 4 === 0) {
      aligned = codes.slice(0, count * dims); // rows on a word boundary, for the fast kernel
    }
    this.scorer = new RowScorer(aligned, scales, dims);
    this.pairScorer = new RowScorer(aligned, scales, dims);
    const found = Math.max(params.efConstruction, this.m0) + 1;
    this.foundNodes = new Uint32Array(found);
    this.foundScores = new Float64Array(found);
    this.pruneNodes = new Uint32Array(this.m0 + 1);
    this.pruneScores = new Float64Array(this.m0 + 1);
    this.selected = new Uint32Array(this.m0 + 1);
    this.linkCandidates = new Uint32Array(this.m0 + 1);
    this.linkScores = new Float64Array(this.m0 + 1);

    const levels = new Uint8Array((count + 3) & ~3);
    const random = seededRandom(params.seed);
    const levelFactor = 1 / Math.log(this.m);
    const upperOffsets = new Uint32Array(count + 1);
    let upperLength = 0;
    for (let node = 0; node < count; node++) {
      const level = Math.min(MAX_LEVEL, Math.floor(-Math.log(1 - random()) * levelFactor));
      levels[node] = level;
      upperOffsets[node] = upperLength;
      upperLength += level * (this.m + 1);
    }
    upperOffsets[count] = upperLength;
    const meta = new Uint32Array(META_LENGTH);
    meta[META_VERSION] = HNSW_FORMAT_VERSION;
    meta[META_COUNT] = count;
    meta[META_M] = this.m;
    meta[META_M0] = this.m0;
    meta[META_ENTRY] = NO_NODE;
    meta[META_TOP_LEVEL] = 0;
    this.graph = { meta, levels, layer0: new Uint32Array(count * (this.m0 + 1)), upperOffsets, upper: new Uint32Array(upperLength) };
  }

  build(): HnswGraph {
    for (let node = 0; node < this.count; node++) this.insert(node);
    return this.graph;
  }

  /** Start of `node`'s neighbour block on `layer` in linksOf(layer). */
  private blockStart(node: number, layer: number): number {
    return layer === 0 ? node * (this.m0 + 1) : this.graph.upperOffsets[node] + (layer - 1) * (this.m + 1);
  }

  private linksOf(layer: number): Uint32Array {
    return layer === 0 ? this.graph.layer0 : this.graph.upper;
  }

  /** Algorithm 1: link `node` into every layer up to its level. */
  private insert(node: number): void {
    const meta = this.graph.meta;
    const level = this.graph.levels[node];
    if (meta[META_ENTRY] === NO_NODE) {
      meta[META_ENTRY] = node;
      meta[META_TOP_LEVEL] = level;
      return;
    }
    const scorer = this.scorer;
    scorer.loadRow(node);
    const topLevel = meta[META_TOP_LEVEL];
    let entry = meta[META_ENTRY];
    let entryScore = scorer.score(entry);
    for (let layer = topLevel; layer > level; layer--) {
      entry = greedyClosest(this.graph, scorer, entry, entryScore, layer, this.m, this.count, this.best);
      entryScore = this.best.score;
    }
    for (let layer = Math.min(level, topLevel); layer >= 0; layer--) {
      searchLayer(this.graph, scorer, this.scratch, entry, entryScore, this.params.efConstruction, layer, null);
      const found = this.drainResults();
      // The best found node enters the next layer down.
      entry = this.foundNodes[0];
      entryScore = this.foundScores[0];
      const chosen = this.selectNeighbours(this.foundNodes, this.foundScores, found, this.m);
      const links = this.linksOf(layer);
      const base = this.blockStart(node, layer);
      links[base] = chosen;
      for (let i = 0; i < chosen; i++) links[base + 1 + i] = this.selected[i];
      for (let i = 0; i < chosen; i++) this.link(links[base + 1 + i], node, layer);
    }
    if (level > topLevel) {
      meta[META_ENTRY] = node;
      meta[META_TOP_LEVEL] = level;
    }
  }

  /** Moves the layer search's results into found*, best first; returns how many. */
  private drainResults(): number {
    const results = this.scratch.results;
    const found = results.size;
    for (let i = found - 1; i >= 0; i--) {
      this.foundNodes[i] = results.topNode;
      this.foundScores[i] = results.topKey;
      results.pop();
    }
    return found;
  }

  /**
   * Algorithm 4 (the heuristic, without extending or keeping pruned candidates): walk the
   * candidates best first and keep one unless it is closer to an already kept neighbour than to
   * the base node. Writes up to `limit` nodes to `selected`; returns how many.
   */
  private selectNeighbours(nodes: Uint32Array, scores: Float64Array, n: number, limit: number): number {
    const selected = this.selected;
    const pair = this.pairScorer;
    let kept = 0;
    for (let i = 0; i < n && kept < limit; i++) {
      const candidate = nodes[i];
      const toBase = scores[i];
      let good = true;
      for (let j = 0; j < kept; j++) {
        if (pair.rowPair(candidate, selected[j]) > toBase) {
          good = false;
          break;
        }
      }
      if (good) selected[kept++] = candidate;
    }
    return kept;
  }

  /** Adds `node` to `target`'s neighbours on `layer`, re-selecting them when the list is full. */
  private link(target: number, node: number, layer: number): void {
    const links = this.linksOf(layer);
    const capacity = layer === 0 ? this.m0 : this.m;
    const base = this.blockStart(target, layer);
    const degree = links[base];
    if (degree < capacity) {
      links[base + 1 + degree] = node;
      links[base] = degree + 1;
      return;
    }
    // Full: the current neighbours plus the new one, scored from `target`, best first.
    const pair = this.pairScorer;
    pair.loadRow(target);
    const nodes = this.pruneNodes;
    const scores = this.pruneScores;
    const batch = this.linkCandidates;
    for (let i = 0; i < degree; i++) batch[i] = links[base + 1 + i];
    batch[degree] = node;
    pair.scoreMany(batch, degree + 1, this.linkScores);
    let n = 0;
    for (let i = 0; i <= degree; i++) {
      const candidate = batch[i];
      const score = this.linkScores[i];
      // Insertion sort: at most 2·m + 1 entries.
      let j = n++;
      while (j > 0 && scores[j - 1] < score) {
        scores[j] = scores[j - 1];
        nodes[j] = nodes[j - 1];
        j--;
      }
      scores[j] = score;
      nodes[j] = candidate;
    }
    const chosen = this.selectNeighbours(nodes, scores, n, capacity);
    links[base] = chosen;
    for (let i = 0; i < chosen; i++) links[base + 1 + i] = this.selected[i];
  }
}

// ---------------------------------------------------------------------------------------------
// Files.

function bytesOf(array: Uint32Array | Uint8Array): Uint8Array {
  return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
}

/** The graph as named byte sections, each a view (no copy) of 4-byte aligned data. */
export function encodeHnswGraph(graph: HnswGraph): Array<readonly [string, Uint8Array]> {
  return [
    [HNSW_SECTION.meta, bytesOf(graph.meta)],
    [HNSW_SECTION.levels, bytesOf(graph.levels)],
    [HNSW_SECTION.layer0, bytesOf(graph.layer0)],
    [HNSW_SECTION.upperOffsets, bytesOf(graph.upperOffsets)],
    [HNSW_SECTION.upper, bytesOf(graph.upper)],
  ];
}

function section(sections: (name: string) => Uint8Array | null, name: string): Uint8Array {
  const bytes = sections(name);
  if (bytes === null) corrupt(`section '${name}' is missing`);
  return bytes;
}

function u32Section(sections: (name: string) => Uint8Array | null, name: string, expectedLength: number | null): Uint32Array {
  const bytes = section(sections, name);
  if (bytes.byteOffset % 4 !== 0) corrupt(`section '${name}' starts at byte ${bytes.byteOffset}, not 4-byte aligned`);
  if (bytes.byteLength % 4 !== 0) corrupt(`section '${name}' is ${bytes.byteLength} bytes, not a whole number of Uint32s`);
  const view = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  if (expectedLength !== null && view.length !== expectedLength) corrupt(`section '${name}' holds ${view.length} Uint32s, expected ${expectedLength}`);
  return view;
}

/**
 * Reads a graph back from its sections' bytes without copying. Checks the header, the sizes and
 * the levels against the upper-layer offsets (one pass over 5 bytes a node); neighbour ids are
 * bounds-checked as searches read them.
 */
export function decodeHnswGraph(sections: (name: string) => Uint8Array | null, count: number): HnswGraph {
  const meta = u32Section(sections, HNSW_SECTION.meta, null);
  if (meta.length < META_LENGTH) corrupt(`header holds ${meta.length} values, expected ${META_LENGTH}`);
  if (meta[META_VERSION] !== HNSW_FORMAT_VERSION) corrupt(`format version ${meta[META_VERSION]}, this build reads ${HNSW_FORMAT_VERSION}`);
  if (meta[META_COUNT] !== count) corrupt(`graph of ${meta[META_COUNT]} nodes for ${count} vectors`);
  const m = meta[META_M];
  const m0 = meta[META_M0];
  if (m < 1 || m > MAX_M || m0 < m || m0 > 2 * MAX_M) corrupt(`neighbour capacities m=${m}, layer 0 ${m0}`);
  const entry = meta[META_ENTRY];
  const topLevel = meta[META_TOP_LEVEL];
  if (count === 0 ? entry !== NO_NODE : entry >= count) corrupt(`entry point ${entry} for ${count} nodes`);
  if (topLevel > MAX_LEVEL) corrupt(`top level ${topLevel}`);

  const levels = section(sections, HNSW_SECTION.levels);
  if (levels.byteLength < count) corrupt(`section '${HNSW_SECTION.levels}' is ${levels.byteLength} bytes for ${count} nodes`);
  const layer0 = u32Section(sections, HNSW_SECTION.layer0, count * (m0 + 1));
  const upperOffsets = u32Section(sections, HNSW_SECTION.upperOffsets, count + 1);
  const upper = u32Section(sections, HNSW_SECTION.upper, null);
  const block = m + 1;
  if (upperOffsets[0] !== 0) corrupt(`upper-layer offsets start at ${upperOffsets[0]}`);
  for (let node = 0; node < count; node++) {
    const level = levels[node];
    if (level > topLevel) corrupt(`node ${node} is on level ${level}, above the top level ${topLevel}`);
    if (upperOffsets[node + 1] - upperOffsets[node] !== level * block) corrupt(`node ${node}'s upper-layer offsets do not match its level ${level}`);
  }
  if (upperOffsets[count] !== upper.length) corrupt(`upper layers hold ${upper.length} Uint32s, the offsets say ${upperOffsets[count]}`);
  if (count > 0 && levels[entry] !== topLevel) corrupt(`entry point ${entry} is on level ${levels[entry]}, not the top level ${topLevel}`);
  return { meta, levels, layer0, upperOffsets, upper };
}

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

/** `nodes` rescored exactly (the caller's float formula), best first, ties by node. */
function exactResult(vectors: QuantizedVectors, query: Float32Array, nodes: Uint32Array): HnswResult {
  const { dims, codes, scales } = vectors;
  const order = Array.from(nodes, (node) => ({ node, score: Math.fround(codesDot(query, codes, node * dims) * scales[node]) }));
  order.sort((a, b) => b.score - a.score || a.node - b.node);
  return { nodes: Uint32Array.from(order, (o) => o.node), scores: Float32Array.from(order, (o) => o.score) };
}

/**
 * The k best nodes for `query` (normalised, of the vectors' dims), best first. Nodes that
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
  const nodes = new Uint32Array(results.size);
  for (let i = nodes.length - 1; i >= 0; i--) {
    nodes[i] = results.topNode;
    results.pop();
  }
  return exactResult(vectors, query, nodes);
}

/** Brute force: every accepted node scored (the caller's float formula), the k best, best first. */
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
  const nodes = new Uint32Array(heap.size);
  for (let i = nodes.length - 1; i >= 0; i--) {
    nodes[i] = heap.topNode;
    heap.pop();
  }
  return exactResult(vectors, query, nodes);
}
