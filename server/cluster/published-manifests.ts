// Published manifests: what every node searches. A publication is one transaction that finds
// the writer's fencing token still on the lease, adds the next version (the manifest, the log
// seq it covers, and the object key of each file it names) and notifies the nodes. Versions
// older than the grace period are dropped; their files go with the object store's sweep.

import type { Manifest } from '../../storage/index.ts';
import type { ClusterDatabase } from './cluster-database.ts';
import type { Lease } from './writer-lease.ts';

export const MANIFEST_CHANNEL = 'folio_manifest';

export interface PublishedManifest {
  version: number;
  /** Every write of the log up to this seq is in the manifest's segments. */
  logSeq: number;
  manifest: Manifest;
  /** Object key of each file the manifest names. */
  objects: Record<string, string>;
}

/** A writer found its lease gone when it came to publish: it must stop writing. */
export class LeaseLostError extends Error {
  constructor(collection: string) {
    super(`the writer lease of '${collection}' was taken over; this node no longer publishes`);
    this.name = 'LeaseLostError';
  }
}

export class PublishedManifests {
  constructor(private readonly db: ClusterDatabase) {}

  async latest(collection: string): Promise<PublishedManifest | null> {
    const { rows } = await this.db.query<{ version: string; log_seq: string; manifest: Manifest; objects: Record<string, string> }>(
      'SELECT version, log_seq, manifest, objects FROM folio_manifests WHERE collection = $1 ORDER BY version DESC LIMIT 1',
      [collection],
    );
    if (rows.length === 0) return null;
    const row = rows[0]!;
    return { version: Number(row.version), logSeq: Number(row.log_seq), manifest: row.manifest, objects: row.objects };
  }

  /** The latest version of every collection (a replica's poll). */
  async latestVersions(): Promise<Map<string, number>> {
    const { rows } = await this.db.query<{ collection: string; version: string }>('SELECT collection, max(version) AS version FROM folio_manifests GROUP BY collection');
    return new Map(rows.map((row) => [row.collection, Number(row.version)]));
  }

  /** Publishes the next version under `lease`; throws LeaseLostError when the token is stale. */
  async publish(lease: Lease, logSeq: number, manifest: Manifest, objects: Record<string, string>, keepMs: number): Promise<number> {
    return this.db.transaction(async (client) => {
      const held = await client.query<{ token: string }>('SELECT token FROM folio_leases WHERE collection = $1 FOR UPDATE', [lease.collection]);
      if (held.rows.length === 0 || Number(held.rows[0]!.token) !== lease.token) throw new LeaseLostError(lease.collection);
      const { rows } = await client.query<{ version: string }>(
        `INSERT INTO folio_manifests (collection, version, log_seq, manifest, objects, fencing_token)
           SELECT $1, coalesce(max(version), 0) + 1, $2, $3, $4, $5 FROM folio_manifests WHERE collection = $1
         RETURNING version`,
        [lease.collection, logSeq, JSON.stringify(manifest), JSON.stringify(objects), lease.token],
      );
      const version = Number(rows[0]!.version);
      // Older versions stay for the grace period: a replica may still be fetching their files.
      await client.query(`DELETE FROM folio_manifests WHERE collection = $1 AND version < $2 AND published_at < now() - $3 * interval '1 millisecond'`, [
        lease.collection,
        version,
        keepMs,
      ]);
      await client.query('SELECT pg_notify($1, $2)', [MANIFEST_CHANNEL, lease.collection]);
      return version;
    });
  }

  /** Object keys named by any manifest still kept for `collection`. */
  async referencedObjects(collection: string): Promise<Set<string>> {
    const { rows } = await this.db.query<{ objects: Record<string, string> }>('SELECT objects FROM folio_manifests WHERE collection = $1', [collection]);
    return new Set(rows.flatMap((row) => Object.values(row.objects)));
  }
}
