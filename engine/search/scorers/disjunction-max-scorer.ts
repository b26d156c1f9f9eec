// Matches docs that any of its sub-scorers match and scores them by the best sub-score: used for
// prefix queries and typo variants, whose expansions are alternatives of one query word rather
// than separate words.

import type { ScoreExplanation } from '../score-explanation.ts';
import { DisjunctionScorer } from './disjunction-scorer.ts';
import type { Scorer } from './scorer.ts';

export class DisjunctionMaxScorer extends DisjunctionScorer {
  readonly maxScore: number;

  constructor(
    private readonly label: string,
    subs: readonly Scorer[],
  ) {
    super(subs);
    this.maxScore = Math.max(...subs.map((s) => s.maxScore));
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
