// The catalogue of webhook events (docs/api.md, "Webhooks"), named `<resource>.<action>`, and how a
// subscription (`events`, possibly `*`) matches one. Bulk changes carry their ids in chunks so
// one event body stays bounded.

export const WEBHOOK_EVENT_TYPES = [
  'collection.created',
  'collection.deleted',
  'document.indexed',
  'document.deleted',
  'file.indexed',
  'file.failed',
  'key.created',
  'key.deleted',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** What a webhook subscribes to: an event type, or `*` for all of them. */
export type WebhookEventPattern = WebhookEventType | '*';

const EVENT_TYPES: ReadonlySet<string> = new Set(WEBHOOK_EVENT_TYPES);

export function isWebhookEventPattern(value: unknown): value is WebhookEventPattern {
  return value === '*' || (typeof value === 'string' && EVENT_TYPES.has(value));
}

export function subscribes(events: readonly WebhookEventPattern[], type: WebhookEventType): boolean {
  return events.includes('*') || events.includes(type);
}

/** Most ids one bulk event carries in `data.ids`; a larger write emits several events. */
export const MAX_IDS_PER_EVENT = 10_000;

/** `ids` in chunks of at most MAX_IDS_PER_EVENT (none for an empty list). */
export function chunkIds(ids: readonly string[]): string[][] {
  const chunks: string[][] = [];
  for (let start = 0; start < ids.length; start += MAX_IDS_PER_EVENT) chunks.push(ids.slice(start, start + MAX_IDS_PER_EVENT));
  return chunks;
}
