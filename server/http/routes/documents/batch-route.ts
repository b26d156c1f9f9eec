// What a batch write is, for the body parsers: `POST /v1/collections/{name}/documents` is the
// only route that takes NDJSON, and the only one whose JSON array is held to
// MAX_BATCH_DOCUMENTS while it is parsed (the 413 a larger batch gets is ingest/'s `batchTooLarge`);
// and how the body parsers hand a batch body over to be parsed.

import type { FastifyRequest } from 'fastify';
import type { BatchBody, BatchFormat } from '../../../ingest/index.ts';

/** Parses and checks a batch body off the main thread (the document service's `parseBody`). */
export type ParseBatchBody = (bytes: Uint8Array, format: BatchFormat, collection: string | undefined) => Promise<BatchBody>;

const BATCH_PATH = /\/documents\/?$/;

/** The request is a batch write (`POST …/documents`). */
export function isBatchWrite(request: FastifyRequest): boolean {
  return request.method === 'POST' && BATCH_PATH.test(request.url.split('?')[0]);
}
