// Reads `application/x-ndjson` bodies (one JSON document a line) of batch writes: the bytes are
// gathered within the body limit and handed to the document service, which parses and checks
// them off the main thread (server/ingest/, in the ingest pool) and answers a BatchBody — the
// bytes as they came, with each document's id, size and span. Errors name the line they are on
// (`/body/line/3/metadata/tags`; lines count from 1, blank lines included, and are otherwise
// skipped). The whole body is checked before anything is written, like a JSON array.

import type { FastifyRequest } from 'fastify';
import { FolioError } from '../../../errors/index.ts';
import type { BatchBody } from '../../../ingest/index.ts';
import { isBatchWrite } from './batch-route.ts';
import type { ParseBatchBody } from './batch-route.ts';
import { readBodyStream } from './body-stream.ts';
import type { BodyStream } from './body-stream.ts';

export const NDJSON_CONTENT_TYPE = 'application/x-ndjson';

/** Fastify content-type parser for NDJSON (registered without `parseAs`: it reads the stream). */
export function ndjsonParser(parseBody: ParseBatchBody) {
  return async (request: FastifyRequest, payload: BodyStream): Promise<BatchBody> => {
    if (!isBatchWrite(request)) {
      // Read (and drop) the body first, so an oversized one is still a 413, as before.
      await readBodyStream(request, payload, () => {});
      throw new FolioError('unsupported_media_type', `${NDJSON_CONTENT_TYPE} is accepted only by POST /v1/collections/{name}/documents`);
    }
    const chunks: Buffer[] = [];
    await readBodyStream(request, payload, (chunk) => {
      chunks.push(chunk);
    });
    return parseBody(Buffer.concat(chunks), 'ndjson', (request.params as { name?: string } | undefined)?.name);
  };
}
