// The webhook outbox (docs/api.md, "Webhooks"): every delivery owed, on disk, so deliveries survive a restart
// or kill -9 (at-least-once). One append-only NDJSON log, `<data>/webhook-outbox.log`:
//   {"op":"add","delivery":{…}}                   a delivery owed (the event, its webhook, when)
//   {"op":"update","id":…,"state":…,"next":…,"attempt":{…}}   an attempt and what follows
// The file is storage's AppendLog in line framing: appends are group-committed (concurrent
// callers share one write and one fdatasync), `add` resolves only once its line is on disk, a
// failed write is cut off before the next, and at start the log is replayed in chunks (a torn
// last line from a crash is cut off) and rewritten compactly (mode 0600); it is compacted again
// when it grows. This file keeps the deliveries; the log keeps them on disk.
// Finished deliveries are kept, without their event data, as the recent history the API shows.

import path from 'node:path';
import { AppendLog, LINE_FRAMING, PRIVATE_FILE_MODE } from '../../storage/index.ts';

import type { DeliveryAttemptRecord, DeliveryQueue, DeliveryState, OutboxDelivery, WebhookEvent } from './webhook-places.ts';
export const OUTBOX_FILE = 'webhook-outbox.log';
/** Finished deliveries kept per webhook for `GET /v1/webhooks/{id}/deliveries`. */
export const KEPT_FINISHED_PER_WEBHOOK = 50;
/** Most deliveries owed to one webhook; events beyond it are not queued (and counted). */
export const MAX_PENDING_PER_WEBHOOK = 10_000;
/** Most bytes of event data all owed deliveries may hold in memory; events beyond are not queued. */
export const MAX_PENDING_DATA_BYTES = 256 * 1024 * 1024;
/** Log size at which it is rewritten with only what is still needed. */
const COMPACT_AT_BYTES = 16 * 1024 * 1024;

type LogLine =
  | { op: 'add'; delivery: OutboxDelivery }
  | { op: 'update'; id: string; state: DeliveryState; next: number | null; attempt: DeliveryAttemptRecord | null; error?: string };

export class WebhookOutbox implements DeliveryQueue {
  private readonly log: AppendLog<string>;
  private readonly deliveries = new Map<string, OutboxDelivery>();
  /** Each owed delivery's webhook and bytes of event data; their sums (to bound memory). */
  private readonly owed = new Map<string, { webhookId: string; bytes: number }>();
  private readonly owedPerWebhook = new Map<string, number>();
  private pendingDataBytes = 0;
  /** Finished deliveries of each webhook, in the order they finished (the kept history). */
  private readonly finishedPerWebhook = new Map<string, string[]>();

  private constructor(file: string) {
    this.log = AppendLog.open(file, {
      framing: LINE_FRAMING,
      name: 'the webhook outbox',
      errorCode: 'webhook_outbox',
      mode: PRIVATE_FILE_MODE,
      onRecord: (line) => this.applyLine(line),
      compaction: {
        atOpen: true,
        live: () => this.liveLines(),
        // Compacted once it is over 16 MiB and twice its size after the last rewrite.
        due: (bytes, bytesAfterRewrite) => bytes > Math.max(COMPACT_AT_BYTES, 2 * bytesAfterRewrite),
      },
    });
  }

  static open(dataDir: string): WebhookOutbox {
    return new WebhookOutbox(path.join(dataDir, OUTBOX_FILE));
  }

  private applyLine(line: string): void {
    if (line === '') return;
    let entry: LogLine;
    try {
      entry = JSON.parse(line) as LogLine;
    } catch {
      // Not written by this version (whose torn lines the log cuts off): a line an older one
      // left mid-file after a failed write, never acknowledged.
      return;
    }
    this.apply(entry);
  }

  private apply(entry: LogLine): void {
    if (entry.op === 'add') {
      this.put(entry.delivery);
      return;
    }
    const delivery = this.deliveries.get(entry.id);
    if (delivery === undefined) return;
    if (entry.attempt !== null) delivery.attempts.push(entry.attempt);
    delivery.state = entry.state;
    delivery.nextAttemptAt = entry.next;
    if (entry.state !== 'pending') this.finish(delivery);
  }

  /** Keeps a delivery, counting the bytes of its event data while it is owed. */
  private put(delivery: OutboxDelivery): void {
    this.remove(delivery.id);
    this.deliveries.set(delivery.id, delivery);
    if (delivery.state !== 'pending') {
      this.keepFinished(delivery);
      return;
    }
    const bytes = eventDataBytes(delivery.event);
    this.owed.set(delivery.id, { webhookId: delivery.webhookId, bytes });
    this.owedPerWebhook.set(delivery.webhookId, (this.owedPerWebhook.get(delivery.webhookId) ?? 0) + 1);
    this.pendingDataBytes += bytes;
  }

  private remove(id: string): void {
    this.deliveries.delete(id);
    this.releaseData(id);
  }

  private releaseData(id: string): void {
    const owed = this.owed.get(id);
    if (owed === undefined) return;
    this.owed.delete(id);
    this.pendingDataBytes -= owed.bytes;
    const left = (this.owedPerWebhook.get(owed.webhookId) ?? 1) - 1;
    if (left > 0) this.owedPerWebhook.set(owed.webhookId, left);
    else this.owedPerWebhook.delete(owed.webhookId);
  }

  /** Bytes of event data the owed deliveries hold (see MAX_PENDING_DATA_BYTES). */
  get pendingBytes(): number {
    return this.pendingDataBytes;
  }

  /** A finished delivery keeps its history, not its event data; old ones are forgotten. */
  private finish(delivery: OutboxDelivery): void {
    this.releaseData(delivery.id);
    delivery.event = { ...delivery.event, data: {} };
    delivery.nextAttemptAt = null;
    this.keepFinished(delivery);
  }

  /** Adds a finished delivery to its webhook's history, forgetting the oldest beyond the cap. */
  private keepFinished(delivery: OutboxDelivery): void {
    let history = this.finishedPerWebhook.get(delivery.webhookId);
    if (history === undefined) {
      history = [];
      this.finishedPerWebhook.set(delivery.webhookId, history);
    }
    history.push(delivery.id);
    while (history.length > KEPT_FINISHED_PER_WEBHOOK) this.deliveries.delete(history.shift()!);
  }

  /** The log's live content: every delivery kept, as an `add` line. */
  private *liveLines(): Iterable<string> {
    for (const delivery of this.deliveries.values()) yield JSON.stringify({ op: 'add', delivery } satisfies LogLine);
  }

  /** Deliveries of one webhook, oldest first (Map order is insertion order). */
  forWebhook(webhookId: string): OutboxDelivery[] {
    return [...this.deliveries.values()].filter((delivery) => delivery.webhookId === webhookId);
  }

  async history(webhookId: string): Promise<OutboxDelivery[]> {
    return this.forWebhook(webhookId);
  }

  pendingCount(webhookId: string): number {
    return this.owedPerWebhook.get(webhookId) ?? 0;
  }

  /** Every delivery still owed. */
  pending(): OutboxDelivery[] {
    // `owed` holds exactly the pending ones; insertion order is creation order there too.
    return [...this.owed.keys()].map((id) => this.deliveries.get(id)!);
  }

  get(id: string): OutboxDelivery | null {
    return this.deliveries.get(id) ?? null;
  }

  /** Queues deliveries durably: resolves once their lines are on disk. */
  async add(deliveries: OutboxDelivery[]): Promise<void> {
    if (deliveries.length === 0) return;
    for (const delivery of deliveries) this.put(delivery);
    await this.log.appendAll(deliveries.map((delivery) => JSON.stringify({ op: 'add', delivery } satisfies LogLine)));
  }

  /** Records an attempt (or a cancellation) and the delivery's next state. */
  async update(id: string, state: DeliveryState, next: number | null, attempt: DeliveryAttemptRecord | null): Promise<void> {
    const entry: LogLine = { op: 'update', id, state, next, attempt };
    if (!this.deliveries.has(id)) return;
    this.apply(entry);
    await this.log.append(JSON.stringify(entry));
  }

  /** Forgets every delivery of a deleted webhook, and rewrites the log without them. */
  async forget(webhookId: string): Promise<void> {
    for (const delivery of this.forWebhook(webhookId)) this.remove(delivery.id);
    this.finishedPerWebhook.delete(webhookId);
    if (this.log.closed) return;
    await this.log.compact();
  }

  /** Resolves once everything queued so far is on disk. */
  async flush(): Promise<void> {
    await this.log.flushed();
  }

  async close(): Promise<void> {
    await this.log.flushed();
    await this.log.close();
  }
}

/** The size of an event's data as it is sent (UTF-16 length: close enough, and cheap). */
export function eventDataBytes(event: WebhookEvent): number {
  return JSON.stringify(event.data).length;
}
