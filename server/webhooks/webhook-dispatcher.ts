// Turns changes into webhook deliveries and delivers them (docs/api.md, "Webhooks"). `emit` is called where a
// change has been committed: it makes one event, queues one delivery per enabled webhook that
// subscribes to it in the durable outbox, and resolves once they are on disk; sending happens
// in the background, so a slow receiver never slows a write. Deliveries are signed (Standard
// Webhooks), retried after about 5 s, 30 s, 2 min, 10 min, 1 h and 6 h (±20 % jitter, or when
// `Retry-After` says), and marked failed after the last try. A 410 disables the webhook, as do
// 20 failed attempts in a row; its owed deliveries are then marked failed too.

import { randomBase62 } from '../auth/index.ts';
import { deliverWebhook } from './webhook-delivery.ts';
import type { DeliveryOutcome } from './webhook-delivery.ts';
import type { LookupAll } from './address-guard.ts';
import { chunkIds, subscribes } from './webhook-events.ts';
import type { WebhookEventType } from './webhook-events.ts';
import { MAX_PENDING_DATA_BYTES, MAX_PENDING_PER_WEBHOOK, eventDataBytes } from './webhook-outbox.ts';
import type { DeliveryQueue, OutboxDelivery, WebhookEvent, WebhookRecord, WebhookRegistry } from './webhook-places.ts';
import { signWebhook } from './webhook-signature.ts';

/** Waits before the retries (docs/api.md, "Webhooks"): 5 s, 30 s, 2 min, 10 min, 1 h, 6 h. */
export const DEFAULT_RETRY_DELAYS_MS = [5_000, 30_000, 120_000, 600_000, 3_600_000, 21_600_000];
export const DELIVERY_TIMEOUT_MS = 10_000;
const MAX_IN_FLIGHT = 8;
const MAX_IN_FLIGHT_PER_WEBHOOK = 2;
const JITTER = 0.2;
/** Longest a timer is set for (setTimeout's limit is about 24.8 days). */
const MAX_TIMER_MS = 2_147_483_647;

export interface WebhookDispatcherOptions {
  store: WebhookRegistry;
  outbox: DeliveryQueue;
  allowPrivate: boolean;
  retryDelaysMs?: readonly number[];
  timeoutMs?: number;
  now?: () => number;
  lookup?: LookupAll;
  /** Told about deliveries that could not be queued or recorded. */
  onError?: (error: unknown, message: string) => void;
}

export class WebhookDispatcher {
  private readonly options: WebhookDispatcherOptions;
  private readonly retryDelays: readonly number[];
  private readonly now: () => number;
  private readonly inFlight = new Map<string, string>(); // delivery id → webhook id
  private timer: NodeJS.Timeout | null = null;
  private timerDue = Infinity;
  private closed = false;
  private readonly running = new Set<Promise<void>>();

  constructor(options: WebhookDispatcherOptions) {
    this.options = options;
    this.retryDelays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
    this.now = options.now ?? Date.now;
  }

  /** Starts sending what the outbox owes (deliveries queued before a restart included). */
  start(): void {
    this.pump();
  }

  /**
   * Records a change: one event per chunk of ids for bulk changes, one delivery per subscribed,
   * enabled webhook, durable when this resolves. A change nobody subscribes to costs nothing.
   */
  async emit(type: WebhookEventType, data: Record<string, unknown>): Promise<void> {
    const webhooks = this.options.store.list().filter((webhook) => !webhook.disabled && subscribes(webhook.events, type));
    if (webhooks.length === 0 || this.closed) return;
    const ids = data.ids;
    const payloads = Array.isArray(ids) ? chunkIds(ids as string[]).map((chunk) => ({ ...data, ids: chunk })) : [data];
    const deliveries: OutboxDelivery[] = [];
    const now = this.now();
    let addedBytes = 0;
    for (const payload of payloads) {
      const event: WebhookEvent = { id: `evt_${randomBase62(24)}`, type, created_at: new Date(now).toISOString(), data: payload };
      const bytes = eventDataBytes(event);
      for (const webhook of webhooks) {
        // Memory stays bounded while receivers are down: past either limit, events are skipped (and logged).
        if (this.options.outbox.pendingCount(webhook.id) >= MAX_PENDING_PER_WEBHOOK) {
          this.options.onError?.(null, `webhook ${webhook.id} owes ${MAX_PENDING_PER_WEBHOOK} deliveries; event ${event.id} was not queued for it`);
          continue;
        }
        if (this.options.outbox.pendingBytes + addedBytes + bytes > MAX_PENDING_DATA_BYTES) {
          this.options.onError?.(null, `the webhook outbox holds ${MAX_PENDING_DATA_BYTES >> 20} MiB of owed events; event ${event.id} was not queued for ${webhook.id}`);
          continue;
        }
        addedBytes += bytes;
        deliveries.push({ id: `dlv_${randomBase62(20)}`, webhookId: webhook.id, event, state: 'pending', attempts: [], nextAttemptAt: now });
      }
    }
    await this.options.outbox.add(deliveries);
    this.pump();
  }

  /** Starts every due delivery there is room for, and sets the timer for the next one (also when a shared queue has claimed some). */
  pump(): void {
    if (this.closed) return;
    const now = this.now();
    let nextDue = Infinity;
    const perWebhook = new Map<string, number>();
    for (const webhookId of this.inFlight.values()) perWebhook.set(webhookId, (perWebhook.get(webhookId) ?? 0) + 1);
    for (const delivery of this.options.outbox.pending()) {
      if (this.inFlight.has(delivery.id)) continue;
      const due = delivery.nextAttemptAt ?? now;
      if (due > now) {
        nextDue = Math.min(nextDue, due);
        continue;
      }
      const busy = perWebhook.get(delivery.webhookId) ?? 0;
      if (this.inFlight.size >= MAX_IN_FLIGHT || busy >= MAX_IN_FLIGHT_PER_WEBHOOK) continue; // pumped again when one ends
      perWebhook.set(delivery.webhookId, busy + 1);
      this.inFlight.set(delivery.id, delivery.webhookId);
      const run = this.attempt(delivery)
        .catch((error: unknown) => {
          // Never left due: retried after the first delay (in memory; the log still owes it).
          if (delivery.state === 'pending') delivery.nextAttemptAt = this.now() + this.retryDelays[0]!;
          this.options.onError?.(error, `webhook delivery ${delivery.id} could not be recorded`);
        })
        .finally(() => {
          this.inFlight.delete(delivery.id);
          this.running.delete(run);
          this.pump();
        });
      this.running.add(run);
    }
    this.setTimer(nextDue);
  }

  private setTimer(due: number): void {
    if (due === this.timerDue && this.timer !== null) return;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.timerDue = due;
    if (due === Infinity) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.timerDue = Infinity;
      this.pump();
    }, Math.min(MAX_TIMER_MS, Math.max(0, due - this.now())));
    this.timer.unref();
  }

  private async attempt(delivery: OutboxDelivery): Promise<void> {
    const { store, outbox } = this.options;
    const webhook = store.get(delivery.webhookId);
    if (webhook === null) {
      // Deleted (a crash between removing the webhook and its deliveries leaves some): forget them.
      await outbox.forget(delivery.webhookId);
      return;
    }
    if (webhook.disabled) {
      await outbox.update(delivery.id, 'failed', null, null);
      return;
    }
    const body = JSON.stringify(delivery.event);
    const timestamp = Math.floor(this.now() / 1000);
    const startedAt = new Date(this.now()).toISOString();
    const outcome: DeliveryOutcome = await this.send(webhook, delivery, body, timestamp);
    if (this.closed) return; // the attempt is done again after the restart (at-least-once)
    const attempt = { at: startedAt, status: outcome.status, error: outcome.ok ? null : outcome.error, duration_ms: Math.round(outcome.durationMs) };
    if (outcome.ok) {
      store.recordSuccess(webhook.id);
      await outbox.update(delivery.id, 'delivered', null, attempt);
      return;
    }
    const disabled = outcome.gone ? (store.disable(webhook.id, 'gone'), true) : store.recordFailure(webhook.id);
    const failures = delivery.attempts.length + 1;
    if (disabled || failures > this.retryDelays.length) {
      await outbox.update(delivery.id, 'failed', null, attempt);
      if (disabled) await this.failOwed(webhook.id);
      return;
    }
    const scheduled = this.retryDelays[failures - 1]! * (1 + JITTER * (2 * Math.random() - 1));
    const wait = outcome.retryAfterMs ?? scheduled;
    await outbox.update(delivery.id, 'pending', this.now() + wait, attempt);
  }

  /** One attempt; a secret that cannot sign (a damaged file) fails like any attempt. */
  private async send(webhook: WebhookRecord, delivery: OutboxDelivery, body: string, timestamp: number): Promise<DeliveryOutcome> {
    let signature: string;
    try {
      signature = signWebhook(webhook.secret, delivery.event.id, timestamp, body);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { ok: false, status: null, error: `could not sign: ${message}`, retryAfterMs: null, gone: false, refused: false, durationMs: 0 };
    }
    return deliverWebhook({
      url: webhook.url,
      body,
      headers: { 'webhook-id': delivery.event.id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature },
      timeoutMs: this.options.timeoutMs ?? DELIVERY_TIMEOUT_MS,
      allowPrivate: this.options.allowPrivate,
      ...(this.options.lookup !== undefined && { lookup: this.options.lookup }),
    });
  }

  /** A disabled webhook's owed deliveries are marked failed (they will not be tried). */
  private async failOwed(webhookId: string): Promise<void> {
    for (const delivery of this.options.outbox.pending()) {
      if (delivery.webhookId === webhookId && !this.inFlight.has(delivery.id)) await this.options.outbox.update(delivery.id, 'failed', null, null);
    }
  }

  /**
   * Stops sending. Attempts under way are not waited for (a receiver may take its whole
   * timeout); their outcome is not recorded, so they are made again after a restart.
   */
  close(): void {
    this.closed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Resolves when the attempts under way have ended (tests). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }
}
