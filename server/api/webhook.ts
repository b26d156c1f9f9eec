// TypeBox schemas of webhooks (docs/api.md, "Webhooks"): the create body, the webhook record (the signing
// secret only in the create answer) and the list of recent deliveries. Event names are checked
// by the route, so an unknown one gets a 400 that lists the valid names.

import { Type } from 'typebox';
import type { Static } from 'typebox';

export const CreateWebhookBodySchema = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 2048, description: 'Absolute http or https URL the deliveries are POSTed to.' }),
    events: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
      minItems: 1,
      maxItems: 16,
      description: 'Event names (`collection.created`, `document.indexed`, …) or `*` for all.',
    }),
    description: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()])),
  },
  { additionalProperties: false },
);

const webhookFields = {
  id: Type.String({ description: '`wh_` and 16 characters.' }),
  url: Type.String(),
  events: Type.Array(Type.String()),
  description: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
  disabled: Type.Boolean(),
  disabled_reason: Type.Union([Type.String({ description: '`gone` (the receiver answered 410) or `failures` (20 failed attempts in a row).' }), Type.Null()]),
};

export const WebhookSchema = Type.Object(webhookFields, { additionalProperties: false, title: 'Webhook' });
/** A webhook as the API shows it (never the secret, except once at creation). */
export type Webhook = Static<typeof WebhookSchema>;

export const CreatedWebhookSchema = Type.Object(
  { ...webhookFields, secret: Type.String({ description: 'The signing secret (`whsec_…`), shown in this answer only.' }) },
  { additionalProperties: false, title: 'CreatedWebhook' },
);

export const WebhookListSchema = Type.Object({ webhooks: Type.Array(WebhookSchema) }, { additionalProperties: false });

export const WebhookParamsSchema = Type.Object({ webhookId: Type.String({ minLength: 1, maxLength: 64 }) });

const AttemptSchema = Type.Object(
  {
    at: Type.String({ format: 'date-time' }),
    status: Type.Union([Type.Integer(), Type.Null()], { description: 'The receiver’s HTTP status; null when there was no answer.' }),
    error: Type.Union([Type.String(), Type.Null()]),
    duration_ms: Type.Integer(),
  },
  { additionalProperties: false },
);

export const DeliverySchema = Type.Object(
  {
    id: Type.String(),
    event_id: Type.String(),
    event_type: Type.String(),
    created_at: Type.String({ format: 'date-time' }),
    status: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
    attempts: Type.Array(AttemptSchema),
    next_attempt_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { additionalProperties: false, title: 'WebhookDelivery' },
);
export type Delivery = Static<typeof DeliverySchema>;

export const DeliveryListSchema = Type.Object({ deliveries: Type.Array(DeliverySchema) }, { additionalProperties: false });
