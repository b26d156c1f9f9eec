// Search routes (docs/api.md, "Search"): GET …/search with query parameters and POST …/search with the same
// names as a JSON body. Both answer `{ hits, facets, facet_stats?, total, offset, limit,
// has_more, took_ms }`. POST /v1/multi-search runs several, over any collections, and POST
// …/facet-search searches a facet's values (docs/api.md).

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CollectionParamsSchema } from '../../../api/index.ts';
import { problemResponses } from '../../../api/index.ts';
import { FacetSearchBodySchema, FacetSearchResponseSchema, MultiSearchBodySchema, MultiSearchResponseSchema, SearchBodySchema, SearchQuerySchema, SearchResponseSchema } from '../../../api/index.ts';
import { runFacetSearch } from './facet-search.ts';
import { runMultiSearch } from './multi-search.ts';
import { runSearch } from './run-search.ts';

const SEARCH_PATH = '/v1/collections/:name/search';
const DESCRIPTION = 'Ranked full-text search with BM25 over title and text, narrowed by a metadata `filter`, '
  + 'with value counts of `facets` over all matches, sorted by relevance or by up to 3 `sort` keys.';

const searchRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    SEARCH_PATH,
    {
      schema: {
        summary: 'Search a collection',
        description: DESCRIPTION,
        tags: ['search'],
        params: CollectionParamsSchema,
        querystring: SearchQuerySchema,
        response: { 200: SearchResponseSchema, ...problemResponses(400, 401, 404, 500, 503) },
      },
    },
    async (request, reply) => runSearch(app, request, app.registry.get(request.params.name), request.query, 'querystring', reply),
  );

  app.post(
    SEARCH_PATH,
    {
      schema: {
        summary: 'Search a collection (JSON body)',
        description: DESCRIPTION,
        tags: ['search'],
        params: CollectionParamsSchema,
        body: SearchBodySchema,
        response: { 200: SearchResponseSchema, ...problemResponses(400, 401, 404, 413, 415, 500, 503) },
      },
    },
    async (request, reply) => runSearch(app, request, app.registry.get(request.params.name), request.body, 'body', reply),
  );

  app.post(
    '/v1/multi-search',
    {
      schema: {
        summary: 'Search several collections',
        description: 'Several searches in one request, each of one collection with the parameters of a single search. Without `federation`: '
          + 'each query\'s search response, in order. With it: one list of hits merged by score, the words of keyword and hybrid queries '
          + 'weighed with the statistics of every collection searched, so scores compare across collections. A query naming a collection '
          + 'the key may not read: 403 naming `/body/queries/<i>/collection`, and nothing is searched.',
        tags: ['search'],
        body: MultiSearchBodySchema,
        response: { 200: MultiSearchResponseSchema, ...problemResponses(400, 401, 403, 404, 413, 415, 500, 503) },
      },
    },
    async (request, reply) => runMultiSearch(app, request, request.body, reply),
  );

  app.post(
    '/v1/collections/:name/facet-search',
    {
      schema: {
        summary: "Search a facet's values",
        description: 'The values of one facet field with a word starting with `q` (typo-tolerant, case and accents folded), each with its '
          + 'count among the documents `query` and `filter` match. Values without typos first, then the most frequent.',
        tags: ['search'],
        params: CollectionParamsSchema,
        body: FacetSearchBodySchema,
        response: { 200: FacetSearchResponseSchema, ...problemResponses(400, 401, 403, 404, 413, 415, 500, 503) },
      },
    },
    async (request, reply) => runFacetSearch(app, request, app.registry.get(request.params.name), request.body, reply),
  );
};

export default searchRoutes;
