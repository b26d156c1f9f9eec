// Builds an HNSW graph from a segment's int8 codes: node levels from a seeded PRNG (so a
// build is deterministic), neighbours chosen with the paper's heuristic (algorithm 4), lists
// filled up to their capacity through links back from later nodes and re-selected when full.

import { seededRandom } from './seeded-random.ts';
import { DEFAULT_HNSW_PARAMS, HNSW_FORMAT_VERSION, LITTLE_ENDIAN, MAX_LEVEL, MAX_M, META_COUNT, META_ENTRY, META_LENGTH, META_M, META_M0, META_TOP_LEVEL, META_VERSION, NO_NODE, checkVectors } from './hnsw-format.ts';
import type { HnswGraph, HnswParams, QuantizedVectors } from './hnsw-format.ts';
import { RowScorer, codeWords } from './hnsw-kernels.ts';
import { SearchScratch } from './hnsw-scratch.ts';
import { greedyClosest, searchLayer } from './hnsw-walk.ts';

// ---------------------------------------------------------------------------------------------
// Build.



export function checkParams(params: HnswParams): void {
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

export class GraphBuilder {
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
    this.pairScorer = new RowScorer(aligned, scales, dims, false); // rowPair only: no SIMD copy
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
    try {
      for (let node = 0; node < this.count; node++) this.insert(node);
    } finally {
      this.scorer.release();
    }
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
