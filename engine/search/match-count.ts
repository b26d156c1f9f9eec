// Counts a disjunction's matches without scoring them, up to a limit: each scorer marks its docs
// of a window of WINDOW docs on a bit set (doc numbers only: no term frequency is decoded), the
// window's admissible bits are counted, and counting stops once the limit is reached. So a search
// that promises its total exactly up to TOTAL_EXACT_UP_TO keeps that promise for the cost of
// reading doc numbers, and ranks with its threshold (block-max WAND) from the first hits on.

import { NO_MORE_DOCS } from './scorers/scorer.ts';
import type { Scorer } from './scorers/scorer.ts';
import { DisjunctionScorer } from './scorers/disjunction-scorer.ts';
import { TermScorer } from './scorers/term-scorer.ts';
import { SPEND_BATCH, SPEND_BATCH_MASK } from './search-budget.ts';
import type { SearchBudget } from './search-budget.ts';

const WINDOW_BITS = 12;
/** Docs a window spans. */
const WINDOW = 1 << WINDOW_BITS;
const WORDS = WINDOW >>> 5;

/** Reused across counts of one thread (a count runs to its end before the next starts). */
const marks = new Uint32Array(WORDS);

/**
 * How many distinct docs the union of `scorers` (unstarted) matches that `accept` takes, counted
 * until `limit` is reached: the answer is min(matches, limit).
 */
export function countMatches(scorers: readonly Scorer[], accept: ((doc: number) => boolean) | null, limit: number, budget: SearchBudget): number {
  if (scorers.length === 0 || limit <= 0) return 0;
  // Every doc admissible: a term matching `limit` docs alone answers without reading any, and
  // so does a term alone, whatever it matches.
  if (accept === null) {
    for (const scorer of scorers) if (matchesAtLeast(scorer) >= limit) return limit;
    if (scorers.length === 1 && scorers[0] instanceof TermScorer && scorers[0].matchesEveryPosting) return scorers[0].cost;
  }
  if (scorers.length === 1) return countOne(scorers[0], accept, limit, budget);
  for (const scorer of scorers) scorer.next();
  let counted = 0;
  try {
    for (;;) {
      let base = NO_MORE_DOCS;
      for (const scorer of scorers) if (scorer.doc < base) base = scorer.doc;
      if (base === NO_MORE_DOCS) return counted;
      base -= base & (WINDOW - 1);
      const end = base + WINDOW;
      let visited = 0;
      let last = 0;
      for (const scorer of scorers) {
        let doc = scorer.doc;
        while (doc < end) {
          const slot = doc - base;
          marks[slot >>> 5] |= 1 << (slot & 31);
          if (slot > last) last = slot;
          visited++;
          doc = scorer.next();
        }
      }
      budget.spend(visited);
      const words = (last >>> 5) + 1;
      for (let word = 0; word < words; word++) {
        let bits = marks[word];
        if (bits === 0) continue;
        marks[word] = 0;
        if (accept === null) {
          counted += popCount(bits);
          continue;
        }
        while (bits !== 0) {
          const low = bits & -bits;
          bits ^= low;
          if (accept(base + (word << 5) + 31 - Math.clz32(low))) counted++;
        }
      }
      if (counted >= limit) return limit;
    }
  } finally {
    marks.fill(0);
  }
}

/** One scorer's matches that `accept` takes, counted up to `limit`: no bit set needed. */
function countOne(scorer: Scorer, accept: ((doc: number) => boolean) | null, limit: number, budget: SearchBudget): number {
  let counted = 0;
  let visited = 0;
  for (let doc = scorer.next(); doc !== NO_MORE_DOCS && counted < limit; doc = scorer.next()) {
    if (accept === null || accept(doc)) counted++;
    if ((++visited & SPEND_BATCH_MASK) === 0) budget.spend(SPEND_BATCH);
  }
  return counted;
}

/** How many docs `scorer` surely matches, from its postings' counts: a term in any field matches its doc frequency; a disjunction, at least what its best part does. */
function matchesAtLeast(scorer: Scorer): number {
  if (scorer instanceof TermScorer) return scorer.matchesEveryPosting ? scorer.cost : 0;
  if (scorer instanceof DisjunctionScorer) {
    let most = 0;
    for (const sub of scorer.subs) most = Math.max(most, matchesAtLeast(sub));
    return most;
  }
  return 0;
}

function popCount(bits: number): number {
  bits -= (bits >>> 1) & 0x55555555;
  bits = (bits & 0x33333333) + ((bits >>> 2) & 0x33333333);
  return (((bits + (bits >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}
