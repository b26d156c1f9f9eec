// Webhook routes (docs/api.md, "Webhooks"): create (the signing secret is in this answer only), list, get,
// delete, and the recent deliveries of one webhook, each a call to the webhook service
// (server/webhooks/webhooks.ts). A webhook sees every collection's events, so the access
// table allows only unrestricted admins (an admin key for all collections, the master key or
// a session).

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  CreateWebhookBodySchema,
  CreatedWebhookSchema,
  DeliveryListSchema,
  NoContentSchema,
  WebhookListSchema,
  WebhookParamsSchema,
  WebhookSchema,
  problemResponses,
} from '../../../api/index.ts';

const webhookRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/v1/webhooks',
    {
      schema: {
        summary: 'Register a webhook (its signing secret is shown in this answer only)',
        tags: ['webhooks'],
        body: CreateWebhookBodySchema,
        response: { 201: CreatedWebhookSchema, ...problemResponses(400, 401, 403, 413, 415, 429, 500) },
      },
    },
    async (request, reply) => reply.code(201).send(await app.webhooks.create(request.body)),
  );

  app.get(
    '/v1/webhooks',
    {
      schema: {
        summary: 'List webhooks',
        tags: ['webhooks'],
        response: { 200: WebhookListSchema, ...problemResponses(401, 403, 429, 500) },
      },
    },
    async () => ({ webhooks: app.webhooks.list() }),
  );

  app.get(
    '/v1/webhooks/:webhookId',
    {
      schema: {
        summary: 'Get a webhook',
        tags: ['webhooks'],
        params: WebhookParamsSchema,
        response: { 200: WebhookSchema, ...problemResponses(400, 401, 403, 404, 429, 500) },
      },
    },
    async (request) => app.webhooks.get(request.params.webhookId),
  );

  app.delete(
    '/v1/webhooks/:webhookId',
    {
      schema: {
        summary: 'Delete a webhook: nothing more is delivered to it',
        tags: ['webhooks'],
        params: WebhookParamsSchema,
        response: { 204: NoContentSchema, ...problemResponses(400, 401, 403, 404, 429, 500) },
      },
    },
    async (request, reply) => {
      await app.webhooks.delete(request.params.webhookId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/v1/webhooks/:webhookId/deliveries',
    {
      schema: {
        summary: 'Recent deliveries of a webhook, newest first, with their attempts',
        tags: ['webhooks'],
        params: WebhookParamsSchema,
        response: { 200: DeliveryListSchema, ...problemResponses(400, 401, 403, 404, 429, 500) },
      },
    },
    async (request) => ({ deliveries: await app.webhooks.deliveries(request.params.webhookId) }),
  );
};

export default webhookRoutes;
