// What every disjunction of sub-scorers shares: it matches the docs any of them matches, moving
// them all forward together. How a matched doc scores is each kind's own: the best of the subs
// (disjunction-max-scorer.ts, a word's alternatives) or a BM25F sum (fields-sum-scorer.ts, a form
// in several fields). Matching alone can walk the subs one by one (segment-search.ts).

import { NO_MORE_DOCS } from '../../segment/postings-cursor.ts';
import type { ScoreExplanation } from '../score-explanation.ts';
import type { Scorer } from './scorer.ts';
import { EVERY_DOC } from './scorer.ts';

export abstract class DisjunctionScorer<Sub extends Scorer = Scorer> implements Scorer {
  doc = -1;
  abstract readonly maxScore: number;

  /** No blocks unless a kind has its own: the bound over every doc. */
  shallowEnd = EVERY_DOC;
  groupEnd = EVERY_DOC;
  shallowBound(_target: number): number {
    return this.maxScore;
  }

  groupBound(_target: number): number {
    return this.maxScore;
  }
  readonly cost: number;

  constructor(
    /** The subs, each its own postings (matches can be listed sub by sub). */
    readonly subs: readonly Sub[],
  ) {
    this.cost = subs.reduce((sum, sub) => sum + sub.cost, 0);
  }

  next(): number {
    return this.advance(this.doc + 1);
  }

  advance(target: number): number {
    if (this.doc >= target) return this.doc;
    let min = NO_MORE_DOCS;
    for (const sub of this.subs) {
      const doc = sub.doc >= target ? sub.doc : sub.advance(target);
      if (doc < min) min = doc;
    }
    return (this.doc = min);
  }

  abstract score(): number;
  abstract explain(): ScoreExplanation;
}
