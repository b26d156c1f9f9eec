// BM25F over title, text and the searched metadata fields: one form of a clause (a word, a
// phrase, a variant, a synonym) looked for in several fields, each part its own postings (title
// and text share one; each metadata field has its terms). A doc matches where any part does;
// its score sums the parts' weighted, length-normalised frequencies, then saturates once with
// the form's idf — so a word in two fields counts more than in one, but not twice as much.

import type { Bm25fWeight } from '../bm25.ts';
import type { ScoreExplanation } from '../score-explanation.ts';
import { DisjunctionScorer } from './disjunction-scorer.ts';
import type { FrequencyScorer } from './scorer.ts';

export class FieldsSumScorer extends DisjunctionScorer<FrequencyScorer> {
  readonly maxScore: number;

  constructor(
    private readonly label: string,
    parts: readonly FrequencyScorer[],
    /** The form's weight: its idf and boost saturate the sum. */
    private readonly weight: Bm25fWeight,
  ) {
    super(parts);
    this.maxScore = weight.saturatedBound(parts.reduce((sum, part) => sum + part.maxFrequency, 0));
  }

  score(): number {
    return this.weight.saturated(this.frequency());
  }

  explain(): ScoreExplanation {
    const matching = this.subs.filter((part) => part.doc === this.doc).map((part) => part.explainFrequency());
    return this.weight.explainSum(this.label, this.frequency(), matching);
  }

  private frequency(): number {
    let tf = 0;
    for (const part of this.subs) if (part.doc === this.doc) tf += part.frequency();
    return tf;
  }
}
