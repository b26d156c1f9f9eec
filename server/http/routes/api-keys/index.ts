// API key routes (SPEC §7): create (the plaintext key is in this answer only), list, revoke.
// The access table requires the admin scope; on top of that a key can create, see and revoke
// only keys whose scopes and collections are within its own (no escalation). The master key
// and sessions hold every right.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { grantsOf } from '../../../auth/index.ts';
import type { Principal } from '../../../auth/index.ts';
import { FolioError } from '../../../errors/index.ts';
import { CreateKeyBodySchema, CreatedKeySchema, KeyListSchema, KeyParamsSchema } from '../../../api/index.ts';
import { NoContentSchema } from '../../../api/index.ts';
import { problemResponses } from '../../../api/index.ts';
import type { KeyRecord, KeyStore } from '../../../auth/index.ts';
import { DEFAULT_SCOPES, isSubset } from '../../../auth/index.ts';
import type { Scope } from '../../../auth/index.ts';

/** Does `principal` hold at least what a key with these grants would? */
function covers(principal: Principal, scopes: readonly Scope[], collections: readonly string[] | null): boolean {
  const own = grantsOf(principal);
  return isSubset(scopes, collections, own.scopes, own.collections);
}

const keyNotFound = (id: string): FolioError => new FolioError('key_not_found', `API key '${id}' does not exist`);

const apiKeyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const visible = (principal: Principal, record: KeyRecord): boolean => covers(principal, record.scopes, record.collections);

  app.post(
    '/v1/api-keys',
    {
      // The body is optional (SPEC §7): no body means all defaults.
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
      const body = request.body;
      const scopes = body.scopes ?? [...DEFAULT_SCOPES];
      const collections = body.collections ?? null;
      if (!covers(request.principal!, scopes, collections)) {
        throw new FolioError('forbidden', 'a key can only create keys within its own scopes and collections');
      }
      const { record, key } = app.keys.create({
        name: body.name,
        scopes,
        collections,
        rateLimit: body.rate_limit ?? null,
        expiresAt: body.expires_at ?? null,
      });
      // The event never carries the key itself.
      await app.webhooks.emit('key.created', { key: record });
      return reply.code(201).send({ ...record, key });
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
    async (request) => ({ keys: app.keys.list().filter((record) => visible(request.principal!, record)) }),
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
      const { keyId } = request.params;
      const record = app.keys.get(keyId);
      // A key the caller could not have created is as good as absent to it.
      if (record === null || !visible(request.principal!, record)) throw keyNotFound(keyId);
      app.keys.delete(keyId);
      await app.webhooks.emit('key.deleted', { key: { id: keyId } });
      app.rateLimiter?.forget(`key:${keyId}`);
      return reply.code(204).send(null);
    },
  );
};

export default apiKeyRoutes;
