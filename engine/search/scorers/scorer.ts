// The interface every scorer implements: an iterator over matching doc numbers of one segment,
// ascending, that can score the current doc and bounds its best possible score (for WAND).

import { NO_MORE_DOCS } from '../../segment/postings-cursor.ts';
import type { ScoreExplanation } from '../score-explanation.ts';

export { NO_MORE_DOCS };

/** The shallowEnd of a bound over every doc. */
export const EVERY_DOC = NO_MORE_DOCS - 1;

export interface Scorer {
  /** Current doc: -1 before the first `next`, NO_MORE_DOCS when exhausted. */
  readonly doc: number;
  next(): number;
  /** Moves to the first matching doc ≥ target (stays put when already there). */
  advance(target: number): number;
  /** Score of the current doc. */
  score(): number;
  /** No doc scores more than this. */
  readonly maxScore: number;
  /**
   * Block-max bounds, without moving the scorer: no doc in [target, shallowEnd] scores more than
   * the answer (a scorer without blocks answers maxScore, over every doc). Targets must not go back.
   */
  shallowBound(target: number): number;
  /** The last doc the latest `shallowBound` answer covers. */
  readonly shallowEnd: number;
  /**
   * The same over a group of blocks (a coarser, cheaper bound: one skips them all): no doc in
   * [target, groupEnd] scores more than the answer. Targets must not go back, nor fall behind
   * those given to shallowBound.
   */
  groupBound(target: number): number;
  readonly groupEnd: number;
  /** Rough number of docs it matches (to order conjunctions cheapest first). */
  readonly cost: number;
  explain(): ScoreExplanation;
}

/**
 * A scorer of one field's part of a BM25F sum (fields-sum-scorer.ts): the current doc's
 * weighted, length-normalised frequency, before saturation.
 */
export interface FrequencyScorer extends Scorer {
  frequency(): number;
  /** No doc's frequency is above this. */
  readonly maxFrequency: number;
  explainFrequency(): ScoreExplanation;
}
