// Where webhooks and their deliveries are kept, as the service and the dispatcher use them —
// files under the data directory in single-process mode (webhook-store.ts, webhook-outbox.ts),
// PostgreSQL shared by every node in cluster mode (server/cluster/shared-webhooks.ts) — and the
// records kept there: a webhook with its secret, an event, a delivery and its attempts.

import type { Webhook } from '../api/index.ts';
import type { WebhookEventPattern, WebhookEventType } from './webhook-events.ts';

/** A webhook as the API shows it (server/api), its events known to be valid patterns. */
export interface WebhookView extends Webhook {
  events: WebhookEventPattern[];
}

export interface WebhookRecord extends WebhookView {
  readonly secret: string;
  /** Failed attempts since the last success. */
  consecutiveFailures: number;
}

export interface WebhookEvent {
  id: string;
  type: WebhookEventType;
  created_at: string;
  data: Record<string, unknown>;
}

export type DeliveryState = 'pending' | 'delivered' | 'failed';

export interface DeliveryAttemptRecord {
  at: string;
  status: number | null;
  error: string | null;
  duration_ms: number;
}

export interface OutboxDelivery {
  id: string;
  webhookId: string;
  /** The event; `data` is dropped once the delivery has finished. */
  event: WebhookEvent;
  state: DeliveryState;
  attempts: DeliveryAttemptRecord[];
  /** When the next attempt is due (ms since the epoch); null once finished. */
  nextAttemptAt: number | null;
}

export interface WebhookInput {
  url: string;
  events: WebhookEventPattern[];
  description: string | null;
  secret: string;
}

/** The registered webhooks: read from memory, changed durably. */
export interface WebhookRegistry {
  readonly size: number;
  get(id: string): WebhookRecord | null;
  list(): WebhookRecord[];
  /** Registers a webhook, durable before it resolves. */
  add(input: WebhookInput): Promise<WebhookRecord>;
  /** Removes a webhook, durable before it resolves; false when there is none. */
  remove(id: string): Promise<boolean>;
  recordSuccess(id: string): void;
  /** Returns true when this failure disabled the webhook. */
  recordFailure(id: string): boolean;
  disable(id: string, reason: 'gone' | 'failures'): void;
}

/** The deliveries owed and done. */
export interface DeliveryQueue {
  /** Owed deliveries of a webhook (bounds memory and the table). */
  pendingCount(webhookId: string): number;
  /** Bytes of event data the owed deliveries hold. */
  readonly pendingBytes: number;
  /** The owed deliveries this node may attempt (in cluster mode: those it has claimed). */
  pending(): OutboxDelivery[];
  /** Queues deliveries durably. */
  add(deliveries: OutboxDelivery[]): Promise<void>;
  /** Records an attempt (or a cancellation) and the delivery's next state. */
  update(id: string, state: DeliveryState, next: number | null, attempt: DeliveryAttemptRecord | null): Promise<void>;
  /** Forgets every delivery of a deleted webhook. */
  forget(webhookId: string): Promise<void>;
  /** A webhook's deliveries, oldest first. */
  history(webhookId: string): Promise<OutboxDelivery[]>;
  close(): Promise<void>;
}
