// Matches docs that any of its sub-scorers match and scores them by the best sub-score: used for
// prefix queries and typo variants, whose expansions are alternatives of one query word rather
// than separate words. Its block bounds are its subs' (Lucene's DisjunctionMaxScorer): over
// [target, shallowEnd] no doc scores more than the best of the subs' bounds there, and the range
// ends where the first of the subs' blocks ends. Each sub's latest bound is kept until the
// target passes its block, so a window costs a comparison per sub, not a lookup.

import type { ScoreExplanation } from '../score-explanation.ts';
import { DisjunctionScorer } from './disjunction-scorer.ts';
import type { Scorer } from './scorer.ts';
import { EVERY_DOC } from './scorer.ts';

/** Per sub, its latest bound and the last doc it covers (-1: none asked yet); and the range's end over them all. */
class SubBounds {
  readonly bounds: Float64Array;
  readonly ends: Int32Array;
  end = EVERY_DOC;
  constructor(
    count: number,
    /** Whether these are the subs' group bounds (else their block bounds). */
    readonly groups: boolean,
  ) {
    this.bounds = new Float64Array(count);
    this.ends = new Int32Array(count).fill(-1);
  }

  /** The best of the subs' bounds from `target` on, asking again only those whose range it passed. */
  best(subs: readonly Scorer[], target: number): number {
    const { bounds, ends } = this;
    let best = 0;
    let end = EVERY_DOC;
    for (let i = 0; i < subs.length; i++) {
      if (ends[i] < target) {
        const sub = subs[i];
        bounds[i] = this.groups ? sub.groupBound(target) : sub.shallowBound(target);
        ends[i] = this.groups ? sub.groupEnd : sub.shallowEnd;
      }
      if (bounds[i] > best) best = bounds[i];
      if (ends[i] < end) end = ends[i];
    }
    this.end = end;
    return best;
  }
}

export class DisjunctionMaxScorer extends DisjunctionScorer {
  readonly maxScore: number;
  private readonly blocks: SubBounds;
  private readonly groups: SubBounds;

  constructor(
    private readonly label: string,
    subs: readonly Scorer[],
  ) {
    super(subs);
    this.maxScore = Math.max(...subs.map((s) => s.maxScore));
    this.blocks = new SubBounds(subs.length, false);
    this.groups = new SubBounds(subs.length, true);
  }

  override shallowBound(target: number): number {
    const bound = this.blocks.best(this.subs, target);
    this.shallowEnd = this.blocks.end;
    return bound;
  }

  override groupBound(target: number): number {
    const bound = this.groups.best(this.subs, target);
    this.groupEnd = this.groups.end;
    return bound;
  }

  score(): number {
    let best = 0;
    for (const sub of this.subs) if (sub.doc === this.doc) best = Math.max(best, sub.score());
    return best;
  }

  explain(): ScoreExplanation {
    const matching = this.subs.filter((sub) => sub.doc === this.doc).map((sub) => sub.explain());
    return { value: this.score(), description: `max of the expansions of ${this.label}`, details: matching };
  }
}
