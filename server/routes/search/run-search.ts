// Runs one search for either encoding (GET query string or POST body): turns the parameters
// into a SearchRequest, calls the collection, and shapes the answer with the paging fields,
// the facets and (only when there are any) the facet stats, plus the timing (SPEC §6).

import type { Static } from 'typebox';
import type { Collection } from '../../services/collection-types.ts';
import type { SearchResponseSchema } from '../../schemas/search.ts';
import { toSearchRequest } from './search-request.ts';
import type { RequestPart, SearchParams } from './search-request.ts';

export type SearchResponse = Static<typeof SearchResponseSchema>;

export async function runSearch(collection: Collection, params: SearchParams, part: RequestPart): Promise<SearchResponse> {
  const request = toSearchRequest(params, part);
  const started = performance.now();
  const result = await collection.search(request);
  const tookMs = Math.round(performance.now() - started);
  return {
    hits: result.hits,
    facets: result.facets,
    ...(Object.keys(result.facetStats).length > 0 && { facet_stats: result.facetStats }),
    total: result.total,
    offset: request.offset,
    limit: request.limit,
    has_more: request.offset + result.hits.length < result.total,
    took_ms: tookMs,
  };
}
