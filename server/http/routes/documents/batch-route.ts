// What a batch write is, for the body parsers: `POST /v1/collections/{name}/documents` is the
// only route that takes NDJSON, and the only one whose JSON array is held to
// MAX_BATCH_DOCUMENTS while it is parsed; and the 413 a larger batch gets.

import type { FastifyRequest } from 'fastify';
import { FolioError } from '../../../errors/index.ts';
import { MAX_BATCH_DOCUMENTS } from '../../../api/index.ts';

const BATCH_PATH = /\/documents\/?$/;

/** The request is a batch write (`POST …/documents`). */
export function isBatchWrite(request: FastifyRequest): boolean {
  return request.method === 'POST' && BATCH_PATH.test(request.url.split('?')[0]);
}

/** The error for a batch of `count` documents, more than MAX_BATCH_DOCUMENTS. */
export function batchTooLarge(count: number): FolioError {
  return new FolioError(
    'payload_too_large',
    `a batch may hold at most ${MAX_BATCH_DOCUMENTS} documents; this one has ${count}`,
  );
}
