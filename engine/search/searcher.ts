// Executes a search over a snapshot of a collection's segments: parses the query, weighs its
// clauses with collection-wide BM25F statistics, ranks every segment into one top-k, counts the
// total exactly, and builds the requested page of hits (with explanations when asked).

import type { Analyzer } from '../analysis/analyzer.ts';
import { parseQuery, queryTermMatcher } from '../query/query-parser.ts';
import { clauseScorer, collectionStatistics, prepareClauses } from './clause-weights.ts';
import type { PreparedClause } from './clause-weights.ts';
import { buildHit, locatorTerms } from './hit-builder.ts';
import type { ScoreExplanation, SearchRequest, SearchResult } from './search-types.ts';
import { searchSegment } from './segment-search.ts';
import type { SegmentView } from './segment-view.ts';
import { TopKCollector } from './top-k-collector.ts';

export function searchSegments(views: readonly SegmentView[], analyzer: Analyzer, request: SearchRequest): SearchResult {
  const query = parseQuery(request.q, request.match, analyzer);
  const stats = collectionStatistics(views);
  const prepared = prepareClauses(query.clauses, views, stats);
  const collector = new TopKCollector(request.offset + request.limit, (segment, doc) => views[segment].reader.docId(doc));
  let total = 0;
  views.forEach((view, segment) => {
    total += searchSegment(view, segment, prepared, collector);
  });
  const options = {
    analyzer,
    isMatch: queryTermMatcher(query),
    highlightTag: request.highlightTag,
    locators: locatorTerms(prepared),
  };
  const hits = collector.results().slice(request.offset).map((hit) => {
    const view = views[hit.segment];
    const explanation = request.explain ? explainHit(view, hit.doc, hit.score, prepared) : undefined;
    return buildHit(view, hit.doc, hit.score, options, explanation);
  });
  return { hits, total };
}

/** Re-scores one doc clause by clause to say where its score came from. */
function explainHit(view: SegmentView, doc: number, score: number, prepared: readonly PreparedClause[]): ScoreExplanation {
  const details: ScoreExplanation[] = [];
  for (const p of prepared) {
    if (p.clause.occur === 'must_not') continue;
    const scorer = clauseScorer(p, view.reader);
    if (scorer !== null && scorer.advance(doc) === doc) details.push(scorer.explain());
  }
  return { value: score, description: 'sum of the matching clauses', details };
}
