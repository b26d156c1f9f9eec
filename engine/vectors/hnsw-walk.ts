// Walking an HNSW graph, as searches and the build both do: the greedy descent through the
// upper layers, and the best-first search of one layer with `ef` candidates (rejected nodes
// walked through, never returned).

import { MAX_M, corrupt, metaOf } from './hnsw-format.ts';
import type { HnswGraph } from './hnsw-format.ts';
import { RowScorer } from './hnsw-kernels.ts';
import { SearchScratch } from './hnsw-scratch.ts';

/** Scratch for greedyClosest: one upper-layer neighbour list (at most MAX_M) and its scores. */
export const greedyNeighbours = new Uint32Array(MAX_M);
export const greedyScores = new Float64Array(MAX_M);

/**
 * Greedy walk on an upper layer (ef = 1): from `node`, move to a better neighbour while there is
 * one. Returns the node reached; its score is left in `best.score`.
 */
export function greedyClosest(graph: HnswGraph, scorer: RowScorer, node: number, score: number, layer: number, m: number, count: number, best: { score: number }): number {
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
export function searchLayer(
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
