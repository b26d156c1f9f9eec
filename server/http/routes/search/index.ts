// Search routes (SPEC §6): GET …/search with query parameters and POST …/search with the same
// names as a JSON body. Both answer `{ hits, facets, facet_stats?, total, offset, limit,
// has_more, took_ms }`.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CollectionParamsSchema } from '../../../api/index.ts';
import { problemResponses } from '../../../api/index.ts';
import { SearchBodySchema, SearchQuerySchema, SearchResponseSchema } from '../../../api/index.ts';
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
};

export default searchRoutes;
