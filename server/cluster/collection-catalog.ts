// The collections every node serves, as PostgreSQL lists them: created and deleted through any
// node, followed by all (each keeps a local directory per collection). A collection is known
// by its name and creation time, so one deleted and created again is a new collection.

import type { StoredSettings } from '../indexing/index.ts';
import { FolioError } from '../errors/index.ts';
import type { ClusterDatabase } from './cluster-database.ts';
import { isUniqueViolation } from './cluster-database.ts';

export const CATALOG_CHANNEL = 'folio_catalog';

export interface CatalogCollection {
  name: string;
  language: string;
  createdAt: string;
  settings: StoredSettings;
}

export class CollectionCatalog {
  constructor(private readonly db: ClusterDatabase) {}

  async list(): Promise<CatalogCollection[]> {
    const { rows } = await this.db.query<{ name: string; language: string; created_at: string; settings: StoredSettings }>(
      'SELECT name, language, created_at, settings FROM folio_collections ORDER BY name',
    );
    return rows.map((row) => ({ name: row.name, language: row.language, createdAt: row.created_at, settings: row.settings }));
  }

  /** Adds a collection; 409 `collection_exists` when the name is taken. */
  async create(collection: CatalogCollection): Promise<void> {
    try {
      await this.db.transaction(async (client) => {
        await client.query('INSERT INTO folio_collections (name, language, created_at, settings) VALUES ($1, $2, $3, $4)', [
          collection.name,
          collection.language,
          collection.createdAt,
          JSON.stringify(collection.settings),
        ]);
        await client.query('SELECT pg_notify($1, $2)', [CATALOG_CHANNEL, collection.name]);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new FolioError('collection_exists', `collection '${collection.name}' already exists`);
      throw error;
    }
  }

  async updateSettings(name: string, settings: StoredSettings): Promise<void> {
    await this.db.transaction(async (client) => {
      const { rowCount } = await client.query('UPDATE folio_collections SET settings = $2 WHERE name = $1', [name, JSON.stringify(settings)]);
      if (rowCount === 0) throw new FolioError('collection_not_found', `collection '${name}' does not exist`);
      await client.query('SELECT pg_notify($1, $2)', [CATALOG_CHANNEL, name]);
    });
  }

  /** Removes a collection with its log, manifests and lease; false when it was not there. */
  async delete(name: string): Promise<boolean> {
    return this.db.transaction(async (client) => {
      const { rowCount } = await client.query('DELETE FROM folio_collections WHERE name = $1', [name]);
      await client.query('SELECT pg_notify($1, $2)', [CATALOG_CHANNEL, name]);
      return (rowCount ?? 0) > 0;
    });
  }
}
