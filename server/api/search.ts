// TypeBox schemas of search (docs/api.md, "Search"): the GET query string, the POST body with the same
// names, a hit and the response, matching engine/search/search-types.ts. The grammar of
// `filter` and `sort` is checked by the engine's parsers (400 invalid_filter / invalid_sort);
// facet names by server/http/routes/search/search-request.ts.

import { Type } from 'typebox';
import type { Static } from 'typebox';
import { MAX_FIELD_BOOSTS, MAX_SORT_KEYS, TOTAL_EXACT_UP_TO } from '../../engine/index.ts';
import { BoostListSchema } from '../settings/index.ts';
import { MetadataSchema } from './document.ts';
import { EMBEDDER_NAME_PATTERN, MAX_VECTOR_DIMENSIONS } from '../settings/index.ts';
import {
  DEFAULT_FACET_LIMIT,
  DEFAULT_HIGHLIGHT_TAG,
  DEFAULT_SEARCH_LIMIT,
  MAX_FACET_FIELDS,
  MAX_FACET_LIMIT,
  MAX_GROUP_SIZE,
  MAX_QUERY_LENGTH,
  MAX_SEARCH_LIMIT,
  MAX_SEARCH_WINDOW,
} from './limits.ts';

/** Inline elements that only style text: the highlight tags allowed besides custom elements. */
export const HIGHLIGHT_TAGS = ['mark', 'em', 'strong', 'b', 'i', 'u', 's', 'span', 'ins', 'del', 'code', 'kbd', 'samp', 'var', 'small', 'sub', 'sup', 'q', 'cite', 'dfn', 'abbr', 'bdi'] as const;
/**
 * One of HIGHLIGHT_TAGS, or a custom element name (lowercase, with a hyphen: `my-hit`), at most
 * 16 characters: never an element that runs or loads anything (`script`, `style`, `iframe`,
 * `svg`, `img`…), so a highlight is safe to insert into a page as HTML.
 */
export const HIGHLIGHT_TAG_PATTERN = `^(${HIGHLIGHT_TAGS.join('|')}|[a-z][a-z0-9]*-[a-z0-9-]*)$`;

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
      maxLength: 16,
      default: DEFAULT_HIGHLIGHT_TAG,
      description: `Element wrapped round matched terms in \`highlight\`: ${HIGHLIGHT_TAGS.join(', ')}, or a custom element name with a hyphen (\`my-hit\`); at most 16 characters.`,
    }),
  ),
  explain: Type.Optional(Type.Boolean({ default: false, description: 'Attach a score explanation to each hit.' })),
  prefix: Type.Optional(
    Type.Union([Type.Literal('none'), Type.Literal('last')], {
      default: 'none',
      description:
        'Search as you type: `last` makes the last word of `q` a prefix (`hello wor` finds "world") unless `q` ends in a '
        + 'space or the word is quoted or excluded; `none` (default): only words ending in `*` are prefixes.',
    }),
  ),
  synonyms: Type.Optional(
    Type.Boolean({
      default: true,
      description: "Whether the collection's `synonyms` apply: `false` searches the words as typed only.",
    }),
  ),
  distinct: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 128,
      description:
        'Grouping: a metadata field; the best `group_size` hits of each of its values are kept (a document without the field is '
        + 'a group of its own). `offset` and `limit` then count groups, `total` the groups among the matches; facets still count documents.',
    }),
  ),
  group_size: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_GROUP_SIZE,
      default: 1,
      description: `With \`distinct\`: hits kept per group, 1–${MAX_GROUP_SIZE}; \`(offset + limit) × group_size\` may not exceed ${MAX_SEARCH_WINDOW}.`,
    }),
  ),
  track_total: Type.Optional(
    Type.Boolean({
      default: false,
      description:
        `Count every match. By default \`total\` is exact up to ${TOTAL_EXACT_UP_TO.toLocaleString('en')} matches; past that, a search ranked by `
        + `relevance stops counting, skips documents that cannot reach the top hits, and answers \`total\` ${TOTAL_EXACT_UP_TO} with `
        + '`total_relation` `gte`. Searches with facets or a sort always count exactly.',
    }),
  ),
  mode: Type.Optional(
    Type.Union([Type.Literal('keyword'), Type.Literal('semantic'), Type.Literal('hybrid')], {
      default: 'keyword',
      description:
        '`keyword` (default): documents with the query\'s words, ranked by BM25. `semantic`: documents nearest in meaning to '
        + '`q` (embedded by the collection\'s embedder) or to `vector`. `hybrid`: both rankings fused (see `semantic_ratio`). '
        + 'Needs an embedder on the collection; a semantic or hybrid search answers `semantic_coverage`.',
    }),
  ),
  semantic_ratio: Type.Optional(
    Type.Number({
      minimum: 0,
      maximum: 1,
      description: "Hybrid: weight of meaning against keywords, 0–1 (default: the embedder's `default_semantic_ratio`).",
    }),
  ),
  embedder: Type.Optional(Type.String({ pattern: EMBEDDER_NAME_PATTERN, description: 'Which embedder, when the collection has several.' })),
  similar_to: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 256,
      description: 'More like this: the documents nearest in meaning to this document (its own vector, or its first passage embedded), '
        + 'itself left out; a search by meaning (`mode` `semantic` unless `hybrid` is asked). An unknown id: 404 `document_not_found`.',
    }),
  ),
  fusion: Type.Optional(
    Type.Union([Type.Literal('convex'), Type.Literal('rrf')], {
      default: 'convex',
      description: "Hybrid: `convex` (default) combines each side's scores divided by its best; `rrf` uses reciprocal rank fusion.",
    }),
  ),
  facet_limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_FACET_LIMIT,
      default: DEFAULT_FACET_LIMIT,
      description: 'Values returned per facet field (the most frequent).',
    }),
  ),
};

export const FILTER_DESCRIPTION =
  'Filter object: `{"field": value}` equality, `{"field": [a, b]}` any of, `{"field": {"gte": 1, "lt": 9}}` range, '
  + '`{"$or": [f1, f2]}`, `{"$not": f}`; the keys of one object AND together. Bad filters: 400 `invalid_filter`.';
const FACETS_DESCRIPTION =
  `Metadata fields to count values of among all matches, at most ${MAX_FACET_FIELDS}. A bad name: 400 \`validation_failed\`.`;
const SORT_DESCRIPTION =
  `Up to ${MAX_SORT_KEYS} keys \`name[:asc|desc]\`, comma-separated: a metadata field, `
  + '`title` (the document title), `_id` or `_score`. Default `_score:desc`; ties by score, then id. Bad sorts: 400 `invalid_sort`.';

/** GET: `a,b`, or the parameter repeated; POST: the same, or a JSON array. */
export const nameListSchema = (description: string) => Type.Union([Type.String(), Type.Array(Type.String())], { description });

/** The members of a hit `fields` may name (`id` and `score` are always returned). */
export const HIT_FIELD_NAMES = ['id', 'score', 'title', 'format', 'page', 'page_label', 'snippet', 'highlight', 'metadata', 'matched_pages'] as const;

const FIELDS_DESCRIPTION =
  `Members each hit carries: any of ${HIT_FIELD_NAMES.map((name) => `\`${name}\``).join(', ')}. \`id\` and \`score\` are always `
  + 'returned (`fields=id` gives ids and scores only, the cheapest search); absent: every member. Snippets and highlights '
  + 'cost the most. `explain` is asked for apart. An unknown name: 400 `validation_failed`.';

const SEARCH_FIELDS_DESCRIPTION =
  'The fields to search and their weights, `name` or `name^weight` (weight more than 0, at most 100; default 1): `title`, '
  + "`text`, or a `metadata.<name>` of the collection's `searchable_fields`. Fields left out are not searched (`title:word` and "
  + "`author:word` still search theirs). Absent: the collection's `searchable_fields`.";

const BOOST_DESCRIPTION =
  `Ranking by fields, at most ${MAX_FIELD_BOOSTS}: \`[{"field": "metadata.popularity", "modifier": "log1p", "factor": 1}, `
  + '{"field": "metadata.date", "recency": {"scale": "30d", "offset": "1d", "decay": 0.5}}]` multiply relevance scores '
  + "(several multiply); replaces the collection's `ranking.boost`, and `[]` turns it off. A sort by fields ignores boosts.";

const TYPOS_DESCRIPTION =
  'Typos per query word (Damerau–Levenshtein; a typo on the first letter counts as two): `auto` (default) follows the '
  + "collection's `typo_tolerance` (by default 0 typos for words under 5 letters, 1 from 5, 2 from 9); `0` turns typos off; "
  + '`1` or `2` allow at most that many per word, even if the collection disables typos (its word sizes, numbers and '
  + 'fields still apply). Never on phrases, prefixes, excluded words or numbers. Exact words rank above typo matches.';

export const SearchQuerySchema = Type.Object(
  {
    ...searchFields,
    typos: Type.Optional(
      Type.Union([Type.Literal('auto'), Type.Literal('0'), Type.Literal('1'), Type.Literal('2')], {
        default: 'auto',
        description: TYPOS_DESCRIPTION,
      }),
    ),
    filter: Type.Optional(Type.String({ description: `${FILTER_DESCRIPTION} URL-encoded JSON; empty means none.` })),
    boost: Type.Optional(Type.String({ maxLength: 4_096, description: `${BOOST_DESCRIPTION} URL-encoded JSON array.` })),
    search_fields: Type.Optional(nameListSchema(`${SEARCH_FIELDS_DESCRIPTION} \`search_fields=title^2,text\` or repeated.`)),
    facets: Type.Optional(nameListSchema(`${FACETS_DESCRIPTION} \`facets=a,b\` or repeated.`)),
    sort: Type.Optional(nameListSchema(`${SORT_DESCRIPTION} E.g. \`sort=year:desc,title:asc\`, or repeated.`)),
    fields: Type.Optional(nameListSchema(`${FIELDS_DESCRIPTION} \`fields=id,title\` or repeated.`)),
  },
  { additionalProperties: false },
);

export const SearchBodySchema = Type.Object(
  {
    ...searchFields,
    typos: Type.Optional(
      Type.Union([Type.Literal('auto'), Type.Literal(0), Type.Literal(1), Type.Literal(2)], {
        default: 'auto',
        description: TYPOS_DESCRIPTION,
      }),
    ),
    filter: Type.Optional(
      Type.Unsafe<Record<string, unknown> | null>({
        type: ['object', 'null'],
        description: `${FILTER_DESCRIPTION} \`null\` or \`{}\` means none.`,
      }),
    ),
    facets: Type.Optional(nameListSchema(`${FACETS_DESCRIPTION} \`["a","b"]\` or \`"a,b"\`.`)),
    sort: Type.Optional(nameListSchema(`${SORT_DESCRIPTION} E.g. \`"year:desc,title:asc"\` or \`["year:desc"]\`.`)),
    fields: Type.Optional(nameListSchema(`${FIELDS_DESCRIPTION} \`["id","title"]\` or \`"id,title"\`.`)),
    boost: Type.Optional({ ...BoostListSchema, description: BOOST_DESCRIPTION }),
    search_fields: Type.Optional(nameListSchema(`${SEARCH_FIELDS_DESCRIPTION} \`["title^2", "text"]\` or \`"title^2,text"\`.`)),
    vector: Type.Optional(
      Type.Array(Type.Number(), {
        minItems: 1,
        maxItems: MAX_VECTOR_DIMENSIONS,
        description: "Semantic or hybrid: the query's vector, of the embedder's dimensions (then `q` is not embedded). A wrong length: 400 `invalid_vector`.",
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
    title: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    score: Type.Number(),
    format: Type.Optional(Type.String()),
    page: Type.Optional(Type.Union([Type.Integer(), Type.Null()], { description: 'Page with the best match; null without pages.' })),
    page_label: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    snippet: Type.Optional(Type.String({ description: 'Plain-text excerpt around the best match.' })),
    highlight: Type.Optional(Type.String({ description: 'The excerpt HTML-escaped, matched terms wrapped in the highlight tag.' })),
    metadata: Type.Optional(MetadataSchema),
    matched_pages: Type.Optional(Type.Array(Type.Integer())),
    metadata_highlights: Type.Optional(
      Type.Record(Type.String(), Type.Union([Type.String(), Type.Array(Type.String())]), {
        description:
          'With `highlight`: each searchable metadata field the query matched in, by name, its value HTML-escaped with the matched words wrapped in the highlight tag (an array: each string). Absent when the query matched in none.',
      }),
    ),
    explain: Type.Optional(ScoreExplanationSchema),
  },
  {
    additionalProperties: false,
    title: 'SearchHit',
    description: 'Every member is present unless the search named `fields`; then only `id`, `score` and the named ones (and `explain` when asked).',
  },
);

export const SuggestionSchema = Type.Object(
  { text: Type.String({ description: 'Query text to search instead.' }) },
  { additionalProperties: false, title: 'Suggestion' },
);

export const SearchWarningSchema = Type.Object(
  { code: Type.String(), message: Type.String() },
  { additionalProperties: false, title: 'SearchWarning' },
);
export type SearchWarning = Static<typeof SearchWarningSchema>;

export const SearchResponseSchema = Type.Object(
  {
    hits: Type.Array(SearchHitSchema),
    facets: Type.Unsafe<Record<string, Record<string, number>>>({
      type: 'object',
      additionalProperties: { type: 'object', additionalProperties: { type: 'integer' } },
      description:
        'Per requested field, value → count among all matches (not only this page), most frequent first, '
        + 'at most `facet_limit` values. Integer-like keys such as "2020" come first in any JSON object '
        + 'JavaScript builds or parses: sort by count if the order matters.',
    }),
    facet_stats: Type.Optional(
      Type.Unsafe<Record<string, { min: number; max: number }>>({
        type: 'object',
        additionalProperties: {
          type: 'object',
          properties: { min: { type: 'number' }, max: { type: 'number' } },
          required: ['min', 'max'],
          additionalProperties: false,
        },
        description: 'Per requested facet field with numeric values among the matches: their min and max. '
          + 'Absent when no requested field has numbers.',
      }),
    ),
    total: Type.Integer({ minimum: 0, description: 'Matching documents: exact when `total_relation` is `eq`, at least this many when `gte`.' }),
    total_relation: Type.Union([Type.Literal('eq'), Type.Literal('gte')], {
      description: `\`eq\`: \`total\` is exact; \`gte\`: more than ${TOTAL_EXACT_UP_TO.toLocaleString('en')} match and counting stopped there (ask \`track_total\` for the exact number), or the search ran out of time (\`timed_out\`).`,
    }),
    timed_out: Type.Boolean({
      description: 'The search ran out of its time budget (the server\'s `--search-timeout`, default 2 s): the hits are the best found '
        + 'before then and `total` a lower bound, as Elasticsearch\'s `timed_out`. When nothing was found in time the answer is '
        + '503 `search_timeout` instead.',
    }),
    suggestions: Type.Optional(
      Type.Array(SuggestionSchema, {
        maxItems: 3,
        description: 'Only when nothing matched (`total` 0) and the query has words: up to 3 alternative queries, '
          + 'each the query with its unknown words replaced by close words the collection contains ("did you mean"). '
          + 'Empty when no word could be corrected.',
      }),
    ),
    semantic_coverage: Type.Optional(
      Type.Number({ minimum: 0, maximum: 1, description: 'Semantic and hybrid searches: the share of live documents whose embeddings are searchable yet.' }),
    ),
    warnings: Type.Optional(
      Type.Array(SearchWarningSchema, {
        description: '`semantic_incomplete`: some documents are not embedded yet; `semantic_fallback`: the query could not be embedded in time, keyword results are returned; '
          + '`unknown_field`: a filter, facet or sort names a metadata field no document of the collection has.',
      }),
    ),
    offset: Type.Integer({ minimum: 0 }),
    limit: Type.Integer({ minimum: 1 }),
    has_more: Type.Boolean(),
    took_ms: Type.Number({ minimum: 0 }),
  },
  { additionalProperties: false, title: 'SearchResponse' },
);
