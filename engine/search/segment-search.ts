// Runs a prepared query over one segment: finds every matching live doc exactly (returned as a
// bit set, for the total and for facets) and offers docs to a hit sink for ranking. Admissible
// docs are those passing the filter, not deleted and not excluded by `-clauses`. Three
// strategies: required clauses drive a conjunction; otherwise a disjunction's matches are
// marked on a bit set and ranked with block-max WAND — or, when the sink needs no match set,
// counted up to what the sink still counts without scoring (match-count.ts) and ranked with
// block-max MaxScore (max-score.ts), or WAND where it cannot (ranking by boost factors);
// a grouped search's sink counts what it is offered instead; a query without positive clauses
// matches every admissible doc (with score 0). Every doc visited spends a unit of the budget.

import type { FilterNode } from '../filter/index.ts';
import { DocBitSet } from './doc-bitset.ts';
import { SPEND_BATCH, SPEND_BATCH_MASK } from './search-budget.ts';
import type { SearchBudget } from './search-budget.ts';
import { clauseScorer, rankingScorers } from './clauses/index.ts';
import type { PreparedClause } from './clauses/index.ts';
import { evaluateFilter } from './filter-evaluator.ts';
import type { HitSink } from './hit-sink.ts';
import { DisjunctionScorer } from './scorers/disjunction-scorer.ts';
import { NO_MORE_DOCS } from './scorers/scorer.ts';
import type { Scorer } from './scorers/scorer.ts';
import { deletedDocs } from './segment-view.ts';
import type { SegmentView } from './segment-view.ts';
import { canCollectBulk, collectBulk } from './bulk-disjunction.ts';
import { countMatches } from './match-count.ts';
import { canCollectMaxScore, collectMaxScore } from './max-score.ts';
import { collectWand } from './wand.ts';

/**
 * Returns the set of the segment's live docs that match, or null when a disjunction was ranked
 * for a sink that needs no match set (the docs offered to the sink are then all it learns).
 */
export function searchSegment(view: SegmentView, prepared: readonly PreparedClause[], filter: FilterNode | null, sink: HitSink, budget: SearchBudget): DocBitSet | null {
  const { reader } = view;
  // null while every doc is admissible (no filter, deletes or exclusions): no bit set is built
  // until a restriction needs one, so the common ranking path allocates none.
  let admissible: DocBitSet | null = filter === null ? null : evaluateFilter(filter, reader);
  const deleted = deletedDocs(view);
  if (deleted !== null) (admissible ??= DocBitSet.full(reader.docCount)).removeAll(deleted);
  for (const p of prepared) {
    if (p.clause.occur !== 'must_not') continue;
    const scorer = clauseScorer(p, reader, budget);
    if (scorer === null) continue;
    const excluded = (admissible ??= DocBitSet.full(reader.docCount));
    let visited = 0;
    for (let doc = scorer.next(); doc !== NO_MORE_DOCS; doc = scorer.next()) {
      excluded.remove(doc);
      if ((++visited & SPEND_BATCH_MASK) === 0) budget.spend(SPEND_BATCH);
    }
  }

  const positives = prepared.filter((p) => p.clause.occur !== 'must_not');
  if (sink.needsMatchSet === false && positives.length > 0 && positives.every((p) => p.clause.occur !== 'must')) {
    const restricted = admissible;
    const scorers = positives.flatMap((p) => rankingScorers(p, reader, budget));
    const accept = restricted === null ? acceptEvery : (doc: number): boolean => restricted.has(doc);
    if (sink.countAhead !== undefined && sink.countAhead >= 0) {
      // The total counted without scoring (one more than it needs: past it, the total is a lower
      // bound), then block-max WAND ranks with its threshold from the first hits on.
      const counting = positives.map((p) => clauseScorer(p, reader, budget)).filter((scorer) => scorer !== null);
      sink.counted!(countMatches(counting, restricted === null ? null : accept, sink.countAhead + 1, budget));
      if (canCollectMaxScore(scorers) && (sink.factorBounds ?? null) === null) collectMaxScore(scorers, accept, sink, budget);
      else collectWand(scorers, accept, sink, budget);
      return null;
    }
    // Every match is offered until the total is counted (bulk, window by window); WAND skips after.
    if (!canCollectBulk(scorers)) collectWand(scorers, accept, sink, budget);
    else if (!collectBulk(scorers, accept, sink, budget)) collectWand(scorers, accept, sink, budget, true);
    return null;
  }
  admissible ??= DocBitSet.full(reader.docCount);
  if (positives.length === 0) return matchAll(view, admissible, sink);

  const required: Scorer[] = [];
  const optional: Scorer[] = [];
  for (const p of positives) {
    const scorer = clauseScorer(p, reader, budget);
    if (p.clause.occur === 'must') {
      if (scorer === null) return new DocBitSet(reader.docCount); // a required clause with no postings here
      required.push(scorer);
    } else if (scorer !== null) {
      optional.push(scorer);
    }
  }
  if (required.length > 0) return conjunction(required, optional, admissible, sink, budget);
  const matches = new DocBitSet(reader.docCount);
  if (optional.length === 0) return matches;
  // Exact match set of the disjunction, without scoring; then WAND over fresh scorers ranks it.
  for (const scorer of optional) markMatches(scorer, matches, budget);
  matches.and(admissible);
  const scorers = positives.flatMap((p) => rankingScorers(p, reader, budget));
  collectWand(scorers, (doc) => matches.has(doc), sink, budget);
  return matches;
}

function acceptEvery(): boolean {
  return true;
}

/** Adds every doc `scorer` matches to `matches`: a disjunction's subs one by one, not merged. */
function markMatches(scorer: Scorer, matches: DocBitSet, budget: SearchBudget): void {
  if (scorer instanceof DisjunctionScorer) {
    for (const sub of scorer.subs) markMatches(sub, matches, budget);
    return;
  }
  let visited = 0;
  for (let doc = scorer.next(); doc !== NO_MORE_DOCS; doc = scorer.next()) {
    matches.add(doc);
    if ((++visited & SPEND_BATCH_MASK) === 0) budget.spend(SPEND_BATCH);
  }
}

function conjunction(required: Scorer[], optional: Scorer[], admissible: DocBitSet, sink: HitSink, budget: SearchBudget): DocBitSet {
  required.sort((a, b) => a.cost - b.cost);
  const lead = required[0];
  const bound = [...required, ...optional].reduce((sum, s) => sum + s.maxScore, 0);
  const matches = new DocBitSet(admissible.size);
  let doc = lead.next();
  let visited = 0;
  while (doc !== NO_MORE_DOCS) {
    if ((++visited & SPEND_BATCH_MASK) === 0) budget.spend(SPEND_BATCH);
    let next = doc;
    for (let i = 1; i < required.length; i++) {
      const other = required[i].advance(doc);
      if (other > doc) {
        next = other;
        break;
      }
    }
    if (next !== doc) {
      doc = lead.advance(next);
      continue;
    }
    if (admissible.has(doc)) {
      matches.add(doc);
      if (bound >= sink.threshold) {
        let score = 0;
        for (const scorer of required) score += scorer.score();
        for (const scorer of optional) if (scorer.advance(doc) === doc) score += scorer.score();
        sink.collect(doc, score);
      }
    }
    doc = lead.next();
  }
  return matches;
}

/** Every admissible doc matches with score 0; ranked by id, the first k by id suffice. */
function matchAll(view: SegmentView, admissible: DocBitSet, sink: HitSink): DocBitSet {
  if (sink.rankedById) {
    // Later docs of this segment have higher ids than the first `capacity` offered: they cannot win.
    let offered = 0;
    for (const doc of view.reader.docsByIdOrder()) {
      if (offered >= sink.capacity) break;
      if (!admissible.has(doc)) continue;
      sink.collect(doc, 0);
      offered++;
    }
  } else if (sink.offerAll !== undefined) {
    sink.offerAll(admissible);
  } else {
    admissible.forEach((doc) => sink.collect(doc, 0));
  }
  return admissible;
}
