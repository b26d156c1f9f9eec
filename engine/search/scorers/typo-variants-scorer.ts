// What a query word's typo variants add over its exact form, as a scorer of its own, so WAND
// can bound them apart: a word scores max(exact, best variant) = exact + max(0, variant − exact),
// and its bounds, block by block, are the variants' (each scaled down per typo). Ranked as one
// dis-max scorer, every document holding only a variant had to be scored, as variants share the
// exact form's bound; split, WAND skips those once no variant-only document can reach the top k.
// The exact form it takes off is read from a cursor of its own, moved to the doc it scores, so
// its score does not depend on where the ranking moved the exact form's scorer (MaxScore scores
// a window's docs scorer by scorer).

import type { ScoreExplanation } from '../score-explanation.ts';
import type { Scorer } from './scorer.ts';

export class TypoVariantsScorer implements Scorer {
  readonly maxScore: number;
  readonly cost: number;

  /** The variants' block bounds (the exact form taken off only lowers a score). */
  shallowBound(target: number): number {
    return this.variants.shallowBound(target);
  }

  get shallowEnd(): number {
    return this.variants.shallowEnd;
  }

  groupBound(target: number): number {
    return this.variants.groupBound(target);
  }

  get groupEnd(): number {
    return this.variants.groupEnd;
  }

  /**
   * `variants`: the best of the word's variants; `exact`: the word as typed, as the ranking sums
   * it (null: not in this segment); `ownExact`: the same form on a cursor of its own.
   */
  constructor(
    private readonly variants: Scorer,
    readonly exact: Scorer | null,
    private readonly ownExact: Scorer | null,
  ) {
    this.maxScore = variants.maxScore;
    this.cost = variants.cost;
  }

  get doc(): number {
    return this.variants.doc;
  }

  next(): number {
    return this.variants.next();
  }

  advance(target: number): number {
    return this.variants.advance(target);
  }

  /** The best variant's score on the current doc, before the exact form is taken off. */
  variantScore(): number {
    return this.variants.score();
  }

  score(): number {
    const variant = this.variants.score();
    const exact = this.ownExact;
    if (exact === null) return variant;
    const doc = this.variants.doc;
    if ((exact.doc < doc ? exact.advance(doc) : exact.doc) !== doc) return variant;
    return Math.max(0, variant - exact.score());
  }

  explain(): ScoreExplanation {
    return { value: this.score(), description: 'typo variants beyond the exact word', details: [this.variants.explain()] };
  }
}
