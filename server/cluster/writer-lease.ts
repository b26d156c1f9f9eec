// Who writes a collection's segments: a lease row in PostgreSQL with a fencing token. A node
// takes the lease when it is free or expired (the token goes up by one), renews it while it
// writes, and publishes only in a transaction that finds its token still there — so a stale
// writer (paused, cut off) can never publish over its successor. Expiry uses PostgreSQL's
// clock, so the nodes' clocks do not matter.

import type { ClusterDatabase } from './cluster-database.ts';

export interface Lease {
  collection: string;
  token: number;
}

export class WriterLeases {
  constructor(
    private readonly db: ClusterDatabase,
    /** This node's id, as the leases name it. */
    readonly nodeId: string,
    /** How long a lease lasts without renewal. */
    readonly leaseMs: number,
  ) {}

  /** Takes the lease if it is free, expired or already this node's; null when another holds it. */
  async acquire(collection: string): Promise<Lease | null> {
    const { rows } = await this.db.query<{ token: string }>(
      `INSERT INTO folio_leases (collection, holder, token, expires_at)
         SELECT $1, $2, 1, now() + $3 * interval '1 millisecond' WHERE EXISTS (SELECT 1 FROM folio_collections WHERE name = $1)
       ON CONFLICT (collection) DO UPDATE
         SET holder = $2, token = folio_leases.token + 1, expires_at = now() + $3 * interval '1 millisecond'
         WHERE folio_leases.expires_at < now() OR folio_leases.holder = $2
       RETURNING token`,
      [collection, this.nodeId, this.leaseMs],
    );
    return rows.length === 0 ? null : { collection, token: Number(rows[0]!.token) };
  }

  /** Extends the lease; false when it is no longer this node's (taken over after expiring). */
  async renew(lease: Lease): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `UPDATE folio_leases SET expires_at = now() + $4 * interval '1 millisecond' WHERE collection = $1 AND holder = $2 AND token = $3`,
      [lease.collection, this.nodeId, lease.token, this.leaseMs],
    );
    return (rowCount ?? 0) > 0;
  }

  /** Gives the lease up at once (a node stopping), so a standby need not wait for it to expire. */
  async release(lease: Lease): Promise<void> {
    await this.db.query(`UPDATE folio_leases SET expires_at = now() - interval '1 second' WHERE collection = $1 AND holder = $2 AND token = $3`, [
      lease.collection,
      this.nodeId,
      lease.token,
    ]);
  }
}
