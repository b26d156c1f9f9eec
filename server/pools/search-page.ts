// A search answer as it crosses back from a search worker: the API's JSON members, written in
// the worker by server/api/search-wire.ts (the route only wraps them with the paging fields),
// and the counts the main thread needs without parsing them.

import { searchSegments } from '../../engine/index.ts';
import type { SearchBudget, SearchRequest, SearchResult } from '../../engine/index.ts';
import type { OpenedSnapshot } from './reader-cache.ts';
import { searchResultMembers } from '../api/search-wire.ts';

/** Something said about a search beside its hits (a field it does not know, a semantic fallback): the response's `warnings`. */
export interface SearchNotice {
  code: string;
  message: string;
}

export interface SearchPage {
  /** `"hits":[…],"facets":{…}[,"facet_stats":{…}],"total":N,"total_relation":…,"timed_out":…[,"suggestions":[…]][,"semantic_coverage":x]` — a JSON object's members. */
  members: string;
  total: number;
  hitCount: number;
  /** The search ran out of time (its hits are partial): never cached. */
  timedOut: boolean;
  /** Semantic and hybrid searches: the share of documents embedded (also in `members`). */
  semanticCoverage?: number;
  /** Said by the main thread about this search (semantic coverage, a fallback), for the response's `warnings`. */
  warnings?: SearchNotice[];
}

export function toSearchPage(result: SearchResult): SearchPage {
  const page: SearchPage = { members: searchResultMembers(result), total: result.total, hitCount: result.hits.length, timedOut: result.timedOut };
  if (result.semanticCoverage !== undefined) page.semanticCoverage = result.semanticCoverage;
  return page;
}

/** The page of `request` searched over an opened snapshot (a search thread's work, or an inline search's). */
export function searchPageOver({ analyzer, views }: OpenedSnapshot, request: SearchRequest, budget: SearchBudget): SearchPage {
  return toSearchPage(searchSegments(views, analyzer, request, budget));
}

