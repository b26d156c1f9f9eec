// The first pass of a search across collections: each collection's counts and the document
// frequencies of every term the query's clauses look up there (its words, their typo variants,
// prefix terms, synonyms and field terms), found by preparing the query as its search would
// without running it. Their sum (corpus-statistics.ts) weighs every collection's search.

import type { Analyzer } from '../analysis/index.ts';
import { corpusOf } from './collection-statistics.ts';
import type { CorpusStatistics } from './corpus-statistics.ts';
import type { SearchRequest } from './search-types.ts';
import { prepareQuery } from './searcher.ts';
import type { SegmentView } from './segment-view.ts';

/** This collection's part of a query's corpus statistics: its counts and the terms the query looks up in it. */
export function corpusStatistics(views: readonly SegmentView[], analyzer: Analyzer, request: SearchRequest): CorpusStatistics {
  const corpus = corpusOf(views, request.fieldWeights);
  prepareQuery(views, analyzer, { ...request, corpus: undefined }, corpus.docFreqs);
  return corpus;
}
