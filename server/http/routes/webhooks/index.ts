// Webhook routes (SPEC §8): create (the signing secret is in this answer only), list, get,
// delete, and the recent deliveries of one webhook. A webhook sees every collection's events,
// so the access table allows only unrestricted admins (an admin key for all collections, the
// master key or a session). URLs must be absolute http(s); a literal private address (or
// `localhost`) is refused here already unless the server allows private webhooks, and every
// delivery checks the address it resolves to again.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { FolioError } from '../../../errors/index.ts';
import { NoContentSchema } from '../../../api/index.ts';
import { problemResponses } from '../../../api/index.ts';
import {
  CreateWebhookBodySchema,
  CreatedWebhookSchema,
  DeliveryListSchema,
  WebhookListSchema,
  WebhookParamsSchema,
  WebhookSchema,
} from '../../../api/index.ts';
import { WebhookAddressError, parseWebhookUrl, resolveDeliveryAddress } from '../../../webhooks/index.ts';
import type { WebhookDispatcher } from '../../../webhooks/index.ts';
import { WEBHOOK_EVENT_TYPES, isWebhookEventPattern } from '../../../webhooks/index.ts';
import type { WebhookEventPattern } from '../../../webhooks/index.ts';
import type { WebhookOutbox } from '../../../webhooks/index.ts';
import { newWebhookSecret } from '../../../webhooks/index.ts';
import { MAX_WEBHOOKS, webhookView } from '../../../webhooks/index.ts';
import type { WebhookStore } from '../../../webhooks/index.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Queues webhook events where changes are committed (server/webhooks/webhook-dispatcher.ts). */
    webhooks: WebhookDispatcher;
  }
}

export interface WebhookRoutesOptions {
  store: WebhookStore;
  outbox: WebhookOutbox;
  allowPrivate: boolean;
}

/** Most deliveries one listing shows (the newest). */
const MAX_LISTED_DELIVERIES = 100;

const webhookNotFound = (id: string): FolioError => new FolioError('webhook_not_found', `webhook '${id}' does not exist`);

/** Host names that always mean this machine, checked without asking DNS. */
function isLocalHostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

const webhookRoutes: FastifyPluginAsyncTypebox<WebhookRoutesOptions> = async (app, options) => {
  const { store, outbox } = options;

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
    async (request, reply) => {
      const { url: urlText, events, description } = request.body;
      const parsed = parseWebhookUrl(urlText);
      if ('error' in parsed) throw new FolioError('validation_failed', parsed.error, [{ path: '/body/url', message: parsed.error }]);
      const unknown = events.filter((event) => !isWebhookEventPattern(event));
      if (unknown.length > 0) {
        const valid = [...WEBHOOK_EVENT_TYPES, '*'].join(', ');
        throw new FolioError('validation_failed', `unknown event ${unknown.map((e) => `'${e}'`).join(', ')}; valid events: ${valid}`, [
          { path: '/body/events', message: `must be among: ${valid}` },
        ]);
      }
      const { hostname } = parsed.url;
      const literal = /^[\d.]+$/.test(hostname) || hostname.startsWith('[');
      if (!options.allowPrivate && (literal || isLocalHostName(hostname))) {
        try {
          // Literal addresses and localhost are known without DNS: refuse them now.
          await resolveDeliveryAddress(parsed.url, false, async () => [{ address: '127.0.0.1', family: 4 }]);
        } catch (error) {
          if (error instanceof WebhookAddressError) throw new FolioError('validation_failed', error.message, [{ path: '/body/url', message: error.message }]);
          throw error;
        }
      }
      if (store.size >= MAX_WEBHOOKS) throw new FolioError('validation_failed', `a server keeps at most ${MAX_WEBHOOKS} webhooks; delete one first`);
      const record = store.create({
        url: parsed.url.href,
        events: events as WebhookEventPattern[],
        description: description ?? null,
        secret: newWebhookSecret(),
      });
      return reply.code(201).send({ ...webhookView(record), secret: record.secret });
    },
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
    async () => ({ webhooks: store.list().map(webhookView) }),
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
    async (request) => {
      const record = store.get(request.params.webhookId);
      if (record === null) throw webhookNotFound(request.params.webhookId);
      return webhookView(record);
    },
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
      const { webhookId } = request.params;
      if (!store.delete(webhookId)) throw webhookNotFound(webhookId);
      await outbox.forget(webhookId);
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
    async (request) => {
      const { webhookId } = request.params;
      if (store.get(webhookId) === null) throw webhookNotFound(webhookId);
      const deliveries = outbox
        .forWebhook(webhookId)
        .slice(-MAX_LISTED_DELIVERIES)
        .reverse()
        .map((delivery) => ({
          id: delivery.id,
          event_id: delivery.event.id,
          event_type: delivery.event.type,
          created_at: delivery.event.created_at,
          status: delivery.state,
          attempts: delivery.attempts,
          next_attempt_at: delivery.nextAttemptAt === null ? null : new Date(delivery.nextAttemptAt).toISOString(),
        }));
      return { deliveries };
    },
  );
};

export default webhookRoutes;
