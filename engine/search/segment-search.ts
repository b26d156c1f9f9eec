// Runs a prepared query over one segment: counts every matching live doc exactly and offers the
// best ones to the top-k collector. Three strategies: required clauses drive a conjunction;
// otherwise a disjunction is counted over a bit set and ranked with WAND; a query without
// positive clauses matches every live doc (ranked by id).

import { DocBitSet } from './doc-bitset.ts';
import { clauseScorer } from './clause-weights.ts';
import type { PreparedClause } from './clause-weights.ts';
import { NO_MORE_DOCS } from './scorers/scorer.ts';
import type { Scorer } from './scorers/scorer.ts';
import { deletedDocs } from './segment-view.ts';
import type { SegmentView } from './segment-view.ts';
import type { TopKCollector } from './top-k-collector.ts';
import { collectWand } from './wand.ts';

/** Returns the number of live docs of the segment that match. */
export function searchSegment(view: SegmentView, segment: number, prepared: readonly PreparedClause[], collector: TopKCollector): number {
  const { reader } = view;
  const deleted = deletedDocs(view);
  const excluded = excludedDocs(view, prepared);
  const rejected = (doc: number): boolean => (deleted !== null && deleted.has(doc)) || (excluded !== null && excluded.has(doc));

  const positives = prepared.filter((p) => p.clause.occur !== 'must_not');
  if (positives.length === 0) return matchAll(view, segment, rejected, collector);

  const required: Scorer[] = [];
  const optional: Scorer[] = [];
  for (const p of positives) {
    const scorer = clauseScorer(p, reader);
    if (p.clause.occur === 'must') {
      if (scorer === null) return 0; // a required clause with no postings here: nothing matches
      required.push(scorer);
    } else if (scorer !== null) {
      optional.push(scorer);
    }
  }
  if (required.length > 0) return conjunction(required, optional, segment, rejected, collector);
  if (optional.length === 0) return 0;

  // Exact count of the disjunction, without scoring.
  const matched = new DocBitSet(reader.docCount);
  for (const scorer of optional) for (let doc = scorer.next(); doc !== NO_MORE_DOCS; doc = scorer.next()) matched.add(doc);
  if (deleted !== null) matched.removeAll(deleted);
  if (excluded !== null) matched.removeAll(excluded);
  const total = matched.count();
  if (total === 0) return 0;
  // Ranking with WAND over fresh scorers, scoring only docs that can make the top k.
  const scorers = positives.map((p) => clauseScorer(p, reader)).filter((s): s is Scorer => s !== null);
  collectWand(scorers, (doc) => matched.has(doc), segment, collector);
  return total;
}

function excludedDocs(view: SegmentView, prepared: readonly PreparedClause[]): DocBitSet | null {
  let excluded: DocBitSet | null = null;
  for (const p of prepared) {
    if (p.clause.occur !== 'must_not') continue;
    const scorer = clauseScorer(p, view.reader);
    if (scorer === null) continue;
    excluded ??= new DocBitSet(view.reader.docCount);
    for (let doc = scorer.next(); doc !== NO_MORE_DOCS; doc = scorer.next()) excluded.add(doc);
  }
  return excluded;
}

function conjunction(
  required: Scorer[],
  optional: Scorer[],
  segment: number,
  rejected: (doc: number) => boolean,
  collector: TopKCollector,
): number {
  required.sort((a, b) => a.cost - b.cost);
  const lead = required[0];
  const bound = [...required, ...optional].reduce((sum, s) => sum + s.maxScore, 0);
  let total = 0;
  let doc = lead.next();
  while (doc !== NO_MORE_DOCS) {
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
    if (!rejected(doc)) {
      total++;
      if (bound >= collector.threshold) {
        let score = 0;
        for (const scorer of required) score += scorer.score();
        for (const scorer of optional) if (scorer.advance(doc) === doc) score += scorer.score();
        collector.collect(segment, doc, score);
      }
    }
    doc = lead.next();
  }
  return total;
}

/** Every live doc matches with score 0; within a segment the best are the first k by id. */
function matchAll(view: SegmentView, segment: number, rejected: (doc: number) => boolean, collector: TopKCollector): number {
  const { reader } = view;
  let total = 0;
  for (let doc = 0; doc < reader.docCount; doc++) if (!rejected(doc)) total++;
  let offered = 0;
  for (const doc of reader.docsByIdOrder()) {
    if (offered >= collector.k) break;
    if (rejected(doc)) continue;
    collector.collect(segment, doc, 0);
    offered++;
  }
  return total;
}
