// The webhook outbox (SPEC §8): every delivery owed, on disk, so deliveries survive a restart
// or kill -9 (at-least-once). One append-only NDJSON log, `<data>/webhook-outbox.log`:
//   {"op":"add","delivery":{…}}                   a delivery owed (the event, its webhook, when)
//   {"op":"update","id":…,"state":…,"next":…,"attempt":{…}}   an attempt and what follows
// Appends are group-committed: concurrent callers share one write and one fdatasync, and
// `add` resolves only once its line is on disk. At start the log is replayed (a torn last line
// from a crash is ignored) and rewritten compactly; it is compacted again when it grows.
// Finished deliveries are kept, without their event data, as the recent history the API shows.

import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomicWith } from '../../storage/index.ts';
import { PRIVATE_FILE_MODE } from '../../storage/index.ts';
import type { WebhookEventType } from './webhook-events.ts';

export const OUTBOX_FILE = 'webhook-outbox.log';
/** Finished deliveries kept per webhook for `GET /v1/webhooks/{id}/deliveries`. */
export const KEPT_FINISHED_PER_WEBHOOK = 50;
/** Most deliveries owed to one webhook; events beyond it are not queued (and counted). */
export const MAX_PENDING_PER_WEBHOOK = 10_000;
/** Most bytes of event data all owed deliveries may hold in memory; events beyond are not queued. */
export const MAX_PENDING_DATA_BYTES = 256 * 1024 * 1024;
/** Log size at which it is rewritten with only what is still needed. */
const COMPACT_AT_BYTES = 16 * 1024 * 1024;
/** How much of the log is read at a time at start. */
const REPLAY_CHUNK_BYTES = 1024 * 1024;

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

interface Waiter {
  resolve: () => void;
  reject: (error: unknown) => void;
}

type LogLine =
  | { op: 'add'; delivery: OutboxDelivery }
  | { op: 'update'; id: string; state: DeliveryState; next: number | null; attempt: DeliveryAttemptRecord | null; error?: string };

export class WebhookOutbox {
  private readonly file: string;
  private fd: number;
  private bytes = 0;
  /** The log's size right after the last rewrite. */
  private compactedBytes = 0;
  private readonly deliveries = new Map<string, OutboxDelivery>();
  /** Each owed delivery's webhook and bytes of event data; their sums (to bound memory). */
  private readonly owed = new Map<string, { webhookId: string; bytes: number }>();
  private readonly owedPerWebhook = new Map<string, number>();
  private pendingDataBytes = 0;
  /** Finished deliveries of each webhook, in the order they finished (the kept history). */
  private readonly finishedPerWebhook = new Map<string, string[]>();
  private queued: string[] = [];
  private flushing: Promise<void> | null = null;
  private waiting: Waiter[] = [];
  /** A rewrite asked for (after `forget`): done by the flush loop, never under a write. */
  private rewriteWaiting: Waiter[] = [];
  /** A write failed part-way: the next one starts on a fresh line (the torn one is skipped). */
  private tornLine = false;
  private closed = false;

  private constructor(file: string) {
    this.file = file;
    this.fd = -1;
  }

  static open(dataDir: string): WebhookOutbox {
    const outbox = new WebhookOutbox(path.join(dataDir, OUTBOX_FILE));
    outbox.replay();
    outbox.rewrite();
    return outbox;
  }

  /** Applies the log line by line, read in chunks (it may be larger than one string can be). */
  private replay(): void {
    let fd: number;
    try {
      fd = fs.openSync(this.file, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    try {
      const chunk = Buffer.alloc(REPLAY_CHUNK_BYTES);
      let carry: Buffer[] = [];
      for (let read = fs.readSync(fd, chunk); read > 0; read = fs.readSync(fd, chunk)) {
        let start = 0;
        for (let end = chunk.indexOf(0x0a, 0); end !== -1 && end < read; end = chunk.indexOf(0x0a, start)) {
          carry.push(chunk.subarray(start, end));
          this.applyLine(Buffer.concat(carry).toString('utf8'));
          carry = [];
          start = end + 1;
        }
        carry.push(Buffer.from(chunk.subarray(start, read)));
      }
      this.applyLine(Buffer.concat(carry).toString('utf8'));
    } finally {
      fs.closeSync(fd);
    }
  }

  private applyLine(line: string): void {
    if (line === '') return;
    let entry: LogLine;
    try {
      entry = JSON.parse(line) as LogLine;
    } catch {
      return; // a line torn by a crash: its append was never acknowledged
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

  /**
   * Writes the current state as a fresh log (0600 before any byte is written) and switches
   * appends to it. On failure the old log stays in use, whole.
   */
  private rewrite(): void {
    let written = 0;
    writeFileAtomicWith(this.file, (fd) => {
      fs.fchmodSync(fd, PRIVATE_FILE_MODE);
      // Line by line into a bounded buffer: the log may be larger than one string can be.
      let pending: string[] = [];
      let pendingLength = 0;
      const flush = (): void => {
        const bytes = Buffer.from(pending.join(''), 'utf8');
        fs.writeSync(fd, bytes);
        written += bytes.length;
        pending = [];
        pendingLength = 0;
      };
      for (const delivery of this.deliveries.values()) {
        const line = JSON.stringify({ op: 'add', delivery } satisfies LogLine) + '\n';
        pending.push(line);
        pendingLength += line.length;
        if (pendingLength >= REPLAY_CHUNK_BYTES) flush();
      }
      flush();
    });
    const fd = fs.openSync(this.file, 'a', PRIVATE_FILE_MODE);
    if (this.fd >= 0) fs.closeSync(this.fd);
    this.fd = fd;
    this.bytes = written;
    this.compactedBytes = written;
  }

  /** Deliveries of one webhook, oldest first (Map order is insertion order). */
  forWebhook(webhookId: string): OutboxDelivery[] {
    return [...this.deliveries.values()].filter((delivery) => delivery.webhookId === webhookId);
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
    await this.append(deliveries.map((delivery) => ({ op: 'add', delivery })));
  }

  /** Records an attempt (or a cancellation) and the delivery's next state. */
  async update(id: string, state: DeliveryState, next: number | null, attempt: DeliveryAttemptRecord | null): Promise<void> {
    const entry: LogLine = { op: 'update', id, state, next, attempt };
    if (!this.deliveries.has(id)) return;
    this.apply(entry);
    await this.append([entry]);
  }

  /** Forgets every delivery of a deleted webhook, and rewrites the log without them. */
  async forget(webhookId: string): Promise<void> {
    for (const delivery of this.forWebhook(webhookId)) this.remove(delivery.id);
    this.finishedPerWebhook.delete(webhookId);
    if (this.closed) return;
    await new Promise<void>((resolve, reject) => {
      this.rewriteWaiting.push({ resolve, reject });
      this.kick();
    });
  }

  private append(entries: LogLine[]): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the webhook outbox is closed'));
    for (const entry of entries) this.queued.push(JSON.stringify(entry) + '\n');
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.kick();
    });
  }

  /** Starts the flush loop unless it runs. */
  private kick(): void {
    this.flushing ??= this.flushLoop();
  }

  /**
   * Writes queued lines in batches until none are left (each batch one write and one sync),
   * and rewrites the log when asked or when it has grown: the only place the file changes.
   */
  private async flushLoop(): Promise<void> {
    // Never finish synchronously: `flushing` must be set before the loop clears it.
    await Promise.resolve();
    try {
      while (this.queued.length > 0 || this.rewriteWaiting.length > 0) {
        if (this.queued.length > 0) {
          await this.writeBatch();
          continue;
        }
        const waiters = this.rewriteWaiting;
        this.rewriteWaiting = [];
        settle(waiters, () => this.rewrite());
      }
      // Compacted once it is over 16 MiB and twice its size after the last rewrite.
      if (this.bytes > Math.max(COMPACT_AT_BYTES, 2 * this.compactedBytes)) {
        try {
          this.rewrite();
        } catch {
          // Compaction is an optimisation: the log stays as it is, and is tried again later.
        }
      }
    } finally {
      this.flushing = null;
    }
  }

  private async writeBatch(): Promise<void> {
    const text = (this.tornLine ? '\n' : '') + this.queued.join('');
    const batch = Buffer.from(text, 'utf8');
    const waiters = this.waiting;
    this.queued = [];
    this.waiting = [];
    try {
      this.tornLine = true; // until the whole batch is written
      await writeAll(this.fd, batch);
      this.tornLine = false;
      await new Promise<void>((resolve, reject) => fs.fdatasync(this.fd, (error) => (error ? reject(error) : resolve())));
      this.bytes += batch.length;
      for (const waiter of waiters) waiter.resolve();
    } catch (error) {
      for (const waiter of waiters) waiter.reject(error);
    }
  }

  /** Resolves once everything queued so far is on disk. */
  async flush(): Promise<void> {
    while (this.flushing !== null) await this.flushing;
  }

  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
    if (this.fd >= 0) fs.closeSync(this.fd);
    this.fd = -1;
  }
}

/** The size of an event's data as it is sent (UTF-16 length: close enough, and cheap). */
export function eventDataBytes(event: WebhookEvent): number {
  return JSON.stringify(event.data).length;
}

function settle(waiters: Waiter[], action: () => void): void {
  try {
    action();
    for (const waiter of waiters) waiter.resolve();
  } catch (error) {
    for (const waiter of waiters) waiter.reject(error);
  }
}

function writeAll(fd: number, data: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const step = (offset: number): void => {
      fs.write(fd, data, offset, data.length - offset, null, (error, written) => {
        if (error) return reject(error);
        if (offset + written < data.length) step(offset + written);
        else resolve();
      });
    };
    step(0);
  });
}
