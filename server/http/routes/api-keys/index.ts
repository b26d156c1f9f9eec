// API key routes (docs/api.md, "API keys, sessions and rate limits"): create (the plaintext key is in this answer only), list, revoke.
// The access table requires the admin scope (creating: or a key with a filter); the key service
// (server/auth/api-keys.ts) keeps a key to keys within its own scopes, collections and filter
// (no escalation).

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CreateKeyBodySchema, CreatedKeySchema, KeyListSchema, KeyParamsSchema, NoContentSchema, problemResponses } from '../../../api/index.ts';

const apiKeyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/v1/api-keys',
    {
      // The body is optional (docs/api.md, "API keys, sessions and rate limits"): no body means all defaults.
      preValidation: async (request) => {
        if (request.body === undefined || request.body === null) request.body = {};
      },
      schema: {
        summary: 'Create an API key (the key is shown in this answer only)',
        description: 'The body is optional; without one the key gets the defaults (scopes `search` and `write`, all collections).',
        tags: ['api-keys'],
        body: CreateKeyBodySchema,
        response: { 201: CreatedKeySchema, ...problemResponses(400, 401, 403, 413, 415, 429, 500) },
      },
    },
    async (request, reply) => {
      const { name, scopes, collections, rate_limit: rateLimit, expires_at: expiresAt, filter } = request.body;
      const created = await app.apiKeys.create(request.principal!, { name, scopes, collections, rateLimit, expiresAt, filter });
      return reply.code(201).send(created);
    },
  );

  app.get(
    '/v1/api-keys',
    {
      schema: {
        summary: 'List API keys (never the keys themselves)',
        tags: ['api-keys'],
        response: { 200: KeyListSchema, ...problemResponses(401, 403, 429, 500) },
      },
    },
    async (request) => ({ keys: app.apiKeys.list(request.principal!) }),
  );

  app.delete(
    '/v1/api-keys/:keyId',
    {
      schema: {
        summary: 'Revoke an API key (at once)',
        tags: ['api-keys'],
        params: KeyParamsSchema,
        response: { 204: NoContentSchema, ...problemResponses(400, 401, 403, 404, 429, 500) },
      },
    },
    async (request, reply) => {
      await app.apiKeys.delete(request.principal!, request.params.keyId);
      return reply.code(204).send(null);
    },
  );
};

export default apiKeyRoutes;
