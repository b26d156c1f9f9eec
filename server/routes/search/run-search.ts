// Runs one search for either encoding (GET query string or POST body): applies defaults,
// checks what the schema cannot (the paging window; filters, facets and sorts, which are not
// supported yet), calls the collection and adds the paging fields and timing (SPEC §6).

import type { Static } from 'typebox';
import type { SearchRequest } from '../../../engine/search/search-types.ts';
import { FolioError } from '../../errors.ts';
import type { Collection } from '../../services/collection-types.ts';
import {
  DEFAULT_HIGHLIGHT_TAG,
  DEFAULT_SEARCH_LIMIT,
  MAX_SEARCH_WINDOW,
} from '../../schemas/limits.ts';
import type { SearchBodySchema, SearchQuerySchema, SearchResponseSchema } from '../../schemas/search.ts';

export type SearchParams = Static<typeof SearchQuerySchema> | Static<typeof SearchBodySchema>;
export type SearchResponse = Static<typeof SearchResponseSchema>;

/** The only sort accepted until sorting lands: relevance, best first. */
const RELEVANCE_SORT = new Set(['_score', '_score:desc']);

/** `a,b` or `['a', 'b']` (or repeated query parameters) → the non-empty names. */
function listOf(value: string | string[] | undefined): string[] {
  const parts = value === undefined ? [] : Array.isArray(value) ? value : [value];
  return parts.flatMap((part) => part.split(',')).map((part) => part.trim()).filter((part) => part !== '');
}

function isEmptyFilter(filter: string | Record<string, unknown> | undefined): boolean {
  if (filter === undefined) return true;
  if (typeof filter !== 'string') return Object.keys(filter).length === 0;
  if (filter.trim() === '') return true;
  let parsed: unknown;
  try {
    parsed = JSON.parse(filter);
  } catch {
    throw new FolioError('invalid_filter', 'filter is not valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new FolioError('invalid_filter', 'filter must be a JSON object');
  }
  return Object.keys(parsed).length === 0;
}

function rejectUnsupported(params: SearchParams): void {
  if (!isEmptyFilter(params.filter)) {
    throw new FolioError('invalid_filter', 'filters are not supported by this server yet');
  }
  if (listOf(params.facets).length > 0) {
    throw new FolioError('invalid_filter', 'facets are not supported by this server yet');
  }
  const sort = listOf(params.sort);
  if (sort.some((clause) => !RELEVANCE_SORT.has(clause))) {
    throw new FolioError('invalid_sort', 'only relevance sort (_score:desc) is supported by this server yet');
  }
}

/** Validates and completes the parameters; `part` names where they came from, for errors. */
export function toSearchRequest(params: SearchParams, part: 'querystring' | 'body'): SearchRequest {
  const offset = params.offset ?? 0;
  const limit = params.limit ?? DEFAULT_SEARCH_LIMIT;
  if (offset + limit > MAX_SEARCH_WINDOW) {
    throw new FolioError('validation_failed', `offset + limit may not exceed ${MAX_SEARCH_WINDOW}`, [
      { path: `/${part}/offset`, message: `offset + limit must be at most ${MAX_SEARCH_WINDOW}` },
    ]);
  }
  rejectUnsupported(params);
  return {
    q: params.q ?? '',
    match: params.match ?? 'any',
    offset,
    limit,
    highlightTag: params.highlight_tag ?? DEFAULT_HIGHLIGHT_TAG,
    explain: params.explain ?? false,
  };
}

export async function runSearch(
  collection: Collection,
  params: SearchParams,
  part: 'querystring' | 'body',
): Promise<SearchResponse> {
  const request = toSearchRequest(params, part);
  const started = performance.now();
  const result = await collection.search(request);
  const tookMs = Math.round(performance.now() - started);
  return {
    hits: result.hits,
    facets: {},
    total: result.total,
    offset: request.offset,
    limit: request.limit,
    has_more: request.offset + result.hits.length < result.total,
    took_ms: tookMs,
  };
}
