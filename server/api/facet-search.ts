// TypeBox schemas of facet value search (docs/api.md "Facet value search"): the values
// of one facet field with a word starting with what the user typed, typo-tolerant, each with its
// count among the documents a search matches (its `query` and `filter`, and a key's filter).

import { Type } from 'typebox';
import { DEFAULT_FACET_VALUES, MAX_FACET_VALUES } from '../../engine/index.ts';
import { MAX_QUERY_LENGTH } from './limits.ts';
import { SearchBodySchema } from './search.ts';

/** Characters of what was typed (a facet value search is search as you type). */
export const MAX_FACET_QUERY_LENGTH = 256;

export const FacetSearchBodySchema = Type.Object(
  {
    facet: Type.String({ minLength: 1, description: 'The metadata field whose values to search (as in `facets`).' }),
    q: Type.Optional(
      Type.String({
        maxLength: MAX_FACET_QUERY_LENGTH,
        default: '',
        description: 'What the user typed: each word must start a word of the value ("kn" finds "Donald Knuth"), case and accents '
          + "folded, with typos by the collection's word sizes (and `typos`). Empty: every value.",
      }),
    ),
    query: Type.Optional(Type.String({ maxLength: MAX_QUERY_LENGTH, default: '', description: 'Search text: values are counted among the documents it matches (empty: all).' })),
    filter: SearchBodySchema.properties.filter,
    match: SearchBodySchema.properties.match,
    typos: SearchBodySchema.properties.typos,
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_FACET_VALUES, default: DEFAULT_FACET_VALUES, description: 'Values to return.' })),
  },
  { additionalProperties: false },
);

export const FacetSearchResponseSchema = Type.Object(
  {
    values: Type.Array(
      Type.Object(
        {
          value: Type.Union([Type.String(), Type.Number(), Type.Boolean()]),
          count: Type.Integer({ minimum: 1, description: 'Documents with this value among the matches.' }),
        },
        { additionalProperties: false },
      ),
      { description: 'Values without typos first, then the most frequent, then by value.' },
    ),
    timed_out: Type.Boolean({ description: 'The search ran out of its time budget: counts are of the matches found by then.' }),
    took_ms: Type.Number({ minimum: 0 }),
  },
  { additionalProperties: false, title: 'FacetSearchResponse' },
);
