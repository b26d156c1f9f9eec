// Scratch structures of HNSW walks: a generation-stamped visited set and binary heaps over
// typed arrays, reused from search to search (no allocation per visited node).

import { MAX_M } from './hnsw-format.ts';

// ---------------------------------------------------------------------------------------------
// Scratch structures: a generation-stamped visited set and binary heaps over typed arrays.

export class VisitedSet {
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
export class NodeHeap {
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
export class SearchScratch {
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
export const searchScratch = new SearchScratch();
