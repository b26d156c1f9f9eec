// Matches docs that any of its sub-scorers match and scores them by the best sub-score: used for
// prefix queries and typo variants, whose expansions are alternatives of one query word rather
// than separate words.

import { NO_MORE_DOCS } from '../../segment/postings-cursor.ts';
import type { ScoreExplanation } from '../search-types.ts';
import type { Scorer } from './scorer.ts';

export class DisjunctionMaxScorer implements Scorer {
  doc = -1;
  readonly maxScore: number;
  readonly cost: number;

  constructor(
    private readonly label: string,
    /** The alternatives, each its own postings (matches can be listed per alternative). */
    readonly subs: readonly Scorer[],
  ) {
    this.maxScore = Math.max(...subs.map((s) => s.maxScore));
    this.cost = subs.reduce((sum, s) => sum + s.cost, 0);
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
