// Webhooks (docs/api.md, "Webhooks"): the registry, the durable outbox of owed deliveries, the dispatcher that
// sends them signed in the background, and the guard that keeps receivers off private addresses.

export { WebhookDispatcher } from './webhook-dispatcher.ts';
export { OUTBOX_FILE, WebhookOutbox } from './webhook-outbox.ts';
export { MAX_WEBHOOKS, WEBHOOKS_FILE, WebhookStore, webhookView } from './webhook-store.ts';
export { WebhookAddressError, parseWebhookUrl, resolveDeliveryAddress } from './address-guard.ts';
export type { LookupAll } from './address-guard.ts';
export { WEBHOOK_EVENT_TYPES, isWebhookEventPattern } from './webhook-events.ts';
export type { WebhookEventPattern } from './webhook-events.ts';
export { newWebhookSecret } from './webhook-signature.ts';
export { Webhooks } from './webhooks.ts';
export type { DeliveryAttemptRecord, DeliveryQueue, DeliveryState, OutboxDelivery, WebhookInput, WebhookRecord, WebhookRegistry } from './webhook-places.ts';
export { WebhookRecords, newWebhookRecord } from './webhook-records.ts';
export type { WebhookEvents, WebhooksOptions } from './webhooks.ts';
