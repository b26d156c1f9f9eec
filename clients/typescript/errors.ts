// The one error type of the TypeScript client: `FolioError` carries the HTTP status and the
// stable `code` (docs/api.md, "Errors") from the server's RFC 9457 problem body (or status 0 and
// `network_error` when no answer came), plus helpers that build it from a response.

import type { Problem } from './api-types.ts';

/** One field-level validation problem (`errors` of a 400 `validation_failed`). */
export interface FieldError {
  path: string;
  message: string;
}

export class FolioError extends Error {
  /** The HTTP status; 0 when the request got no answer (network failure). */
  readonly status: number;
  /** The stable error code (docs/api.md, "Errors"), e.g. `collection_not_found`, `rate_limited`, `network_error`. */
  readonly code: string;
  /** Human-readable explanation (may change between versions; branch on `code`). */
  readonly detail: string;
  /** Field-level problems of a 400 `validation_failed`. */
  readonly errors?: FieldError[];

  constructor(status: number, code: string, detail: string, errors?: FieldError[], options?: { cause?: unknown }) {
    super(`${code}: ${detail}${status === 0 ? '' : ` (HTTP ${status})`}`, options);
    this.name = 'FolioError';
    this.status = status;
    this.code = code;
    this.detail = detail;
    if (errors !== undefined) this.errors = errors;
  }
}

function isProblem(value: unknown): value is Problem {
  const problem = value as Partial<Problem> | null;
  return typeof problem === 'object' && problem !== null && typeof problem.code === 'string';
}

/** The FolioError for a non-2xx response, from its problem body when it has one. */
export async function errorFromResponse(response: Response): Promise<FolioError> {
  let text = '';
  try {
    text = await response.text();
  } catch (cause) {
    return networkError(cause);
  }
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON (a proxy's error page, say): reported below with the start of the text.
  }
  if (isProblem(body)) {
    const detail = typeof body.detail === 'string' ? body.detail : response.statusText;
    const errors = Array.isArray(body.errors) ? body.errors : undefined;
    return new FolioError(response.status, body.code, detail, errors);
  }
  const excerpt = text.trim().slice(0, 200);
  return new FolioError(response.status, 'http_error', excerpt !== '' ? excerpt : `HTTP ${response.status} ${response.statusText}`.trim());
}

/** The FolioError for a request that got no answer (refused, reset, DNS failure, aborted…). */
export function networkError(cause: unknown): FolioError {
  const reason = cause instanceof Error ? (cause.cause instanceof Error ? cause.cause.message : cause.message) : String(cause);
  return new FolioError(0, 'network_error', `request failed: ${reason}`, undefined, { cause });
}
