// The webhook registry (docs/api.md, "Webhooks"): records in `<data>/webhooks.json` (mode 0600), replaced
// atomically and durably before a create, delete or disable returns. The signing secret has to
// be kept as it is (it signs every delivery, so it cannot be hashed like an API key); the file
// is readable by its owner only, and the secret is shown once, in the create answer.
// Consecutive failed attempts are counted in memory and saved when a webhook is disabled.

import path from 'node:path';
import { CorruptFileError } from '../../storage/index.ts';
import { readPrivateJsonFile, writePrivateJsonFile } from '../../storage/index.ts';
import { isWebhookEventPattern } from './webhook-events.ts';
import type { WebhookEventPattern } from './webhook-events.ts';
import type { WebhookInput, WebhookRecord, WebhookRegistry, WebhookView } from './webhook-places.ts';
import { WebhookRecords, newWebhookRecord } from './webhook-records.ts';

export { MAX_CONSECUTIVE_FAILURES } from './webhook-records.ts';
export const WEBHOOKS_FILE = 'webhooks.json';
const FILE_VERSION = 1;
const WEBHOOK_ID_PATTERN = /^wh_[0-9A-Za-z]{16}$/;
/** Most webhooks one server keeps (each one costs a delivery per event). */
export const MAX_WEBHOOKS = 100;

interface StoredWebhook extends WebhookView {
  secret: string;
}

function isStoredWebhook(value: unknown): value is StoredWebhook {
  const w = value as Partial<StoredWebhook> | null;
  return (
    typeof w === 'object' && w !== null && typeof w.id === 'string' && WEBHOOK_ID_PATTERN.test(w.id) &&
    typeof w.url === 'string' && Array.isArray(w.events) && w.events.every(isWebhookEventPattern) &&
    (w.description === null || typeof w.description === 'string') && typeof w.created_at === 'string' &&
    typeof w.disabled === 'boolean' && (w.disabled_reason === null || typeof w.disabled_reason === 'string') &&
    typeof w.secret === 'string' && w.secret.startsWith('whsec_')
  );
}

export function webhookView(record: WebhookRecord): WebhookView {
  const { id, url, events, description, created_at, disabled, disabled_reason } = record;
  return { id, url, events: [...events], description, created_at, disabled, disabled_reason };
}

export class WebhookStore extends WebhookRecords implements WebhookRegistry {
  private readonly file: string;
  private readonly now: () => Date;

  private constructor(file: string, now: () => Date) {
    super();
    this.file = file;
    this.now = now;
  }

  /** Reads `<dataDir>/webhooks.json` (none yet: no webhooks). A damaged file stops start-up. */
  static open(dataDir: string, options: { now?: () => Date } = {}): WebhookStore {
    const store = new WebhookStore(path.join(dataDir, WEBHOOKS_FILE), options.now ?? (() => new Date()));
    const content = readPrivateJsonFile(store.file) as { version?: unknown; webhooks?: unknown } | null | undefined;
    if (content === undefined) return store;
    if (content === null || content.version !== FILE_VERSION || !Array.isArray(content.webhooks) || !content.webhooks.every(isStoredWebhook)) {
      throw new CorruptFileError(store.file, 'not a webhooks file of this version');
    }
    for (const stored of content.webhooks as StoredWebhook[]) store.records.set(stored.id, { ...stored, consecutiveFailures: 0 });
    return store;
  }

  private save(): void {
    const webhooks: StoredWebhook[] = [...this.records.values()].map((record) => ({ ...webhookView(record), secret: record.secret }));
    writePrivateJsonFile(this.file, { version: FILE_VERSION, webhooks });
  }

  async add(input: WebhookInput): Promise<WebhookRecord> {
    return this.create(input);
  }

  async remove(id: string): Promise<boolean> {
    return this.delete(id);
  }

  create(input: WebhookInput): WebhookRecord {
    const record = newWebhookRecord(input, this.now());
    this.records.set(record.id, record);
    try {
      this.save();
    } catch (error) {
      this.records.delete(record.id);
      throw error;
    }
    return record;
  }

  /** Removes a webhook durably; false when there is none with this id. */
  delete(id: string): boolean {
    const record = this.records.get(id);
    if (record === undefined) return false;
    this.records.delete(id);
    try {
      this.save();
    } catch (error) {
      this.records.set(id, record);
      throw error;
    }
    return true;
  }

  protected saveDisabled(): void {
    this.save();
  }
}
