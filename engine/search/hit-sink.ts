// Where a segment search sends the docs it ranks: the relevance collector (which lets WAND skip
// docs below its threshold) or a sort collector (which must see every match). A sink that
// needs no match set lets a disjunction skip the docs that cannot reach its threshold without
// listing them first; it then counts the docs offered to it itself.

import type { DocBitSet } from './doc-bitset.ts';

/** Docs per block of ScoreFactorBounds.perBlock: 64. */
export const FACTOR_BLOCK_SHIFT = 6;

/**
 * How much a sink may raise each doc's score (a ranking by fields multiplies it), relative to
 * the largest raise, which its threshold already allows for: a doc whose score bound times its
 * factor is below the threshold cannot reach it, nor can a block of docs under the block's
 * largest factor. WAND skips them.
 */
export interface ScoreFactorBounds {
  /** Each doc's code into `shares`. */
  readonly codes: Uint8Array | Uint16Array | Uint32Array;
  /** The factors the docs have, at most 1 (the largest multiplier). */
  readonly shares: Float64Array;
  /** The largest factor of each block of 1 << FACTOR_BLOCK_SHIFT docs. */
  readonly perBlock: Float64Array;
}

export interface HitSink {
  /** Docs whose best possible score is below this need not be offered. */
  readonly threshold: number;
  /** True when, among equal scores, the lowest ids win: an empty query then offers only the first k docs by id. */
  readonly rankedById: boolean;
  /** How many docs the sink keeps at most. */
  readonly capacity: number;
  /**
   * False when the caller needs no set of every match (no facets, total counted by the sink):
   * a disjunction is then ranked in one pass, offering every doc while the threshold is
   * -Infinity and skipping below it afterwards; absent means true.
   */
  readonly needsMatchSet?: boolean;
  /**
   * Without a match set: how many matches to count ahead, without scoring, before ranking with
   * the threshold (then `counted` takes them, counted up to one more); absent or -1: the sink
   * counts the docs offered to it.
   */
  readonly countAhead?: number;
  counted?(matches: number): void;
  /** Present when the sink raises scores by different factors per doc (see ScoreFactorBounds). */
  readonly factorBounds?: ScoreFactorBounds | null;
  /**
   * The first doc of the segment from which a doc scoring exactly the threshold cannot enter
   * either: from there on every doc's id is above the worst kept hit's, and ties go to the lower
   * id. Pruning may then skip ties as well (Lucene's "next up" minimum competitive score, which
   * its doc order gives it everywhere). Infinity, or absent, where no such doc is known.
   */
  tiesLoseFrom?(): number;
  collect(doc: number, score: number): void;
  /** Offers every doc of `admissible` with score 0, in whatever order lets the sink stop early. */
  offerAll?(admissible: DocBitSet): void;
}
