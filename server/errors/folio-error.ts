// The API's error type: every failure a client can cause is a FolioError with a stable
// code (docs/api.md, "Errors"). HTTP statuses are assigned from the code in one place
// (server/http/plugins/error-handler.ts), never in handlers.

export type ErrorCode =
  | 'unauthorized'
  | 'forbidden'
  | 'rate_limited'
  | 'validation_failed'
  | 'bad_request'
  | 'request_timeout'
  | 'headers_too_large'
  | 'invalid_query'
  | 'invalid_filter'
  | 'invalid_sort'
  | 'not_found'
  | 'collection_not_found'
  | 'collection_exists'
  | 'document_not_found'
  | 'key_not_found'
  | 'webhook_not_found'
  | 'unsupported_file_type'
  | 'file_too_large'
  | 'extraction_failed'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'overloaded'
  | 'search_timeout'
  | 'collection_unavailable'
  | 'cluster_unavailable'
  | 'invalid_vector'
  | 'embedder_failed'
  | 'preview_unavailable'
  | 'internal';

/** One field-level validation problem, listed in the problem body's `errors`. */
/** Most field errors listed in one problem body (a bad 10,000-document batch stays small). */
export const MAX_LISTED_FIELD_ERRORS = 50;

export interface FieldError {
  /** JSON pointer-ish location, e.g. `/body/0/metadata/tags`. */
  path: string;
  message: string;
}

export class FolioError extends Error {
  readonly code: ErrorCode;
  readonly errors: FieldError[] | undefined;
  /** Whole seconds after which the request may succeed (the `Retry-After` header), if known. */
  readonly retryAfterSeconds: number | undefined;

  constructor(code: ErrorCode, detail: string, errors?: FieldError[], retryAfterSeconds?: number) {
    super(detail);
    this.name = 'FolioError';
    this.code = code;
    this.errors = errors;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}
