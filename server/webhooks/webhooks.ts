// The webhook service (docs/api.md, "Webhooks") the routes and other rooms use: opens the registry
// (webhooks.json) and the durable outbox under the data directory, runs the dispatcher, and
// offers what the routes need — register (URL and events vetted, the secret made and shown
// once), list, get, delete (nothing more is delivered), a webhook's recent deliveries — and
// `emit`, which the write paths call once a change is durable. A literal private address or
// `localhost` is refused at registration unless private webhooks are allowed; every delivery
// checks the address its host resolves to again.

import type { Delivery } from '../api/index.ts';
import { FolioError } from '../errors/index.ts';
import { WebhookAddressError, parseWebhookUrl, resolveDeliveryAddress } from './address-guard.ts';
import type { LookupAll } from './address-guard.ts';
import { WebhookDispatcher } from './webhook-dispatcher.ts';
import { WEBHOOK_EVENT_TYPES, isWebhookEventPattern } from './webhook-events.ts';
import type { WebhookEventPattern, WebhookEventType } from './webhook-events.ts';
import { WebhookOutbox } from './webhook-outbox.ts';
import { newWebhookSecret } from './webhook-signature.ts';
import { MAX_WEBHOOKS, WebhookStore, webhookView } from './webhook-store.ts';
import type { WebhookView } from './webhook-places.ts';
import type { DeliveryQueue, WebhookRegistry } from './webhook-places.ts';

/** Most deliveries one listing shows (the newest). */
const MAX_LISTED_DELIVERIES = 100;

/** What a write path needs of webhooks: tell them about a durable change. */
export interface WebhookEvents {
  /** Resolves once the deliveries of the event are queued durably (not sent). */
  emit(type: WebhookEventType, data: Record<string, unknown>): Promise<void>;
}

export interface WebhooksOptions {
  dataDir: string;
  /** Let webhooks reach loopback and private addresses (`--allow-private-webhooks`). */
  allowPrivate: boolean;
  /** The clock in milliseconds since the epoch (tests pass a fake one). */
  now: () => number;
  /** Waits before retries (default 5 s, 30 s, 2 min, 10 min, 1 h, 6 h). */
  retryDelaysMs?: readonly number[];
  /** Time limit of one delivery (default 10 s). */
  timeoutMs?: number;
  /** How hosts are resolved (default the system's resolver). */
  lookup?: LookupAll;
  /** Told about deliveries that could not be queued or recorded. */
  onError: (error: unknown, message: string) => void;
  /** Cluster mode: webhooks and deliveries shared by every node, instead of files under dataDir. */
  shared?: { store: WebhookRegistry; outbox: DeliveryQueue & { onClaimed(pump: () => void): void } };
}

const webhookNotFound = (id: string): FolioError => new FolioError('webhook_not_found', `webhook '${id}' does not exist`);

/** Host names that always mean this machine, checked without asking DNS. */
function isLocalHostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

const urlError = (message: string): FolioError => new FolioError('validation_failed', message, [{ path: '/body/url', message }]);

export class Webhooks implements WebhookEvents {
  private readonly store: WebhookRegistry;
  private readonly outbox: DeliveryQueue;
  private readonly dispatcher: WebhookDispatcher;
  private readonly allowPrivate: boolean;

  constructor(options: WebhooksOptions) {
    this.allowPrivate = options.allowPrivate;
    this.store = options.shared?.store ?? WebhookStore.open(options.dataDir, { now: () => new Date(options.now()) });
    this.outbox = options.shared?.outbox ?? WebhookOutbox.open(options.dataDir);
    this.dispatcher = new WebhookDispatcher({
      store: this.store,
      outbox: this.outbox,
      allowPrivate: options.allowPrivate,
      now: options.now,
      ...(options.retryDelaysMs !== undefined && { retryDelaysMs: options.retryDelaysMs }),
      ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
      ...(options.lookup !== undefined && { lookup: options.lookup }),
      onError: options.onError,
    });
    // A shared queue hands over the deliveries it claims as they come.
    options.shared?.outbox.onClaimed(() => this.dispatcher.pump());
  }

  /** Starts sending what the outbox owes (deliveries queued before a restart included). */
  start(): void {
    this.dispatcher.start();
  }

  emit(type: WebhookEventType, data: Record<string, unknown>): Promise<void> {
    return this.dispatcher.emit(type, data);
  }

  /** Registers a webhook; the answer carries its signing secret, which is never shown again. */
  async create(input: { url: string; events: string[]; description?: string | null }): Promise<WebhookView & { secret: string }> {
    const parsed = parseWebhookUrl(input.url);
    if ('error' in parsed) throw urlError(parsed.error);
    const unknown = input.events.filter((event) => !isWebhookEventPattern(event));
    if (unknown.length > 0) {
      const valid = [...WEBHOOK_EVENT_TYPES, '*'].join(', ');
      throw new FolioError('validation_failed', `unknown event ${unknown.map((e) => `'${e}'`).join(', ')}; valid events: ${valid}`, [
        { path: '/body/events', message: `must be among: ${valid}` },
      ]);
    }
    const { hostname } = parsed.url;
    const literal = /^[\d.]+$/.test(hostname) || hostname.startsWith('[');
    if (!this.allowPrivate && (literal || isLocalHostName(hostname))) {
      try {
        // Literal addresses and localhost are known without DNS: refuse them now.
        await resolveDeliveryAddress(parsed.url, false, async () => [{ address: '127.0.0.1', family: 4 }]);
      } catch (error) {
        if (error instanceof WebhookAddressError) throw urlError(error.message);
        throw error;
      }
    }
    if (this.store.size >= MAX_WEBHOOKS) throw new FolioError('validation_failed', `a server keeps at most ${MAX_WEBHOOKS} webhooks; delete one first`);
    const record = await this.store.add({
      url: parsed.url.href,
      events: input.events as WebhookEventPattern[],
      description: input.description ?? null,
      secret: newWebhookSecret(),
    });
    return { ...webhookView(record), secret: record.secret };
  }

  list(): WebhookView[] {
    return this.store.list().map(webhookView);
  }

  /** Throws FolioError `webhook_not_found`. */
  get(id: string): WebhookView {
    const record = this.store.get(id);
    if (record === null) throw webhookNotFound(id);
    return webhookView(record);
  }

  /** Removes the webhook and forgets what it was owed. Throws FolioError `webhook_not_found`. */
  async delete(id: string): Promise<void> {
    if (!(await this.store.remove(id))) throw webhookNotFound(id);
    await this.outbox.forget(id);
  }

  /** The webhook's most recent deliveries, newest first. Throws FolioError `webhook_not_found`. */
  async deliveries(id: string): Promise<Delivery[]> {
    if (this.store.get(id) === null) throw webhookNotFound(id);
    return (await this.outbox.history(id))
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
  }

  /** Resolves when the delivery attempts under way have ended (tests). */
  idle(): Promise<void> {
    return this.dispatcher.idle();
  }

  /** Stops sending and closes the outbox (attempts under way are made again after a restart). */
  async close(): Promise<void> {
    this.dispatcher.close();
    await this.outbox.close();
  }
}
