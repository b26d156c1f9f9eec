// Collection routes (docs/api.md, "Collections"): create, list, read, change the settings of and delete
// collections. Each collection is an independent index; the handlers only call the decorated
// collection service.

import { canSeeCollection } from '../../../auth/index.ts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  CollectionInfoSchema,
  CollectionListSchema,
  CollectionParamsSchema,
  CreateCollectionBodySchema,
} from '../../../api/index.ts';
import { NoContentSchema } from '../../../api/index.ts';
import { problemResponses } from '../../../api/index.ts';
import { UpdateCollectionBodySchema } from '../../../settings/index.ts';
import { DEFAULT_LANGUAGE } from '../../../names/index.ts';

const collectionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/v1/collections',
    {
      schema: {
        summary: 'Create a collection',
        tags: ['collections'],
        body: CreateCollectionBodySchema,
        response: { 201: CollectionInfoSchema, ...problemResponses(400, 401, 409, 413, 415, 500) },
      },
    },
    async (request, reply) => {
      const { name, language = DEFAULT_LANGUAGE, ...settings } = request.body;
      app.ocrLanguages.assertInstalled(settings.ocr_languages, '/body/ocr_languages');
      return reply.code(201).send(await app.collections.create(name, language, settings));
    },
  );

  app.get(
    '/v1/collections',
    {
      schema: {
        summary: 'List collections',
        tags: ['collections'],
        response: { 200: CollectionListSchema, ...problemResponses(401, 403, 429, 500) },
      },
    },
    // A collection-limited key sees only its own collections.
    async (request) => ({ collections: app.collections.list().filter((info) => canSeeCollection(request.principal!, info.name)) }),
  );

  app.get(
    '/v1/collections/:name',
    {
      schema: {
        summary: 'Get a collection',
        tags: ['collections'],
        params: CollectionParamsSchema,
        response: { 200: CollectionInfoSchema, ...problemResponses(400, 401, 404, 500) },
      },
    },
    async (request) => app.collections.get(request.params.name),
  );

  app.patch(
    '/v1/collections/:name',
    {
      schema: {
        summary: "Change a collection's settings",
        description: 'Settings only (`typo_tolerance`, `embedders`, `synonyms`, `ranking`, `searchable_fields`, `ocr_languages`); what the body leaves out is kept (a `synonyms` '
          + 'list replaces the whole list). Searches use the new settings at once, and they survive restarts.',
        tags: ['collections'],
        params: CollectionParamsSchema,
        body: UpdateCollectionBodySchema,
        response: { 200: CollectionInfoSchema, ...problemResponses(400, 401, 404, 413, 415, 500) },
      },
    },
    async (request) => {
      app.ocrLanguages.assertInstalled(request.body.ocr_languages, '/body/ocr_languages');
      return app.collections.updateSettings(request.params.name, request.body);
    },
  );

  app.delete(
    '/v1/collections/:name',
    {
      schema: {
        summary: 'Delete a collection and its files',
        tags: ['collections'],
        params: CollectionParamsSchema,
        response: { 204: NoContentSchema, ...problemResponses(400, 401, 404, 500) },
      },
    },
    async (request, reply) => {
      await app.collections.delete(request.params.name);
      return reply.code(204).send(null);
    },
  );
};

export default collectionRoutes;
