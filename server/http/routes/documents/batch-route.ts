// What a batch write is, for the body parsers: `POST /v1/collections/{name}/documents` is the
// only route that takes NDJSON, and the only one whose JSON array is held to
// MAX_BATCH_DOCUMENTS while it is parsed (the 413 a larger batch gets is ingest/'s `batchTooLarge`).

import type { FastifyRequest } from 'fastify';

const BATCH_PATH = /\/documents\/?$/;

/** The request is a batch write (`POST …/documents`). */
export function isBatchWrite(request: FastifyRequest): boolean {
  return request.method === 'POST' && BATCH_PATH.test(request.url.split('?')[0]);
}
