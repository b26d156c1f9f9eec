// Where one segment's relevance ranking sends its docs (hit-sink.ts): the search's top-k
// collector across segments, counting what it is offered. Without a match set (no facets, no
// `trackTotal`), a disjunction offers every match until TOTAL_EXACT_UP_TO are counted and then
// only what may reach the top k: the threshold stays -Infinity until then, and once it is used
// the total is a lower bound. A class, so that every segment's sink has one shape: WAND reads its
// threshold and calls `collect` for every doc it visits.

import type { GroupCounter } from './grouping.ts';
import type { HitSink } from './hit-sink.ts';
import { TOTAL_EXACT_UP_TO } from './search-types.ts';
import type { TopKCollector } from './top-k-collector.ts';

export class RelevanceSink implements HitSink {
  readonly rankedById = true;
  /** Docs offered so far. */
  offered = 0;
  /** Set once the threshold was given past TOTAL_EXACT_UP_TO: the total is then a lower bound. */
  stoppedCounting = false;

  constructor(
    private readonly collector: TopKCollector,
    private readonly segment: number,
    readonly capacity: number,
    readonly needsMatchSet: boolean,
    /** Matches counted in the segments before this one. */
    private readonly countedBefore: number,
    /** A grouped search's groups, counted from what is offered. */
    private readonly groups: GroupCounter | undefined,
  ) {}

  get threshold(): number {
    if (this.needsMatchSet) return this.collector.threshold;
    if (this.countedBefore + this.offered < TOTAL_EXACT_UP_TO) return -Infinity;
    this.stoppedCounting = true;
    return this.collector.threshold;
  }

  collect(doc: number, score: number): void {
    this.offered++;
    this.groups?.addDoc(this.segment, doc);
    this.collector.collect(this.segment, doc, score);
  }
}
