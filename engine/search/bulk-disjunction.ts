// Scores a disjunction window by window while every match must be offered (the sink's threshold
// is still -Infinity: the total is being counted), as Lucene's BooleanScorer does: each scorer
// in turn adds its docs of a window of WINDOW docs into an array of sums, then the window's
// docs are offered in doc order. Per posting this is one `next` and one `score`, with none of
// WAND's per-doc sorting and pivoting, which only pays once there is a threshold to skip
// below. Sums are added in the query's order, as WAND adds them, so a doc gets the same score
// to the bit either way. A word's typo variants add what they score over its exact form on the
// same doc (typo-variants-scorer.ts): the exact form's scores of the window are kept for them.

import type { HitSink } from './hit-sink.ts';
import { NO_MORE_DOCS } from './scorers/scorer.ts';
import type { Scorer } from './scorers/scorer.ts';
import { TypoVariantsScorer } from './scorers/typo-variants-scorer.ts';
import type { SearchBudget } from './search-budget.ts';

const WINDOW_BITS = 11;
/** Docs a window spans: 2,048 (Lucene's BooleanScorer uses the same). */
const WINDOW = 1 << WINDOW_BITS;
const WORDS = WINDOW >>> 5;

/** Reused across searches of one thread (a search runs to its end before the next starts). */
const sums = new Float64Array(WINDOW);
const seen = new Uint32Array(WORDS);
/** The window's scores of an exact form whose typo variants come next, and where it matched. */
const exactScores = new Float64Array(WINDOW);
const exactSeen = new Uint32Array(WORDS);

/**
 * Whether collectBulk can rank these scorers: each typo-variants scorer directly follows its
 * exact form (as clause-scoring.ts's rankingScorers lists them).
 */
export function canCollectBulk(scorers: readonly Scorer[]): boolean {
  return scorers.every((scorer, i) => !(scorer instanceof TypoVariantsScorer) || scorer.exact === null || scorers[i - 1] === scorer.exact);
}

/**
 * Offers the docs of the disjunction of `scorers` (unstarted: doc -1; canCollectBulk holds) to
 * `sink`, window by window, while the sink's threshold is -Infinity; `accept(doc)` rejects docs
 * that do not match (filtered, deleted, excluded). Answers true when every doc was offered,
 * false when the threshold became finite: every scorer then sits on its first doc of the next
 * window or further (exhausted: NO_MORE_DOCS), for WAND to go on from.
 */
export function collectBulk(scorers: readonly Scorer[], accept: (doc: number) => boolean, sink: HitSink, budget: SearchBudget): boolean {
  try {
    return collectWindows(scorers, accept, sink, budget);
  } catch (error) {
    // A scorer that spends the budget (a phrase) may run out mid-window: the next search starts clear.
    seen.fill(0);
    exactSeen.fill(0);
    throw error;
  }
}

function collectWindows(scorers: readonly Scorer[], accept: (doc: number) => boolean, sink: HitSink, budget: SearchBudget): boolean {
  for (const scorer of scorers) scorer.next();
  for (;;) {
    let base = NO_MORE_DOCS;
    for (const scorer of scorers) if (scorer.doc < base) base = scorer.doc;
    if (base === NO_MORE_DOCS) {
      // Read once more, as WAND reads it at each pivot: a sink counting its matches learns
      // that the last window took the count past its limit.
      void sink.threshold;
      return true;
    }
    if (sink.threshold !== -Infinity) return false;
    const end = base + WINDOW;
    let postings = 0;
    for (let s = 0; s < scorers.length; s++) {
      const scorer = scorers[s];
      const next = scorers[s + 1];
      const keepExact = next instanceof TypoVariantsScorer && next.exact === scorer;
      const variants = scorer instanceof TypoVariantsScorer && scorer.exact !== null ? scorer : null;
      let doc = scorer.doc;
      while (doc < end) {
        const slot = doc - base;
        const word = slot >>> 5;
        const bit = 1 << (slot & 31);
        let score: number;
        if (variants !== null) {
          const variant = variants.variantScore();
          score = (exactSeen[word] & bit) === 0 ? variant : Math.max(0, variant - exactScores[slot]);
        } else {
          score = scorer.score();
          if (keepExact) {
            exactScores[slot] = score;
            exactSeen[word] |= bit;
          }
        }
        if ((seen[word] & bit) === 0) {
          seen[word] |= bit;
          sums[slot] = score;
        } else {
          sums[slot] += score;
        }
        postings++;
        doc = scorer.next();
      }
      if (variants !== null) exactSeen.fill(0);
    }
    for (let word = 0; word < WORDS; word++) {
      let bits = seen[word];
      if (bits === 0) continue;
      seen[word] = 0;
      while (bits !== 0) {
        const low = bits & -bits;
        const slot = (word << 5) + 31 - Math.clz32(low);
        bits ^= low;
        const doc = base + slot;
        if (accept(doc)) sink.collect(doc, sums[slot]);
      }
    }
    budget.spend(postings);
  }
}
