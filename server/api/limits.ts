// Request limits of the HTTP API (docs/api.md, "Limits"), named once so schemas, handlers, the
// error messages and the tests all agree. Raising one is a contract change.

/** Largest JSON or NDJSON request body, in bytes (32 MiB). */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;

/** Most documents one batch write may carry. */
export const MAX_BATCH_DOCUMENTS = 10_000;

/** Longest search text, in characters. */
export const MAX_QUERY_LENGTH = 1_000;

/** Default and largest page size of a search. */
export const DEFAULT_SEARCH_LIMIT = 10;
export const MAX_SEARCH_LIMIT = 100;

/** `offset + limit` may not exceed this: deep paging is refused. */
export const MAX_SEARCH_WINDOW = 10_000;

/** Most hits a grouped search keeps per group (`group_size`). */
export const MAX_GROUP_SIZE = 100;

/** Default and range of values returned per facet field. */
export const DEFAULT_FACET_LIMIT = 100;
export const MAX_FACET_LIMIT = 1_000;

/** Most metadata fields one search may facet on. */
export const MAX_FACET_FIELDS = 20;

/** Default element wrapped round matched terms in `highlight`. */
export const DEFAULT_HIGHLIGHT_TAG = 'mark';


/** Field errors one problem body lists at most (errors/). */
export { MAX_LISTED_FIELD_ERRORS } from '../errors/index.ts';

/**
 * Raw errors the validator gathers for one invalid request part before stopping (TypeBox's
 * `maxErrors`, default 8, bounds the work an invalid body can cause). Unions report one error
 * per branch, so this is well above MAX_LISTED_FIELD_ERRORS.
 */
export const MAX_RAW_VALIDATION_ERRORS = 200;

/**
 * Longest path parameter the router accepts (Fastify's default is 100, shorter than a
 * 256-character document id). Longer segments are refused before validation.
 */
export const MAX_PATH_PARAMETER_LENGTH = 1_024;
