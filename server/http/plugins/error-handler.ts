// The one place where failures become HTTP answers (docs/api.md, "Errors"): every error, whatever threw it,
// leaves as an RFC 9457 `application/problem+json` body with a stable `code`, and the status
// comes from the single code → status table below. Anything unexpected is a 500 `internal`
// with a generic detail; the real error is logged server-side, never sent (no stack traces,
// file paths or secrets in a body).

import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { FolioError } from '../../errors/index.ts';
import type { ErrorCode, FieldError } from '../../errors/index.ts';
import { MAX_BODY_BYTES } from '../../api/index.ts';
import { PROBLEM_CONTENT_TYPE } from '../../api/index.ts';
import type { Problem } from '../../api/index.ts';
import { toFieldErrors } from '../../api/index.ts';
import type { RawValidationError } from '../../api/index.ts';
import { noteRefusal } from '../log-lines.ts';

/** The HTTP status of every error code. */
export const STATUS_BY_CODE: Readonly<Record<ErrorCode, number>> = {
  validation_failed: 400,
  bad_request: 400,
  request_timeout: 408,
  headers_too_large: 431,
  invalid_query: 400,
  invalid_filter: 400,
  invalid_sort: 400,
  invalid_vector: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  collection_not_found: 404,
  document_not_found: 404,
  key_not_found: 404,
  webhook_not_found: 404,
  collection_exists: 409,
  preview_unavailable: 409,
  payload_too_large: 413,
  file_too_large: 413,
  unsupported_media_type: 415,
  unsupported_file_type: 415,
  extraction_failed: 422,
  rate_limited: 429,
  internal: 500,
  embedder_failed: 502,
  overloaded: 503,
  search_timeout: 503,
  collection_unavailable: 503,
  cluster_unavailable: 503,
};

/** Codes from other layers (the engine) that mean something to a client. */
const FOREIGN_CODES: Readonly<Record<string, ErrorCode>> = {
  invalid_query: 'invalid_query',
  invalid_filter: 'invalid_filter',
  invalid_sort: 'invalid_sort',
  invalid_language: 'validation_failed',
};

/** Fastify's own client errors, by their `code`. */
const FASTIFY_CODES: Readonly<Record<string, { code: ErrorCode; detail: string }>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: {
    code: 'payload_too_large',
    detail: `request body is larger than the limit of ${MAX_BODY_BYTES / (1024 * 1024)} MiB`,
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'unsupported_media_type',
    detail: 'unsupported Content-Type: send application/json (or application/x-ndjson for batches)',
  },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'validation_failed', detail: 'request body is not valid JSON' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'validation_failed', detail: 'request body is empty' },
  FST_ERR_MAX_PARAM_LENGTH: { code: 'validation_failed', detail: 'a path segment is too long' },
  FST_ERR_BAD_URL: { code: 'validation_failed', detail: 'the URL is not validly percent-encoded' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    code: 'validation_failed',
    detail: 'Content-Length does not match the body received',
  },
};

/** For other Fastify client errors: the code their status stands for. */
const CODE_BY_CLIENT_STATUS: Readonly<Record<number, ErrorCode>> = {
  404: 'not_found',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
};

const INTERNAL_DETAIL = 'internal server error; the server log has the details';

/** The process ran out of file descriptors: a 503 to retry (with Retry-After), never a 500. */
const DESCRIPTOR_SHORTAGE = new Set(['EMFILE', 'ENFILE']);
const DESCRIPTOR_SHORTAGE_DETAIL = 'the server is short of file descriptors (ulimit -n); retry after Retry-After seconds';
const DESCRIPTOR_SHORTAGE_RETRY_SECONDS = 1;

interface Classified {
  code: ErrorCode;
  detail: string;
  errors?: FieldError[];
}

function hasStringCode(error: unknown): error is { code: string; message: string } {
  return typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string';
}

/** Decides what a client may learn about an error; null means "a bug: answer 500". */
function classify(error: unknown): Classified | null {
  if (error instanceof FolioError) return { code: error.code, detail: error.message, errors: error.errors };
  const fastifyError = error as Partial<FastifyError>;
  if (Array.isArray(fastifyError.validation)) {
    const part = fastifyError.validationContext ?? 'body';
    const errors = toFieldErrors(part, fastifyError.validation as unknown as RawValidationError[]);
    return { code: 'validation_failed', detail: `invalid request ${part}`, errors };
  }
  if (!hasStringCode(error)) return null;
  if (DESCRIPTOR_SHORTAGE.has(error.code)) return { code: 'overloaded', detail: DESCRIPTOR_SHORTAGE_DETAIL };
  const foreign = FOREIGN_CODES[error.code];
  if (foreign !== undefined) return { code: foreign, detail: error.message };
  const known = FASTIFY_CODES[error.code];
  if (known !== undefined) return known;
  const status = fastifyError.statusCode;
  if (error.code.startsWith('FST_') && status !== undefined && status >= 400 && status < 500) {
    return { code: CODE_BY_CLIENT_STATUS[status] ?? 'validation_failed', detail: error.message };
  }
  return null;
}

export function problemBody(code: ErrorCode, detail: string, errors?: FieldError[]): Problem {
  const status = STATUS_BY_CODE[code];
  const body: Problem = { type: 'about:blank', title: STATUS_CODES[status] ?? 'Error', status, code, detail };
  if (errors !== undefined && errors.length > 0) body.errors = errors;
  return body;
}

/** Answers any error as a problem; also Fastify's `frameworkErrors` hook (router-level errors). */
export function handleError(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const classified = classify(error);
  let body: Problem;
  if (classified === null || classified.code === 'internal') {
    request.log.error({ err: error }, 'request failed with an internal error');
    body = problemBody('internal', INTERNAL_DETAIL);
  } else {
    noteRefusal(request, classified.code); // named in the request's one log line
    body = problemBody(classified.code, classified.detail, classified.errors);
  }
  if (body.status === 401) reply.header('WWW-Authenticate', 'Bearer realm="folio"');
  if (error instanceof FolioError && error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
  else if (hasStringCode(error) && DESCRIPTOR_SHORTAGE.has(error.code)) reply.header('retry-after', String(DESCRIPTOR_SHORTAGE_RETRY_SECONDS));
  return reply.status(body.status).type(PROBLEM_CONTENT_TYPE).send(body);
}

/** Node's HTTP parser errors, by their `code`, as problems. */
const PARSER_ERRORS: Readonly<Record<string, { code: ErrorCode; detail: string }>> = {
  HPE_HEADER_OVERFLOW: { code: 'headers_too_large', detail: 'the request headers are larger than the server accepts (16 KiB)' },
  ERR_HTTP_REQUEST_TIMEOUT: { code: 'request_timeout', detail: 'the request was not received in time' },
};

/**
 * Answers a request the HTTP parser refused before Fastify saw it (Fastify's `clientErrorHandler`):
 * a problem+json body like every other error, then the connection is closed. A socket that
 * cannot be written to any more is just destroyed.
 */
export function handleClientError(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const known = error.code === undefined ? undefined : PARSER_ERRORS[error.code];
  const body = JSON.stringify(problemBody(known?.code ?? 'bad_request', known?.detail ?? `not a well-formed HTTP request (${error.code ?? 'parse error'})`));
  const status = STATUS_BY_CODE[known?.code ?? 'bad_request'];
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

async function errorHandlerPlugin(app: FastifyInstance): Promise<void> {
  app.setErrorHandler(handleError);
  // HTTP/1.1 requires Host (RFC 9112 §3.2); the server lets such a request through (Node would
  // answer an empty 400 itself) so that the refusal is a problem document like any other.
  app.addHook('onRequest', async (request) => {
    if (request.headers.host === undefined && request.raw.httpVersion !== '1.0') {
      throw new FolioError('bad_request', 'an HTTP/1.1 request needs a Host header', [{ path: '/headers/host', message: 'is required' }]);
    }
  });
  app.setNotFoundHandler((request) => {
    const path = request.url.split('?')[0].slice(0, 200);
    throw new FolioError('not_found', `no route ${request.method} ${path}`);
  });
}

// Applies to the whole application rather than an encapsulated child (what fastify-plugin does).
Object.assign(errorHandlerPlugin, { [Symbol.for('skip-override')]: true });

export default errorHandlerPlugin;
