// A search answer as it crosses back from a search worker: the JSON text of its hits, facets,
// facet stats and total, made in the worker, so the main thread neither structured-clones the
// hits nor serializes them; it only wraps the text with the paging fields. `parseSearchPage`
// turns it back into a SearchResult for callers that want objects (tests, internal use).

import type { SearchResult } from '../../engine/index.ts';

export interface SearchPage {
  /** `"hits":[…],"facets":{…}[,"facet_stats":{…}],"total":N` — a JSON object's members. */
  members: string;
  total: number;
  hitCount: number;
}

export function toSearchPage(result: SearchResult): SearchPage {
  const stats = Object.keys(result.facetStats).length > 0 ? `,"facet_stats":${JSON.stringify(result.facetStats)}` : '';
  return {
    members: `"hits":${JSON.stringify(result.hits)},"facets":${JSON.stringify(result.facets)}${stats},"total":${result.total}`,
    total: result.total,
    hitCount: result.hits.length,
  };
}

export function parseSearchPage(page: SearchPage): SearchResult {
  const parsed = JSON.parse(`{${page.members}}`) as Omit<SearchResult, 'facetStats'> & { facet_stats?: SearchResult['facetStats'] };
  return { hits: parsed.hits, total: parsed.total, facets: parsed.facets, facetStats: parsed.facet_stats ?? {} };
}
