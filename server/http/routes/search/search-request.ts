// Turns the search parameters of either encoding (GET query string or POST body) into the
// engine's SearchRequest (docs/api.md, "Search", "Damaged files and `folio check`"): applies defaults, checks the paging window, parses
// `filter` (URL-encoded JSON on GET, an object on POST) and `sort` with the engine's parsers
// (which throw invalid_filter / invalid_sort), checks the `facets` field names, and reads
// `typos` (text on GET, a number in a body), `track_total`, `synonyms`, `boost` (URL-encoded JSON
// on GET, an array in a body) and the hit `fields`. The
// collection adds its typo tolerance settings and the synonym rules the query can use.

import type { Static } from 'typebox';
import { Compile } from 'typebox/compile';
import { FIELD_NAME_RULE, isAllowedFieldName, parseSort } from '../../../../engine/index.ts';
import { listOf, toFilter } from '../../validation/list-params.ts';
import type { FieldBoost, SearchRequest, TypoMode } from '../../../../engine/index.ts';
import { FolioError } from '../../../errors/index.ts';
import type { FieldError } from '../../../errors/index.ts';
import { parseBoosts, parseSearchFields } from '../../../indexing/index.ts';
import type { SemanticParams } from '../../../indexing/index.ts';
import { engineHitFields } from '../../../api/index.ts';
import {
  DEFAULT_FACET_LIMIT,
  HIT_FIELD_NAMES,
  DEFAULT_HIGHLIGHT_TAG,
  DEFAULT_SEARCH_LIMIT,
  MAX_FACET_FIELDS,
  MAX_SEARCH_WINDOW,
} from '../../../api/index.ts';
import type { SearchBodySchema, SearchQuerySchema } from '../../../api/index.ts';
import { BoostListSchema } from '../../../settings/index.ts';
import type { FieldBoostWire } from '../../../settings/index.ts';

export type SearchParams = Static<typeof SearchQuerySchema> | Static<typeof SearchBodySchema>;
/** Where the parameters came from, for errors' paths: `querystring`, `body`, or `body/queries/<i>` (multi-search). */
export type RequestPart = string;

/** The facet fields, each once, in the order asked; names follow the metadata field-name rule. */
function toFacets(value: string | string[] | undefined, part: RequestPart): string[] {
  const names = [...new Set(listOf(value))];
  const errors: FieldError[] = names
    .filter((name) => !isAllowedFieldName(name))
    .map((name) => ({ path: `/${part}/facets`, message: `${JSON.stringify(name)} is not an allowed field name (${FIELD_NAME_RULE})` }));
  if (errors.length > 0) throw new FolioError('validation_failed', 'facets: not an allowed field name', errors);
  if (names.length > MAX_FACET_FIELDS) {
    throw new FolioError('validation_failed', `facets: at most ${MAX_FACET_FIELDS} fields`, [
      { path: `/${part}/facets`, message: `lists ${names.length} fields; at most ${MAX_FACET_FIELDS} are allowed` },
    ]);
  }
  return names;
}

type HitFieldName = (typeof HIT_FIELD_NAMES)[number];

/** The hit members `fields` names, each once (absent: every member); an unknown name is a 400. */
function toHitFields(value: string | string[] | undefined, part: RequestPart): HitFieldName[] | undefined {
  if (value === undefined) return undefined;
  const names = [...new Set(listOf(value))];
  const known = new Set<string>(HIT_FIELD_NAMES);
  const errors: FieldError[] = names
    .filter((name) => !known.has(name))
    .map((name) => ({ path: `/${part}/fields`, message: `${JSON.stringify(name)} is not a hit member (one of ${HIT_FIELD_NAMES.join(', ')})` }));
  if (errors.length > 0) throw new FolioError('validation_failed', 'fields: not a hit member', errors);
  return names as HitFieldName[];
}

/** What the parameters ask of search by meaning (the collection checks them against its embedders). */
export function toSemanticParams(params: SearchParams): SemanticParams {
  const semantic: SemanticParams = { mode: params.mode ?? 'keyword' };
  if (params.embedder !== undefined) semantic.embedder = params.embedder;
  if (params.semantic_ratio !== undefined) semantic.ratio = params.semantic_ratio;
  if (params.fusion !== undefined) semantic.fusion = params.fusion;
  if ('vector' in params && params.vector !== undefined) semantic.vector = params.vector;
  if (params.similar_to !== undefined) {
    semantic.similarTo = params.similar_to;
    if (semantic.mode === 'keyword') semantic.mode = 'semantic';
  }
  return semantic;
}

/** Validates and completes the parameters; `part` names where they came from, for errors. */
export function toSearchRequest(params: SearchParams, part: RequestPart): SearchRequest {
  const offset = params.offset ?? 0;
  const limit = params.limit ?? DEFAULT_SEARCH_LIMIT;
  if (offset + limit > MAX_SEARCH_WINDOW) {
    throw new FolioError('validation_failed', `offset + limit may not exceed ${MAX_SEARCH_WINDOW}`, [
      { path: `/${part}/offset`, message: `offset + limit must be at most ${MAX_SEARCH_WINDOW}` },
    ]);
  }
  const request: SearchRequest = {
    q: params.q ?? '',
    match: params.match ?? 'any',
    offset,
    limit,
    highlightTag: params.highlight_tag ?? DEFAULT_HIGHLIGHT_TAG,
    explain: params.explain ?? false,
    filter: toFilter(params.filter),
    facets: toFacets(params.facets, part),
    facetLimit: params.facet_limit ?? DEFAULT_FACET_LIMIT,
    sort: parseSort(params.sort),
    typos: toTypoMode(params.typos),
    prefix: params.prefix ?? 'none',
    trackTotal: params.track_total ?? false,
  };
  const fields = toHitFields(params.fields, part);
  if (fields !== undefined) request.hitFields = engineHitFields(fields);
  // No rules: the words as typed only (otherwise the collection adds the rules the words can use).
  if (params.synonyms === false) request.synonyms = [];
  if (params.boost !== undefined) request.boost = toBoosts(params.boost, part);
  if (params.search_fields !== undefined) request.fieldWeights = parseSearchFields(listOf(params.search_fields), `/${part}/search_fields`);
  if (params.distinct !== undefined) Object.assign(request, toGrouping(params.distinct, params.group_size ?? 1, offset + limit, part));
  else if (params.group_size !== undefined) {
    throw new FolioError('validation_failed', 'group_size needs distinct', [{ path: `/${part}/group_size`, message: 'applies only with `distinct` (the field to group by)' }]);
  }
  return request;
}

/** `distinct` and `group_size`: an allowed field name, and a window of at most MAX_SEARCH_WINDOW hits. */
function toGrouping(field: string, groupSize: number, groups: number, part: RequestPart): Pick<SearchRequest, 'distinct' | 'groupSize'> {
  const name = field.startsWith('metadata.') ? field.slice('metadata.'.length) : field;
  if (!isAllowedFieldName(name)) {
    throw new FolioError('validation_failed', 'distinct: not an allowed field name', [{ path: `/${part}/distinct`, message: `${JSON.stringify(name)} is not an allowed field name (${FIELD_NAME_RULE})` }]);
  }
  if (groups * groupSize > MAX_SEARCH_WINDOW) {
    const message = `(offset + limit) × group_size must be at most ${MAX_SEARCH_WINDOW}; it is ${groups * groupSize}`;
    throw new FolioError('validation_failed', message, [{ path: `/${part}/group_size`, message }]);
  }
  return { distinct: name, groupSize };
}

const boostList = Compile(BoostListSchema);

/** `boost`: URL-encoded JSON on GET, an array in a body (schema-checked there), as the engine's boosts. */
function toBoosts(value: string | readonly FieldBoostWire[], part: RequestPart): FieldBoost[] {
  const path = `/${part}/boost`;
  let wire: unknown = value;
  if (typeof value === 'string') {
    try {
      wire = JSON.parse(value);
    } catch (error) {
      throw new FolioError('validation_failed', `boost is not valid JSON (${(error as Error).message})`, [{ path, message: 'must be a JSON array of boosts' }]);
    }
    if (!boostList.Check(wire)) {
      const first = [...boostList.Errors(wire)][0];
      const at = `${path}${first?.instancePath ?? ''}`;
      const message = first?.message ?? 'must be an array of boosts';
      throw new FolioError('validation_failed', `${at}: ${message}`, [{ path: at, message }]);
    }
  }
  return parseBoosts(wire as FieldBoostWire[], path);
}

/** `auto`, or 0–2 as a number (the query string sends text, a body numbers). */
function toTypoMode(typos: string | number | undefined): TypoMode {
  if (typos === undefined || typos === 'auto') return 'auto';
  return Number(typos) as TypoMode;
}
