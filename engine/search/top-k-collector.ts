// Keeps the best k hits seen so far across segments: highest score first, ties broken by the
// caller's id (ascending) so the order is total and stable across pages. Ids are compared
// without decoding them (by rank within a segment, by bytes across segments). A min-heap whose root
// is the worst kept hit; `threshold` is what a new hit must reach to have a chance.

export interface ScoredDoc {
  score: number;
  segment: number;
  doc: number;
}

/** Orders two docs by caller id (negative: the first has the lower id). */
export type IdComparator = (segmentA: number, docA: number, segmentB: number, docB: number) => number;

export class TopKCollector {
  private readonly heap: ScoredDoc[] = [];
  /** Bumped whenever the worst kept hit (`worst`) changes. */
  worstChanges = 0;

  constructor(
    readonly k: number,
    private readonly compareIds: IdComparator,
  ) {}

  /** Scores below this cannot enter (a score equal to it may, on its id). */
  get threshold(): number {
    return this.heap.length < this.k ? -Infinity : this.heap[0].score;
  }

  /** The worst kept hit once k are kept (the one a new hit must beat), else null. */
  get worst(): ScoredDoc | null {
    return this.heap.length < this.k || this.k === 0 ? null : this.heap[0];
  }

  collect(segment: number, doc: number, score: number): void {
    if (this.k === 0) return;
    if (this.heap.length < this.k) {
      this.heap.push({ score, segment, doc });
      this.siftUp(this.heap.length - 1);
      this.worstChanges++;
      return;
    }
    const worst = this.heap[0];
    // Cheap first, and before allocating: most candidates lose on score alone.
    if (score < worst.score) return;
    const candidate: ScoredDoc = { score, segment, doc };
    if (!this.worse(worst, candidate)) return;
    this.heap[0] = candidate;
    this.siftDown(0);
    this.worstChanges++;
  }

  /** The kept hits, best first. */
  results(): ScoredDoc[] {
    return [...this.heap].sort((a, b) => (this.worse(a, b) ? 1 : this.worse(b, a) ? -1 : 0));
  }

  /** True when `a` ranks below `b`. */
  private worse(a: ScoredDoc, b: ScoredDoc): boolean {
    if (a.score !== b.score) return a.score < b.score;
    return this.compareIds(a.segment, a.doc, b.segment, b.doc) > 0;
  }

  private siftUp(index: number): void {
    const heap = this.heap;
    while (index > 0) {
      const parent = (index - 1) >>> 1;
      if (!this.worse(heap[index], heap[parent])) break;
      [heap[index], heap[parent]] = [heap[parent], heap[index]];
      index = parent;
    }
  }

  private siftDown(index: number): void {
    const heap = this.heap;
    for (;;) {
      const left = index * 2 + 1;
      const right = left + 1;
      let worst = index;
      if (left < heap.length && this.worse(heap[left], heap[worst])) worst = left;
      if (right < heap.length && this.worse(heap[right], heap[worst])) worst = right;
      if (worst === index) return;
      [heap[index], heap[worst]] = [heap[worst], heap[index]];
      index = worst;
    }
  }
}
