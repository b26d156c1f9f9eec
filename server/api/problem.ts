// The RFC 9457 problem body every error carries (docs/api.md, "Errors"), and the helper routes use to
// declare their error responses so the OpenAPI description lists every status a route
// can answer with, served as `application/problem+json`.

import { Type } from 'typebox';
import type { Static } from 'typebox';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export const FieldErrorSchema = Type.Object(
  {
    path: Type.String({ description: 'Where the problem is, e.g. `/body/0/metadata/tags`.' }),
    message: Type.String(),
  },
  { additionalProperties: false },
);

export const ProblemSchema = Type.Object(
  {
    type: Type.String({ description: 'Always `about:blank`: `code` identifies the problem.' }),
    title: Type.String({ description: 'The HTTP status text.' }),
    status: Type.Integer(),
    code: Type.String({ description: 'Stable machine-readable error code (docs/api.md, "Errors").' }),
    detail: Type.String({ description: 'Human-readable explanation of this occurrence.' }),
    errors: Type.Optional(Type.Array(FieldErrorSchema, { description: 'Field-level validation problems.' })),
  },
  { additionalProperties: false, title: 'Problem' },
);

export type Problem = Static<typeof ProblemSchema>;

/** What each error status means on this API, used as the response description. */
const PROBLEM_DESCRIPTIONS = {
  400: 'Invalid request (`validation_failed`, `invalid_query`, `invalid_filter`, `invalid_sort`)',
  401: 'Missing or unknown bearer token (`unauthorized`)',
  403: 'The token lacks the right (`forbidden`)',
  404: 'Not found (`collection_not_found`, `document_not_found`, `key_not_found`, `not_found`)',
  409: 'Conflict (`collection_exists`; `preview_unavailable`: the file has no page pictures, or its page could not be drawn)',
  413: 'Body, batch or file too large (`payload_too_large`, `file_too_large`)',
  415: 'Unsupported content or file type (`unsupported_media_type`, `unsupported_file_type`)',
  422: 'The file could not be read (`extraction_failed`)',
  429: 'Rate limited (`rate_limited`)',
  500: 'Server bug (`internal`)',
  503: 'Not now: the collection is indexing a backlog (nothing was written) or a key has too many searches waiting (`overloaded`, retry after `Retry-After` seconds); '
    + 'a search found nothing within the search timeout (`search_timeout`); a file of the collection is damaged (`collection_unavailable`: '
    + 'other collections serve, `folio check --repair` mends it); in cluster mode, PostgreSQL cannot be reached (`cluster_unavailable`: nothing was written, retry after `Retry-After` seconds)',
} as const;

export type ProblemStatus = keyof typeof PROBLEM_DESCRIPTIONS;

function problemResponse(status: ProblemStatus) {
  return {
    description: PROBLEM_DESCRIPTIONS[status],
    content: { [PROBLEM_CONTENT_TYPE]: { schema: ProblemSchema } },
  };
}

/**
 * Response schemas for the given error statuses, to spread into a route's `response`.
 * 401 and 500 are added to every authenticated route by the caller listing them.
 */
export function problemResponses<const S extends ProblemStatus>(
  ...statuses: S[]
): Record<S, ReturnType<typeof problemResponse>> {
  const responses = {} as Record<S, ReturnType<typeof problemResponse>>;
  for (const status of statuses) responses[status] = problemResponse(status);
  return responses;
}
