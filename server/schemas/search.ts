// TypeBox schemas of search (SPEC §6): the GET query string, the POST body with the same
// names, a hit and the response, matching engine/search/search-types.ts.
// `filter`, `facets`, `facet_limit` and `sort` are part of the shape already; the server
// refuses non-empty ones until filtering lands.

import { Type } from 'typebox';
import { MetadataSchema } from './document.ts';
import {
  DEFAULT_FACET_LIMIT,
  DEFAULT_HIGHLIGHT_TAG,
  DEFAULT_SEARCH_LIMIT,
  MAX_FACET_LIMIT,
  MAX_QUERY_LENGTH,
  MAX_SEARCH_LIMIT,
  MAX_SEARCH_WINDOW,
} from './limits.ts';

/** A lowercase element name of at most 16 characters, so it is safe to write into HTML. */
export const HIGHLIGHT_TAG_PATTERN = '^[a-z][a-z0-9-]{0,15}$';

const searchFields = {
  q: Type.Optional(
    Type.String({
      maxLength: MAX_QUERY_LENGTH,
      default: '',
      description: 'Search text; empty matches every document. Supports `"phrases"`, `-exclusion`, `+required`, `prefix*`, `title:word`.',
    }),
  ),
  offset: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: MAX_SEARCH_WINDOW - 1,
      default: 0,
      description: `Hits to skip; \`offset + limit\` may not exceed ${MAX_SEARCH_WINDOW}.`,
    }),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_SEARCH_LIMIT, default: DEFAULT_SEARCH_LIMIT })),
  match: Type.Optional(
    Type.Union([Type.Literal('any'), Type.Literal('all')], {
      default: 'any',
      description: 'Whether any (default) or every term must match.',
    }),
  ),
  highlight_tag: Type.Optional(
    Type.String({
      pattern: HIGHLIGHT_TAG_PATTERN,
      default: DEFAULT_HIGHLIGHT_TAG,
      description: 'Element wrapped round matched terms in `highlight`.',
    }),
  ),
  explain: Type.Optional(Type.Boolean({ default: false, description: 'Attach a score explanation to each hit.' })),
  facet_limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_FACET_LIMIT, default: DEFAULT_FACET_LIMIT, description: 'Values per facet field.' }),
  ),
};

export const SearchQuerySchema = Type.Object(
  {
    ...searchFields,
    filter: Type.Optional(Type.String({ description: 'Filter object as URL-encoded JSON (not supported yet).' })),
    facets: Type.Optional(
      Type.Union([Type.String(), Type.Array(Type.String())], {
        description: 'Metadata fields to count: `facets=a,b` or repeated (not supported yet).',
      }),
    ),
    sort: Type.Optional(Type.String({ description: 'e.g. `year:desc,title:asc`; default `_score:desc` (only that for now).' })),
  },
  { additionalProperties: false },
);

export const SearchBodySchema = Type.Object(
  {
    ...searchFields,
    filter: Type.Optional(
      Type.Unsafe<Record<string, unknown>>({ type: 'object', description: 'Filter object (not supported yet).' }),
    ),
    facets: Type.Optional(
      Type.Union([Type.String(), Type.Array(Type.String())], {
        description: 'Metadata fields to count: `["a","b"]` or `"a,b"` (not supported yet).',
      }),
    ),
    sort: Type.Optional(
      Type.Union([Type.String(), Type.Array(Type.String())], {
        description: 'e.g. `"year:desc,title:asc"` or `["year:desc"]`; default `_score:desc` (only that for now).',
      }),
    ),
  },
  { additionalProperties: false },
);

export const ScoreExplanationSchema = Type.Object(
  {
    value: Type.Number(),
    description: Type.String(),
    details: Type.Array(Type.Unknown(), { description: 'Nested explanations of the same shape.' }),
  },
  { additionalProperties: false, title: 'ScoreExplanation' },
);

export const SearchHitSchema = Type.Object(
  {
    id: Type.String(),
    title: Type.Union([Type.String(), Type.Null()]),
    score: Type.Number(),
    format: Type.String(),
    page: Type.Union([Type.Integer(), Type.Null()], { description: 'Page with the best match; null without pages.' }),
    page_label: Type.Union([Type.String(), Type.Null()]),
    snippet: Type.String({ description: 'Plain-text excerpt around the best match.' }),
    highlight: Type.String({ description: 'The excerpt HTML-escaped, matched terms wrapped in the highlight tag.' }),
    metadata: MetadataSchema,
    matched_pages: Type.Array(Type.Integer()),
    explain: Type.Optional(ScoreExplanationSchema),
  },
  { additionalProperties: false, title: 'SearchHit' },
);

export const SearchResponseSchema = Type.Object(
  {
    hits: Type.Array(SearchHitSchema),
    facets: Type.Unsafe<Record<string, Record<string, number>>>({
      type: 'object',
      additionalProperties: { type: 'object', additionalProperties: { type: 'integer' } },
      description: 'Per requested field, value → count among all matches.',
    }),
    total: Type.Integer({ minimum: 0 }),
    offset: Type.Integer({ minimum: 0 }),
    limit: Type.Integer({ minimum: 1 }),
    has_more: Type.Boolean(),
    took_ms: Type.Number({ minimum: 0 }),
  },
  { additionalProperties: false, title: 'SearchResponse' },
);
