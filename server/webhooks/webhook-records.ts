// The registered webhooks as both registries keep them in memory (a file under the data
// directory, or PostgreSQL in cluster mode): lookups, the order they are listed in, new records,
// and each webhook's health — failed attempts in a row, after MAX_CONSECUTIVE_FAILURES of which
// it is disabled. A registry says how a disabled webhook is saved.

import { randomBase62 } from '../auth/index.ts';
import type { WebhookInput, WebhookRecord } from './webhook-places.ts';

/** Failed attempts in a row after which a webhook is disabled (docs/api.md, "Webhooks"). */
export const MAX_CONSECUTIVE_FAILURES = 20;

/** A new webhook's record, enabled, with no failures. */
export function newWebhookRecord(input: WebhookInput, now: Date): WebhookRecord {
  return {
    id: `wh_${randomBase62(16)}`,
    url: input.url,
    events: [...new Set(input.events)],
    description: input.description,
    created_at: now.toISOString(),
    disabled: false,
    disabled_reason: null,
    secret: input.secret,
    consecutiveFailures: 0,
  };
}

export abstract class WebhookRecords {
  protected records = new Map<string, WebhookRecord>();

  get size(): number {
    return this.records.size;
  }

  get(id: string): WebhookRecord | null {
    return this.records.get(id) ?? null;
  }

  list(): WebhookRecord[] {
    return [...this.records.values()].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
  }

  /** A delivery attempt succeeded: the failure count starts again. */
  recordSuccess(id: string): void {
    const record = this.records.get(id);
    if (record !== undefined) record.consecutiveFailures = 0;
  }

  /** A delivery attempt failed; returns true when this disabled the webhook. */
  recordFailure(id: string): boolean {
    const record = this.records.get(id);
    if (record === undefined || record.disabled) return false;
    record.consecutiveFailures += 1;
    if (record.consecutiveFailures < MAX_CONSECUTIVE_FAILURES) return false;
    this.disable(id, 'failures');
    return true;
  }

  /** Stops deliveries to a webhook (it stays listed, with `disabled: true` and the reason). */
  disable(id: string, reason: 'gone' | 'failures'): void {
    const record = this.records.get(id);
    if (record === undefined || record.disabled) return;
    record.disabled = true;
    record.disabled_reason = reason;
    this.saveDisabled(record);
  }

  /** Makes a webhook's disabling durable. */
  protected abstract saveDisabled(record: WebhookRecord): void;
}
