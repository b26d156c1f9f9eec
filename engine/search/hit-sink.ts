// Where a segment search sends the docs it ranks: the relevance collector (which lets WAND skip
// docs below its threshold) or a sort collector (which must see every match).

import type { DocBitSet } from './doc-bitset.ts';

export interface HitSink {
  /** Docs whose best possible score is below this need not be offered. */
  readonly threshold: number;
  /** True when, among equal scores, the lowest ids win: an empty query then offers only the first k docs by id. */
  readonly rankedById: boolean;
  /** How many docs the sink keeps at most. */
  readonly capacity: number;
  collect(doc: number, score: number): void;
  /** Offers every doc of `admissible` with score 0, in whatever order lets the sink stop early. */
  offerAll?(admissible: DocBitSet): void;
}
