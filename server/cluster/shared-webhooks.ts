// Webhooks and their deliveries in PostgreSQL, for every node (cluster mode). Webhooks are kept
// in each node's memory (reloaded when one changes) with their signing secrets, which every
// node needs to sign. Deliveries are a shared outbox: an event's deliveries are inserted once
// the change is committed; every node claims due ones with `FOR UPDATE SKIP LOCKED` and a claim
// that expires, attempts them, and records the outcome (releasing the claim). A node that dies
// mid-attempt leaves its claim to expire and another node sends the event again: each event
// goes out at least once whichever node is alive.

import { WebhookRecords, newWebhookRecord } from '../webhooks/index.ts';
import type { DeliveryAttemptRecord, DeliveryQueue, DeliveryState, OutboxDelivery, WebhookInput, WebhookRecord, WebhookRegistry } from '../webhooks/index.ts';
import type { ClusterDatabase } from './cluster-database.ts';

export const WEBHOOKS_CHANNEL = 'folio_webhooks';
export const DELIVERIES_CHANNEL = 'folio_deliveries';
/** How long a claimed delivery is this node's to attempt (well beyond the 10 s delivery timeout). */
const CLAIM_MS = 60_000;
const CLAIM_BATCH = 16;
/** Finished deliveries kept per webhook for its listing. */
const KEPT_FINISHED = 50;

type StoredWebhook = Omit<WebhookRecord, 'consecutiveFailures'>;

export class SharedWebhookRegistry extends WebhookRecords implements WebhookRegistry {
  constructor(
    private readonly db: ClusterDatabase,
    private readonly now: () => Date,
    private readonly onError: (error: unknown, message: string) => void,
  ) {
    super();
  }

  async add(input: WebhookInput): Promise<WebhookRecord> {
    const record = newWebhookRecord(input, this.now());
    const { consecutiveFailures: _, ...stored } = record;
    await this.db.transaction(async (client) => {
      await client.query('INSERT INTO folio_webhooks (id, record) VALUES ($1, $2)', [record.id, JSON.stringify(stored)]);
      await client.query('SELECT pg_notify($1, $2)', [WEBHOOKS_CHANNEL, record.id]);
    });
    this.records.set(record.id, record);
    return record;
  }

  async remove(id: string): Promise<boolean> {
    const removed = await this.db.transaction(async (client) => {
      const { rowCount } = await client.query('DELETE FROM folio_webhooks WHERE id = $1', [id]);
      await client.query('SELECT pg_notify($1, $2)', [WEBHOOKS_CHANNEL, id]);
      return (rowCount ?? 0) > 0;
    });
    this.records.delete(id);
    return removed;
  }

  /** Failures are counted per node; any node reaching the limit disables the webhook for all. */
  protected saveDisabled(record: WebhookRecord): void {
    const { id, disabled_reason } = record;
    this.db
      .query(`UPDATE folio_webhooks SET record = record || $2::jsonb WHERE id = $1`, [id, JSON.stringify({ disabled: true, disabled_reason })])
      .then(() => this.db.query('SELECT pg_notify($1, $2)', [WEBHOOKS_CHANNEL, id]))
      .catch((error: unknown) => this.onError(error, `could not record that webhook ${id} is disabled`));
  }

  /** Loads every webhook (a node's failure counts carry over). */
  async reload(): Promise<void> {
    const { rows } = await this.db.query<{ record: StoredWebhook }>('SELECT record FROM folio_webhooks');
    const next = new Map<string, WebhookRecord>();
    for (const { record } of rows) next.set(record.id, { ...record, consecutiveFailures: this.records.get(record.id)?.consecutiveFailures ?? 0 });
    this.records = next;
  }
}

interface DeliveryRow {
  id: string;
  webhook_id: string;
  event: OutboxDelivery['event'];
  state: DeliveryState;
  attempts: DeliveryAttemptRecord[];
  next_ms: string | null;
}

function toDelivery(row: DeliveryRow): OutboxDelivery {
  return { id: row.id, webhookId: row.webhook_id, event: row.event, state: row.state, attempts: row.attempts, nextAttemptAt: row.next_ms === null ? null : Number(row.next_ms) };
}

const DELIVERY_COLUMNS = `id, webhook_id, event, state, attempts, (extract(epoch FROM next_attempt_at) * 1000)::bigint AS next_ms`;

export class SharedDeliveryQueue implements DeliveryQueue {
  private readonly claimed = new Map<string, OutboxDelivery>();
  private owed = new Map<string, number>();
  private owedBytes = 0;
  private wake: () => void = () => {};
  private claiming: Promise<void> | null = null;
  private closed = false;

  constructor(
    private readonly db: ClusterDatabase,
    private readonly nodeId: string,
  ) {}

  onClaimed(pump: () => void): void {
    this.wake = pump;
  }

  pendingCount(webhookId: string): number {
    return this.owed.get(webhookId) ?? 0;
  }

  get pendingBytes(): number {
    return this.owedBytes;
  }

  pending(): OutboxDelivery[] {
    return [...this.claimed.values()];
  }

  async add(deliveries: OutboxDelivery[]): Promise<void> {
    if (deliveries.length === 0) return;
    await this.db.transaction(async (client) => {
      await client.query(
        `INSERT INTO folio_webhook_deliveries (id, webhook_id, event, state, attempts, next_attempt_at)
           SELECT d.id, d.webhook_id, d.event, 'pending', '[]'::jsonb, to_timestamp(d.next_ms / 1000.0)
             FROM jsonb_to_recordset($1::jsonb) AS d(id text, webhook_id text, event jsonb, next_ms double precision)
            WHERE EXISTS (SELECT 1 FROM folio_webhooks w WHERE w.id = d.webhook_id)`,
        [JSON.stringify(deliveries.map((delivery) => ({ id: delivery.id, webhook_id: delivery.webhookId, event: delivery.event, next_ms: delivery.nextAttemptAt })))],
      );
      await client.query('SELECT pg_notify($1, $2)', [DELIVERIES_CHANNEL, String(deliveries.length)]);
    });
  }

  async update(id: string, state: DeliveryState, next: number | null, attempt: DeliveryAttemptRecord | null): Promise<void> {
    this.claimed.delete(id);
    const finished = state !== 'pending';
    await this.db.query(
      `UPDATE folio_webhook_deliveries
          SET state = $2, next_attempt_at = CASE WHEN $3::double precision IS NULL THEN NULL ELSE to_timestamp($3 / 1000.0) END,
              attempts = attempts || CASE WHEN $4::jsonb IS NULL THEN '[]'::jsonb ELSE jsonb_build_array($4::jsonb) END,
              event = CASE WHEN $5 THEN jsonb_set(event, '{data}', '{}'::jsonb) ELSE event END,
              claimed_by = NULL, claimed_until = NULL
        WHERE id = $1`,
      [id, state, next, attempt === null ? null : JSON.stringify(attempt), finished],
    );
    if (finished) {
      await this.db.query(
        `DELETE FROM folio_webhook_deliveries WHERE id IN (
           SELECT id FROM folio_webhook_deliveries WHERE webhook_id = (SELECT webhook_id FROM folio_webhook_deliveries WHERE id = $1)
              AND state <> 'pending' ORDER BY created_at DESC OFFSET $2)`,
        [id, KEPT_FINISHED],
      );
    }
  }

  async forget(webhookId: string): Promise<void> {
    for (const delivery of [...this.claimed.values()]) if (delivery.webhookId === webhookId) this.claimed.delete(delivery.id);
    await this.db.query('DELETE FROM folio_webhook_deliveries WHERE webhook_id = $1', [webhookId]);
  }

  async history(webhookId: string): Promise<OutboxDelivery[]> {
    const { rows } = await this.db.query<DeliveryRow>(`SELECT ${DELIVERY_COLUMNS} FROM folio_webhook_deliveries WHERE webhook_id = $1 ORDER BY created_at, id`, [webhookId]);
    return rows.map(toDelivery);
  }

  /** Claims due deliveries no live claim holds, and counts what is owed; hands them to the dispatcher. */
  claim(): Promise<void> {
    if (this.claiming !== null || this.closed) return this.claiming ?? Promise.resolve();
    this.claiming = (async () => {
      const { rows } = await this.db.query<DeliveryRow>(
        `UPDATE folio_webhook_deliveries SET claimed_by = $1, claimed_until = now() + $2 * interval '1 millisecond'
          WHERE id IN (SELECT id FROM folio_webhook_deliveries
                        WHERE state = 'pending' AND next_attempt_at <= now() AND (claimed_until IS NULL OR claimed_until < now())
                        ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED)
          RETURNING ${DELIVERY_COLUMNS}`,
        [this.nodeId, CLAIM_MS, CLAIM_BATCH],
      );
      for (const row of rows) this.claimed.set(row.id, toDelivery(row));
      const counts = await this.db.query<{ webhook_id: string; owed: string; bytes: string }>(
        `SELECT webhook_id, count(*) AS owed, coalesce(sum(length((event->'data')::text)), 0) AS bytes FROM folio_webhook_deliveries WHERE state = 'pending' GROUP BY webhook_id`,
      );
      this.owed = new Map(counts.rows.map((row) => [row.webhook_id, Number(row.owed)]));
      this.owedBytes = counts.rows.reduce((total, row) => total + Number(row.bytes), 0);
      if (rows.length > 0) this.wake();
    })().finally(() => (this.claiming = null));
    return this.claiming;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.claiming?.catch(() => {});
    // Claims of attempts not recorded expire; another node (or this one, restarted) sends them again.
    this.claimed.clear();
  }
}
