// WAND (Broder et al., 2003) top-k evaluation of a disjunction: scorers are kept sorted by their
// current doc; the pivot is the first doc at which the summed score bounds could reach the
// collector's threshold, so docs before it are skipped without being scored. Docs are scored
// only when every scorer up to the pivot sits on them. Block-max WAND (Ding & Suel, 2011; Lucene's
// WANDScorer over impacts): at a pivot, the scorers up to it are bounded by their blocks' best
// scores there (scorer.shallowBound); when those cannot reach the threshold, every doc up to the
// first block end is skipped without being decoded. A sink that raises scores by a factor per
// doc (a ranking by fields) gives its factors' bounds: a block of docs whose summed bounds times
// the block's largest factor cannot reach the threshold is skipped whole, and a doc whose own
// factor keeps it below is passed over without being scored.

import type { Scorer } from './scorers/scorer.ts';
import { NO_MORE_DOCS } from './scorers/scorer.ts';
import { FACTOR_BLOCK_SHIFT } from './hit-sink.ts';
import type { HitSink, ScoreFactorBounds } from './hit-sink.ts';
import { SPEND_BATCH, SPEND_BATCH_MASK } from './search-budget.ts';
import type { SearchBudget } from './search-budget.ts';

/**
 * Offers the docs of the disjunction of `scorers` that can reach the sink's threshold to the
 * sink. `accept(doc)` rejects docs that do not match (filtered, deleted, excluded). Returns how
 * many docs were scored. Each pivot visited spends a unit of `budget`. `started`: the scorers
 * already sit on their next docs (bulk-disjunction.ts went first), rather than before their first.
 */
export function collectWand(scorers: Scorer[], accept: (doc: number) => boolean, sink: HitSink, budget: SearchBudget, started = false): number {
  const factors = sink.factorBounds ?? null;
  let active = scorers.filter((scorer) => (started ? scorer.doc : scorer.next()) !== NO_MORE_DOCS);
  let scored = 0;
  let visited = 0;
  while (active.length > 0) {
    if ((++visited & SPEND_BATCH_MASK) === 0) budget.spend(SPEND_BATCH);
    sortByDoc(active);
    const threshold = sink.threshold;
    let bound = 0;
    let pivot = -1;
    for (let i = 0; i < active.length; i++) {
      bound += active[i].maxScore;
      if (bound >= threshold) {
        pivot = i;
        break;
      }
    }
    if (pivot < 0) break; // no remaining doc can reach the threshold
    const pivotDoc = active[pivot].doc;
    if (threshold > 0 && skipBelowBlockBounds(active, pivot, threshold)) {
      if (anyExhausted(active)) active = active.filter((scorer) => scorer.doc !== NO_MORE_DOCS);
      continue;
    }
    // (While the threshold is not above 0 — every match still counted — nothing can be skipped.)
    if (factors !== null && threshold > 0 && skipBelowFactor(active, pivot, bound, threshold, factors)) {
      if (anyExhausted(active)) active = active.filter((scorer) => scorer.doc !== NO_MORE_DOCS);
      continue;
    }
    if (active[0].doc === pivotDoc) {
      if (accept(pivotDoc)) {
        // Summed in the query's order, not the sorted one, so equal docs get equal scores to the bit.
        let score = 0;
        for (let i = 0; i < scorers.length; i++) if (scorers[i].doc === pivotDoc) score += scorers[i].score();
        sink.collect(pivotDoc, score);
        scored++;
      }
      for (let i = 0; i < active.length && active[i].doc === pivotDoc; i++) active[i].next();
    } else {
      for (let i = 0; i < pivot; i++) if (active[i].doc < pivotDoc) active[i].advance(pivotDoc);
    }
    if (anyExhausted(active)) active = active.filter((scorer) => scorer.doc !== NO_MORE_DOCS);
  }
  return scored;
}

/**
 * At a pivot: while the blocks holding the target (first the pivot doc) of the scorers up to the
 * pivot (and of those after it on the same doc) cannot reach the threshold together, moves the
 * target past the earliest of those blocks' ends, by their skip entries alone (nothing decoded),
 * but not past the next scorer's doc. Then moves those scorers to the target, and answers
 * whether it moved. No doc skipped can reach the threshold: before the pivot doc, WAND's bound
 * holds; from there to the target, the blocks'.
 */
function skipBelowBlockBounds(active: Scorer[], pivot: number, threshold: number): boolean {
  const pivotDoc = active[pivot].doc;
  let last = pivot;
  while (last + 1 < active.length && active[last + 1].doc === pivotDoc) last++;
  const limit = last + 1 < active.length ? active[last + 1].doc : NO_MORE_DOCS;
  let target = pivotDoc;
  for (;;) {
    let bound = 0;
    let upTo = NO_MORE_DOCS;
    for (let i = 0; i <= last; i++) {
      const scorer = active[i];
      bound += scorer.shallowBound(target);
      if (scorer.shallowEnd < upTo) upTo = scorer.shallowEnd;
    }
    if (bound >= threshold) break;
    target = upTo + 1;
    if (target >= limit) {
      target = limit;
      break;
    }
  }
  if (target === pivotDoc) return false;
  for (let i = 0; i <= last; i++) active[i].advance(target);
  return true;
}

/**
 * With per-doc factor bounds, at a pivot found against the largest factor: when no doc of the
 * pivot's block can reach the threshold with the block's largest factor, moves every scorer in
 * the block past it; when the pivot doc (all its scorers on it) cannot with its own factor,
 * moves them past the doc. Docs before the pivot cannot reach it in any case (WAND). Answers
 * whether it moved anything.
 */
function skipBelowFactor(active: Scorer[], pivot: number, prefixBound: number, threshold: number, factors: ScoreFactorBounds): boolean {
  const pivotDoc = active[pivot].doc;
  const block = pivotDoc >> FACTOR_BLOCK_SHIFT;
  const blockEnd = (block + 1) << FACTOR_BLOCK_SHIFT;
  // The scorers after the pivot that reach into the block may add to its docs.
  let blockBound = prefixBound;
  for (let i = pivot + 1; i < active.length && active[i].doc < blockEnd; i++) blockBound += active[i].maxScore;
  if (blockBound * factors.perBlock[block] < threshold) {
    for (let i = 0; i < active.length && active[i].doc < blockEnd; i++) active[i].advance(blockEnd);
    return true;
  }
  if (active[0].doc !== pivotDoc) return false;
  let docBound = 0;
  let on = 0;
  while (on < active.length && active[on].doc === pivotDoc) docBound += active[on++].maxScore;
  if (docBound * factors.shares[factors.codes[pivotDoc]] >= threshold) return false;
  for (let i = 0; i < on; i++) active[i].next();
  return true;
}

/** A plain loop: a callback here would be a new closure for every doc visited. */
function anyExhausted(scorers: Scorer[]): boolean {
  for (let i = 0; i < scorers.length; i++) if (scorers[i].doc === NO_MORE_DOCS) return true;
  return false;
}

function sortByDoc(scorers: Scorer[]): void {
  for (let i = 1; i < scorers.length; i++) {
    const scorer = scorers[i];
    let j = i - 1;
    while (j >= 0 && scorers[j].doc > scorer.doc) {
      scorers[j + 1] = scorers[j];
      j--;
    }
    scorers[j + 1] = scorer;
  }
}
