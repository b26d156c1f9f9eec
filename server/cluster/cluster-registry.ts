// The collection registry of a cluster node: the local registry (a directory per collection,
// searched as in single-process mode) kept in step with the catalog in PostgreSQL. Creating or
// deleting goes through the catalog first, so every node follows; the rest is local.

import type { Collection, CollectionFacts, CollectionRegistry, DamagedCollection, LocalCollectionRegistry } from '../indexing/index.ts';
import { FolioError } from '../errors/index.ts';
import type { CollectionCatalog } from './collection-catalog.ts';
import type { CollectionSettingsPatch } from '../settings/index.ts';

export class ClusterRegistry implements CollectionRegistry {
  /** Names being created here: the catalog sync leaves them alone until they are in the catalog. */
  readonly creating = new Set<string>();

  constructor(
    private readonly local: LocalCollectionRegistry,
    private readonly catalog: CollectionCatalog,
    private readonly forget: (name: string) => Promise<void>,
    private readonly closeNode: () => Promise<void>,
  ) {}

  async create(name: string, language: string, settings: CollectionSettingsPatch = {}): Promise<CollectionFacts> {
    // Two creates of one name on this node: the second finds it taken, as in single-process mode.
    if (this.creating.has(name)) throw new FolioError('collection_exists', `collection '${name}' already exists`);
    this.creating.add(name);
    try {
      // The local create checks the name, language and settings; the catalog decides uniqueness.
      const info = await this.local.create(name, language, settings);
      try {
        await this.catalog.create({ name, language, createdAt: info.createdAt, settings: this.local.getCollection(name).storedSettings() });
      } catch (error) {
        await this.local.delete(name).catch(() => {});
        throw error;
      }
      return info;
    } finally {
      this.creating.delete(name);
    }
  }

  list(): CollectionFacts[] {
    return this.local.list();
  }

  hold(name: string): () => void {
    return this.local.hold(name);
  }

  captureInto(name: string, target: string, originalsDirName: string): void {
    this.local.captureInto(name, target, originalsDirName);
  }

  unavailable(): DamagedCollection[] {
    return this.local.unavailable();
  }

  get(name: string): Collection {
    return this.local.get(name);
  }

  async delete(name: string): Promise<void> {
    this.local.get(name);
    await this.catalog.delete(name);
    await this.forget(name);
  }

  async close(): Promise<void> {
    await this.closeNode();
    await this.local.close();
  }
}
