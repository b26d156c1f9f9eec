// JSON document routes (docs/api.md, "Documents"): upsert one (PUT), write one or a batch (POST: JSON object,
// or a batch as a JSON array or NDJSON — parsed off the main thread and written as the bytes
// it came as), read, patch and delete one, list them (list-route.ts), delete by filter (delete-by-filter.ts),
// and refresh a collection. Every write accepts `?refresh=wait_for` (or `true`) to answer only
// once the change is searchable. Each handler calls the document service (server/documents).
// A batch is validated whole before anything is written; the collection is all-or-nothing too.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { visibleFilter } from '../../../auth/index.ts';
import { FolioError } from '../../../errors/index.ts';
import { CollectionParamsSchema } from '../../../api/index.ts';
import {
  DocumentBodySchema,
  DocumentParamsSchema,
  DocumentPatchBodySchema,
  DocumentPostBodySchema,
  DocumentSummarySchema,
  IndexedResponseSchema,
  RefreshResponseSchema,
  StoredDocumentSchema,
  WriteQuerySchema,
} from '../../../api/index.ts';
import { MAX_BATCH_DOCUMENTS } from '../../../api/index.ts';
import { NoContentSchema } from '../../../api/index.ts';
import { problemResponses } from '../../../api/index.ts';
import type { ParseBatchBody } from './batch-route.ts';
import deleteByFilterRoutes from './delete-by-filter.ts';
import documentListRoutes from './list-route.ts';
import { JSON_CONTENT_TYPE, jsonBodyParser } from './json-body-parser.ts';
import { ConcurrencyGate, MAX_LARGE_WRITES, largeBodyGateHook } from './large-body-gate.ts';
import { NDJSON_CONTENT_TYPE, ndjsonParser } from './ndjson-parser.ts';
import { writeRoomHook } from './write-room.ts';
import { requestValidatorCompiler } from '../../validation/request-validator.ts';
import { writeOptions } from '../../validation/write-options.ts';
import { BatchBody } from '../../../ingest/index.ts';

const DOCUMENT_PATH = '/v1/collections/:name/documents/:id';

/** A body validator that passes batch bodies through: their parse checked every document. */
function passBatchBodies(validate: ReturnType<typeof requestValidatorCompiler>): ReturnType<typeof requestValidatorCompiler> {
  return (value) => (value instanceof BatchBody ? { value } : validate(value));
}

/** Refuses an oversized JSON array before validation walks it (NDJSON is counted by its parser). */
async function limitBatchSize(request: { body: unknown }): Promise<void> {
  if (Array.isArray(request.body) && request.body.length > MAX_BATCH_DOCUMENTS) {
    throw new FolioError(
      'payload_too_large',
      `a batch may hold at most ${MAX_BATCH_DOCUMENTS} documents; this one has ${request.body.length}`,
    );
  }
}

const documentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Bodies are parsed as they stream in, within the body limit (these routes and delete-by-filter).
  const parseBody: ParseBatchBody = (bytes, format, collection) => app.documents.parseBody(bytes, format, collection);
  app.addContentTypeParser(NDJSON_CONTENT_TYPE, ndjsonParser(parseBody));
  app.removeContentTypeParser(JSON_CONTENT_TYPE);
  app.addContentTypeParser(JSON_CONTENT_TYPE, jsonBodyParser(app, parseBody));
  // At most a few large writes hold parsed bodies at once (large-body-gate.ts).
  const largeWrites = new ConcurrencyGate(MAX_LARGE_WRITES);
  app.addHook('preParsing', largeBodyGateHook(largeWrites));
  // A batch for a full write buffer waits or is refused before its body is read (write-room.ts).
  app.addHook('preParsing', writeRoomHook(app.documents));
  await app.register(deleteByFilterRoutes);
  await app.register(documentListRoutes);

  app.put(
    DOCUMENT_PATH,
    {
      schema: {
        summary: 'Create or replace a document',
        tags: ['documents'],
        params: DocumentParamsSchema,
        querystring: WriteQuerySchema,
        body: DocumentBodySchema,
        response: { 200: DocumentSummarySchema, ...problemResponses(400, 401, 404, 413, 415, 500, 503) },
      },
    },
    async (request) => {
      const { name, id } = request.params;
      return app.documents.put(name, { id, ...request.body }, writeOptions(request.query));
    },
  );

  app.post(
    '/v1/collections/:name/documents',
    {
      preValidation: limitBatchSize,
      // A batch body (NDJSON or a JSON array) was checked document by document as it was parsed (server/ingest/).
      validatorCompiler: (route) => passBatchBodies(requestValidatorCompiler(route)),
      schema: {
        summary: 'Write one document or a batch',
        description: `One document, a JSON array of up to ${MAX_BATCH_DOCUMENTS}, or NDJSON (one document a line).`,
        tags: ['documents'],
        consumes: ['application/json', NDJSON_CONTENT_TYPE],
        params: CollectionParamsSchema,
        querystring: WriteQuerySchema,
        body: DocumentPostBodySchema,
        response: { 200: IndexedResponseSchema, ...problemResponses(400, 401, 404, 413, 415, 500, 503) },
      },
    },
    async (request) => {
      const body: unknown = request.body;
      if (body instanceof BatchBody) {
        const ids = await app.documents.writeBody(request.params.name, body, writeOptions(request.query));
        return { indexed: ids.length, ids };
      }
      const batch = Array.isArray(request.body);
      const documents = Array.isArray(request.body) ? request.body : [request.body];
      const ids = await app.documents.write(request.params.name, documents, batch, writeOptions(request.query));
      return { indexed: ids.length, ids };
    },
  );

  app.get(
    DOCUMENT_PATH,
    {
      schema: {
        summary: 'Get a stored document',
        tags: ['documents'],
        params: DocumentParamsSchema,
        response: { 200: StoredDocumentSchema, ...problemResponses(400, 401, 404, 500) },
      },
    },
    async (request) => app.documents.get(request.params.name, request.params.id, visibleFilter(request.principal)),
  );

  app.patch(
    DOCUMENT_PATH,
    {
      schema: {
        summary: 'Update title and merge metadata (text is kept)',
        tags: ['documents'],
        params: DocumentParamsSchema,
        querystring: WriteQuerySchema,
        body: DocumentPatchBodySchema,
        response: { 200: DocumentSummarySchema, ...problemResponses(400, 401, 404, 413, 415, 500, 503) },
      },
    },
    async (request) => app.documents.patch(request.params.name, request.params.id, request.body, writeOptions(request.query)),
  );

  app.delete(
    DOCUMENT_PATH,
    {
      schema: {
        summary: 'Delete a document',
        tags: ['documents'],
        params: DocumentParamsSchema,
        querystring: WriteQuerySchema,
        response: { 204: NoContentSchema, ...problemResponses(400, 401, 404, 500, 503) },
      },
    },
    async (request, reply) => {
      await app.documents.delete(request.params.name, request.params.id, writeOptions(request.query));
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/v1/collections/:name/refresh',
    {
      schema: {
        summary: 'Make every acknowledged write searchable',
        description: 'Answers once every write acknowledged before the call is searchable. The body is ignored.',
        tags: ['documents'],
        params: CollectionParamsSchema,
        response: { 200: RefreshResponseSchema, ...problemResponses(400, 401, 404, 413, 415, 500) },
      },
    },
    async (request) => {
      await app.documents.refresh(request.params.name);
      return { refreshed: true as const };
    },
  );
};

export default documentRoutes;
