// The document listing (docs/api.md, "Listing documents"): `GET /v1/collections/{c}/documents?limit=&cursor=&fields=&filter=`
// answers `{ documents, next_cursor }`, ascending by id, realtime (acknowledged writes included);
// each document carries `id` and the members `fields` names (default: its summary).

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { visibleFilter } from '../../../auth/index.ts';
import {
  CollectionParamsSchema,
  DEFAULT_LISTED_FIELDS,
  DEFAULT_LIST_LIMIT,
  DocumentListQuerySchema,
  DocumentListSchema,
  LISTED_DOCUMENT_FIELDS,
  problemResponses,
} from '../../../api/index.ts';
import type { ListedField } from '../../../documents/index.ts';
import { FolioError } from '../../../errors/index.ts';
import { listOf, toFilter } from '../../validation/list-params.ts';

/** The members `fields` names besides `id`, each once; an unknown name is a 400. */
function toListedFields(value: string | string[] | undefined): ListedField[] {
  if (value === undefined) return [...DEFAULT_LISTED_FIELDS];
  const names = [...new Set(listOf(value))].filter((name) => name !== 'id');
  const known = new Set<string>(LISTED_DOCUMENT_FIELDS);
  const unknown = names.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new FolioError(
      'validation_failed',
      'fields: not a document member',
      unknown.map((name) => ({ path: '/querystring/fields', message: `${JSON.stringify(name)} is not a document member (one of id, ${LISTED_DOCUMENT_FIELDS.join(', ')})` })),
    );
  }
  return names as ListedField[];
}

const documentListRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/v1/collections/:name/documents',
    {
      schema: {
        summary: 'List documents',
        description: 'The live documents in ascending id order, a page at a time: pass `next_cursor` as `cursor` for the next page. '
          + 'Realtime (acknowledged writes included); `filter` narrows by metadata.',
        tags: ['documents'],
        params: CollectionParamsSchema,
        querystring: DocumentListQuerySchema,
        response: { 200: DocumentListSchema, ...problemResponses(400, 401, 404, 500) },
      },
    },
    async (request) =>
      app.documents.list(request.params.name, {
        limit: request.query.limit ?? DEFAULT_LIST_LIMIT,
        cursor: request.query.cursor ?? null,
        fields: toListedFields(request.query.fields),
        filter: toFilter(request.query.filter),
      }, visibleFilter(request.principal)),
  );
};

export default documentListRoutes;
