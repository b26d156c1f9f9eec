// Reads a request body chunk by chunk as it arrives, for the streaming body parsers of the
// document routes (ndjson-parser.ts, json-body-parser.ts). Fastify enforces the body limit only
// for parsers that take the whole body, so this does it, with Fastify's own errors (the client
// sees the same 413 as before), and it makes sure the read always settles: at the end of the
// body, on a stream error, or when the client goes away mid-body.

import type { Readable } from 'node:stream';
import { errorCodes } from 'fastify';
import type { FastifyRequest } from 'fastify';
import { MAX_BODY_BYTES } from '../../../api/index.ts';

/** The body stream a parser gets: the request, or what a `preParsing` hook made of it. */
export type BodyStream = Readable & { receivedEncodedLength?: number };

/** Stream errors are client errors (as in Fastify's own body reader). */
function asClientError(error: Error & { statusCode?: number }): Error {
  if (!(typeof error.statusCode === 'number' && error.statusCode >= 400)) error.statusCode = 400;
  return error;
}

function clientWentAway(): Error {
  return asClientError(Object.assign(new Error('the request body ended early'), { code: 'ECONNRESET' }));
}

function ignore(): void {}

/**
 * Hands every chunk of the body to `onChunk`, in order, and resolves once the body is read.
 *
 * - A body over `limit` bytes rejects with FST_ERR_CTP_BODY_TOO_LARGE: at once when the
 *   declared Content-Length is over it, else as soon as the count passes it. The rest is left
 *   to drain unread, as Fastify does; Fastify answers and closes the connection.
 * - When `onChunk` throws, the rest of the body is still read (counted against the limit, then
 *   dropped, never parsed) so the client can finish sending and read the answer; the promise
 *   then rejects with that first error. The answer is the one a whole-body parser would give.
 */
export function readBodyStream(
  request: FastifyRequest,
  payload: BodyStream,
  onChunk: (chunk: Buffer) => void,
  limit: number = MAX_BODY_BYTES,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const declaredLength = Number(request.headers['content-length']);
    if (declaredLength > limit) {
      reject(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      return;
    }
    if (payload.destroyed) {
      reject(clientWentAway());
      return;
    }
    let received = 0;
    let failed = false;
    let failure: unknown;

    function stopListening(): void {
      payload.removeListener('data', onData);
      payload.removeListener('end', onEnd);
      payload.removeListener('error', onError);
      payload.removeListener('close', onClose);
    }

    function onData(chunk: Buffer | string): void {
      // A custom preParsing stream may emit strings.
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      received += bytes.length;
      // The decoded length counts too (a compressed body must not expand past the limit).
      if (received > limit || (payload.receivedEncodedLength ?? 0) > limit) {
        stopListening();
        payload.on('error', ignore); // the rest drains, unread, until Fastify closes the connection
        reject(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
        return;
      }
      if (failed) return;
      try {
        onChunk(bytes);
      } catch (error) {
        failed = true;
        failure = error;
      }
    }

    function onEnd(): void {
      stopListening();
      if (!Number.isNaN(declaredLength) && (payload.receivedEncodedLength || received) !== declaredLength) {
        reject(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
      } else if (failed) {
        reject(failure);
      } else {
        resolve();
      }
    }

    function onError(error: Error): void {
      stopListening();
      payload.on('error', ignore);
      reject(asClientError(error));
    }

    /** Closed before its end and without an error: the client went away. */
    function onClose(): void {
      stopListening();
      reject(clientWentAway());
    }

    payload.on('data', onData);
    payload.on('end', onEnd);
    payload.on('error', onError);
    payload.on('close', onClose);
    payload.resume();
  });
}
