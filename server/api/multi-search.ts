// TypeBox schemas of search across collections (docs/api.md "Search across
// collections"): `POST /v1/multi-search` takes queries, each a collection and the parameters of
// a single search's body; without `federation` it answers each query's search response in order,
// with it one list of hits merged by score (scores made comparable by the statistics of every
// collection searched, as one collection holding them all would score them).

import { Type } from 'typebox';
import { CollectionNameSchema } from './collection.ts';
import { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT } from './limits.ts';
import { SearchBodySchema, SearchHitSchema, SearchResponseSchema, SearchWarningSchema } from './search.ts';

/** Queries one multi-search may hold (Typesense's `limit_multi_searches` is 50 by default). */
export const MAX_MULTI_SEARCH_QUERIES = 100;

export const MultiSearchQuerySchema = Type.Object(
  {
    collection: { ...CollectionNameSchema, description: 'The collection this query searches (the key must be allowed to read it).' },
    ...SearchBodySchema.properties,
  },
  { additionalProperties: false, title: 'MultiSearchQuery' },
);

export const FederationSchema = Type.Object(
  {
    offset: Type.Optional(Type.Integer({ minimum: 0, default: 0, description: 'Merged hits to skip.' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_SEARCH_LIMIT, default: DEFAULT_SEARCH_LIMIT, description: 'Merged hits to return.' })),
  },
  { additionalProperties: false, title: 'Federation' },
);

export const MultiSearchBodySchema = Type.Object(
  {
    queries: Type.Array(MultiSearchQuerySchema, {
      minItems: 1,
      maxItems: MAX_MULTI_SEARCH_QUERIES,
      description: 'Searches, each of one collection with the parameters of a single search (`POST …/search`). The same collection may appear more than once.',
    }),
    federation: Type.Optional(
      Type.Union([FederationSchema, Type.Null()], {
        description: 'Absent or null: one response per query, in order. An object: one list of hits from every query, merged by score. '
          + 'Queries then leave out `offset`, `limit` and `sort` (the federation pages; hits rank by score).',
      }),
    ),
  },
  { additionalProperties: false },
);

const QueryResultSchema = Type.Object(
  { collection: Type.String(), ...SearchResponseSchema.properties },
  { additionalProperties: false, title: 'MultiSearchResult' },
);

const FederatedHitSchema = Type.Object(
  {
    collection: Type.String({ description: 'The collection the hit comes from.' }),
    query: Type.Integer({ minimum: 0, description: 'The index of the query that found it (the best-scoring one when several did).' }),
    ...SearchHitSchema.properties,
  },
  { additionalProperties: false, title: 'FederatedHit' },
);

const CollectionFacetsSchema = Type.Object(
  { facets: SearchResponseSchema.properties.facets, facet_stats: SearchResponseSchema.properties.facet_stats },
  { additionalProperties: false },
);

export const MultiSearchResponseSchema = Type.Union([
  Type.Object({ results: Type.Array(QueryResultSchema) }, { additionalProperties: false, title: 'MultiSearchResults' }),
  Type.Object(
    {
      hits: Type.Array(FederatedHitSchema),
      facets_by_collection: Type.Optional(
        Type.Record(Type.String(), CollectionFacetsSchema, { description: 'Per collection whose query asks for `facets`: its counts over that query\'s matches.' }),
      ),
      total: Type.Integer({ minimum: 0, description: 'The queries\' totals added up (a document found by two queries of one collection counts twice).' }),
      total_relation: Type.Union([Type.Literal('eq'), Type.Literal('gte')], { description: '`gte` when any query\'s total is a lower bound.' }),
      timed_out: Type.Boolean({ description: 'Some query ran out of its time budget: its hits are partial.' }),
      warnings: Type.Optional(Type.Array(SearchWarningSchema, { description: 'The queries\' warnings, each message naming its query.' })),
      offset: Type.Integer({ minimum: 0 }),
      limit: Type.Integer({ minimum: 1 }),
      has_more: Type.Boolean(),
      took_ms: Type.Number({ minimum: 0 }),
    },
    { additionalProperties: false, title: 'FederatedSearchResponse' },
  ),
]);
