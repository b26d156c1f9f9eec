// What a client does to collections (docs/api.md, "Collections"), one call each: create and delete through
// the registry, each followed by its webhook event once the change is durable; list and get;
// change a collection's settings (no webhook event: docs/api.md, "Webhooks" has none for settings).

import type { CollectionInfo } from '../api/index.ts';
import type { CollectionRegistry } from '../indexing/index.ts';
import type { WebhookEvents } from '../webhooks/index.ts';
import { collectionRecord } from './collection-record.ts';
import type { CollectionSettingsPatch, TypoTolerancePatch } from '../settings/index.ts';

export class CollectionService {
  private readonly collections: CollectionRegistry;
  private readonly events: WebhookEvents;

  constructor(collections: CollectionRegistry, events: WebhookEvents) {
    this.collections = collections;
    this.events = events;
  }

  /**
   * Throws FolioError `collection_exists`, or `validation_failed` for an unknown language or bad
   * settings.
   */
  async create(name: string, language: string, settings?: CollectionSettingsPatch): Promise<CollectionInfo> {
    const collection = collectionRecord(await this.collections.create(name, language, settings));
    await this.events.emit('collection.created', { collection });
    return collection;
  }

  list(): CollectionInfo[] {
    return this.collections.list().map(collectionRecord);
  }

  /** Throws FolioError `collection_not_found`. */
  get(name: string): CollectionInfo {
    return collectionRecord(this.collections.get(name).info());
  }

  /** Throws FolioError `collection_not_found`, or `validation_failed` for bad settings. */
  async updateSettings(name: string, patch: CollectionSettingsPatch): Promise<CollectionInfo> {
    return collectionRecord(await this.collections.get(name).updateSettings(patch));
  }

  /** Removes the collection and its files. Throws FolioError `collection_not_found`. */
  async delete(name: string): Promise<void> {
    await this.collections.delete(name);
    await this.events.emit('collection.deleted', { collection: name });
  }
}
