// Where one segment's relevance ranking sends its docs (hit-sink.ts): the search's top-k
// collector across segments. Without a match set (no facets, no `trackTotal`), the segment's
// matches are counted ahead, without scoring, up to what TOTAL_EXACT_UP_TO leaves (match-count.ts),
// and a disjunction then offers only what may reach the top k; past that many the total is a
// lower bound. A grouped search counts its groups from the docs offered, so it counts what it is
// offered instead: every match until TOTAL_EXACT_UP_TO are counted (the threshold stays -Infinity
// until then), then only what may reach the top k. With field boosts (field-boosts.ts) it multiplies each score by
// the doc's multiplier, and asks the scorers for the threshold over the segment's largest one
// (a `listing`, a query without words, is ranked by the multipliers alone). One class for both,
// so that every segment's sink has one shape: WAND reads its threshold and calls `collect` for
// every doc it visits.

import type { SegmentBoosts } from './field-boosts.ts';
import type { GroupCounter } from './grouping.ts';
import type { HitSink, ScoreFactorBounds } from './hit-sink.ts';
import { TOTAL_EXACT_UP_TO } from './search-types.ts';
import type { TopKCollector } from './top-k-collector.ts';

/**
 * For a segment whose doc numbers follow id order: given the worst kept hit, the first doc of
 * the segment whose id (and every later doc's) is above that hit's.
 */
export type TieBoundary = (worstSegment: number, worstDoc: number) => number;

export class RelevanceSink implements HitSink {
  readonly rankedById: boolean;
  readonly factorBounds: ScoreFactorBounds | null;
  /** Docs offered so far. */
  offered = 0;
  /** Set once the threshold was given past TOTAL_EXACT_UP_TO: the total is then a lower bound. */
  stoppedCounting = false;
  /**
   * How many matches a count pass is to count before ranking (`counted` then takes them), or -1
   * where the sink counts what it is offered (a grouped search, or one with a match set).
   */
  readonly countAhead: number;
  /** The matches counted ahead, once `counted` was called; else null. */
  private matchedAhead: number | null = null;
  /** The boosts, when any apply to this segment. */
  private readonly boosts: SegmentBoosts | null;
  /** Each doc's multiplier, when kept for the segment and these boosts: values[codes[doc]]. */
  private readonly codes: Uint8Array | Uint16Array | Uint32Array | null;
  private readonly values: Float64Array | null;
  /** The largest multiplier of the segment (1 without boosts). */
  private readonly largest: number;
  /** 1 / the largest multiplier. */
  private readonly thresholdScale: number;
  /** Where ties lose (tiesLoseFrom), for the worst hit of `boundaryAt` (the collector's worstChanges). */
  private readonly tieBoundary: TieBoundary | null;
  private boundary = Infinity;
  private boundaryAt = -1;

  constructor(
    private readonly collector: TopKCollector,
    private readonly segment: number,
    readonly capacity: number,
    readonly needsMatchSet: boolean,
    /** Matches counted in the segments before this one. */
    private readonly countedBefore: number,
    /** A grouped search's groups, counted from what is offered. */
    private readonly groups: GroupCounter | undefined,
    boosts: SegmentBoosts | null,
    /** A query without words: every doc scores 0, and the boosts alone rank them. */
    private readonly listing: boolean,
    /** Where the segment's doc numbers follow id order, where ties start to lose in it. */
    tieBoundary: TieBoundary | null = null,
  ) {
    this.boosts = boosts === null || boosts.empty ? null : boosts;
    const table = this.boosts === null ? null : this.boosts.table;
    this.codes = table === null ? null : table.codes;
    this.values = table === null ? null : table.values;
    this.largest = this.boosts === null ? 1 : this.boosts.max;
    this.thresholdScale = 1 / this.largest;
    this.factorBounds = this.boosts === null || listing ? null : this.boosts.factorBounds;
    // A boosted listing offers every doc: the first k by id are not the best boosted.
    this.rankedById = this.boosts === null || !listing;
    this.countAhead = needsMatchSet || groups !== undefined ? -1 : Math.max(0, TOTAL_EXACT_UP_TO - countedBefore);
    // Boosted scores tie differently from the scores pruning sees, and groups count what is offered.
    this.tieBoundary = this.boosts === null && groups === undefined && !listing ? tieBoundary : null;
  }

  tiesLoseFrom(): number {
    if (this.tieBoundary === null) return Infinity;
    const changes = this.collector.worstChanges;
    if (changes !== this.boundaryAt) {
      const worst = this.collector.worst;
      this.boundary = worst === null ? Infinity : this.tieBoundary(worst.segment, worst.doc);
      this.boundaryAt = changes;
    }
    return this.boundary;
  }

  /**
   * Takes the count pass's answer: `matches` counted of at most countAhead + 1. More than
   * countAhead means the total is past TOTAL_EXACT_UP_TO (a lower bound from now on).
   */
  counted(matches: number): void {
    this.matchedAhead = Math.min(matches, this.countAhead);
    if (matches > this.countAhead) this.stoppedCounting = true;
  }

  /** The matches this segment adds to the total. */
  get matched(): number {
    return this.matchedAhead ?? this.offered;
  }

  get threshold(): number {
    if (this.needsMatchSet || this.matchedAhead !== null) return this.collector.threshold * this.thresholdScale;
    if (this.countedBefore + this.offered < TOTAL_EXACT_UP_TO) return -Infinity;
    this.stoppedCounting = true;
    return this.collector.threshold * this.thresholdScale;
  }

  collect(doc: number, score: number): void {
    this.offered++;
    this.groups?.addDoc(this.segment, doc);
    if (this.boosts !== null) {
      // A doc that cannot enter even with the largest multiplier is not looked up (the lookup
      // is a cache miss for most docs of a large segment).
      if (!this.listing && score * this.largest < this.collector.threshold) return;
      const multiplier = this.codes === null ? this.boosts.multiplier(doc) : this.values![this.codes[doc]];
      score = this.listing ? multiplier : score * multiplier;
    }
    this.collector.collect(this.segment, doc, score);
  }
}
