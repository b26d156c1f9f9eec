// Federated search's two rules (docs/api.md "Search across collections"): the statistics the
// queries weigh words with, and how their hits become one list.
//  - Statistics: every collection a keyword (or hybrid) query searches adds its counts once and
//    its document frequencies of the terms its queries looked up (engine corpus-statistics.ts),
//    so each collection scores as one collection holding all their documents would. Measured on
//    SciFact split into 3 collections against normalised scores and rank fusion
//    (benchmarks/README.md, "Search across collections").
//  - Merge: by score, best first (ties by id, as within a collection, then the earlier query); a document two
//    queries of one collection found appears once, with its better score; `total` adds the
//    queries' totals.

import type { CorpusStatistics } from '../../../../engine/index.ts';
import { addCorpusStatistics } from '../../../../engine/index.ts';

/** One collection's part of the statistics, as a query on it answered them. */
export interface CollectionStatisticsPart {
  collection: string;
  statistics: CorpusStatistics;
}

/** The statistics of every collection searched, each counted once (its queries' terms together). */
export function federatedCorpus(parts: readonly CollectionStatisticsPart[]): CorpusStatistics {
  const byCollection = new Map<string, CorpusStatistics>();
  for (const { collection, statistics } of parts) {
    const known = byCollection.get(collection);
    if (known === undefined) byCollection.set(collection, { ...statistics, docFreqs: { ...statistics.docFreqs } });
    else Object.assign(known.docFreqs, statistics.docFreqs);
  }
  return addCorpusStatistics([...byCollection.values()]);
}

/** A query's answer as the merge reads it (the worker's JSON members, parsed). */
export interface QueryAnswer {
  query: number;
  collection: string;
  hits: ({ id: string; score: number } & Record<string, unknown>)[];
  total: number;
  total_relation: 'eq' | 'gte';
  timed_out: boolean;
}

export interface MergedHits {
  /** Each hit with its collection and query first. */
  hits: Record<string, unknown>[];
  total: number;
  totalRelation: 'eq' | 'gte';
  timedOut: boolean;
  hasMore: boolean;
}

/** The hits of every query as one list by score, and the page `offset`…`offset + limit` of it. */
export function mergeHits(answers: readonly QueryAnswer[], offset: number, limit: number): MergedHits {
  const all = answers.flatMap((answer) => answer.hits.map((hit, rank) => ({ answer, hit, rank })));
  all.sort((a, b) => b.hit.score - a.hit.score || compareIds(a.hit.id, b.hit.id) || a.answer.query - b.answer.query);
  const seen = new Set<string>();
  const unique = all.filter(({ answer, hit }) => {
    const key = `${answer.collection}\u0000${hit.id}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const total = answers.reduce((sum, answer) => sum + answer.total, 0);
  return {
    hits: unique.slice(offset, offset + limit).map(({ answer, hit }) => ({ collection: answer.collection, query: answer.query, ...hit })),
    total,
    totalRelation: answers.some((answer) => answer.total_relation === 'gte') ? 'gte' : 'eq',
    timedOut: answers.some((answer) => answer.timed_out),
    // More merged hits past the page: some here, or a query that found more than it returned.
    hasMore: unique.length > offset + limit || answers.some((answer) => answer.total > answer.hits.length),
  };
}

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
