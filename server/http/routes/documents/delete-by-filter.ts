// Delete by filter (docs/api.md, "Documents"): `POST /v1/collections/{c}/documents/delete` with `{ "filter" }`
// deletes every document whose current version matches (writes not yet searchable included),
// in one atomic, durable write; `?refresh=wait_for` answers once the deletions are searchable.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { parseFilter } from '../../../../engine/index.ts';
import { CollectionParamsSchema } from '../../../api/index.ts';
import { DeleteByFilterBodySchema, DeletedResponseSchema } from '../../../api/index.ts';
import { WriteQuerySchema } from '../../../api/index.ts';
import { problemResponses } from '../../../api/index.ts';
import { writeOptions } from '../../validation/write-options.ts';

const deleteByFilterRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/v1/collections/:name/documents/delete',
    {
      schema: {
        summary: 'Delete the documents matching a filter',
        description: 'Deletes every document whose current version matches `filter`, atomically; answers how many.',
        tags: ['documents'],
        params: CollectionParamsSchema,
        querystring: WriteQuerySchema,
        body: DeleteByFilterBodySchema,
        response: { 200: DeletedResponseSchema, ...problemResponses(400, 401, 404, 413, 415, 500, 503) },
      },
    },
    async (request) => ({
      deleted: await app.documents.deleteByFilter(request.params.name, parseFilter(request.body.filter), writeOptions(request.query)),
    }),
  );
};

export default deleteByFilterRoutes;
