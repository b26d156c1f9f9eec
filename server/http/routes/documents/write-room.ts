// Backpressure before the body is read: a batch write (`POST …/documents`) into a collection
// whose write buffer is full waits here for a refresh to make room (at most the collection's
// backpressure wait) and is otherwise refused with 503 `overloaded` and `Retry-After`, its body
// never parsed — a bulk load that outruns indexing spends no main-thread time on batches it
// must send again. Runs after the large-body gate (large-body-gate.ts), so the writes waiting
// here hold its slots, and the collection checks again when it writes.

import type { FastifyRequest } from 'fastify';
import type { DocumentService } from '../../../documents/index.ts';
import { FolioError } from '../../../errors/index.ts';
import { isBatchWrite } from './batch-route.ts';

/** A preParsing hook that holds batch writes until their collection's buffer has room. */
export function writeRoomHook(documents: DocumentService) {
  return async (request: FastifyRequest, _reply: unknown, payload: NodeJS.ReadableStream): Promise<NodeJS.ReadableStream> => {
    if (!isBatchWrite(request)) return payload;
    const name = (request.params as { name?: string }).name;
    if (name === undefined) return payload;
    try {
      await documents.awaitWriteRoom(name);
    } catch (error) {
      // No such collection: the route answers that, after the body's own checks.
      if (error instanceof FolioError && error.code === 'collection_not_found') return payload;
      throw error;
    }
    return payload;
  };
}
