// API keys and sessions in PostgreSQL, for every node (cluster mode). Rows hold what the file
// stores hold: a key's SHA-256 and its public record, a session's SHA-256 and times — never a
// secret. A change commits here before it is answered and notifies the nodes, which reload
// the rows into their stores' memory (hash lookups stay local); a revoked key stops working
// on every node within a notification, at most a poll interval when notifications are lost.

import type { ApiKey } from '../api/index.ts';
import type { KeyStore, SessionStore, SharedKeyRow, SharedKeys, SharedSessionRow, SharedSessions } from '../auth/index.ts';
import type { ClusterDatabase } from './cluster-database.ts';

export const AUTH_CHANNEL = 'folio_auth';

export class SharedAuth implements SharedKeys {
  readonly sessions: SharedSessions;

  constructor(private readonly db: ClusterDatabase) {
    this.sessions = {
      put: (row, maxSessions) => this.putSession(row, maxSessions),
      remove: (hash) => this.removeSession(hash),
    };
  }

  async put(row: SharedKeyRow): Promise<void> {
    await this.db.transaction(async (client) => {
      await client.query('INSERT INTO folio_api_keys (id, hash, record) VALUES ($1, $2, $3)', [row.id, row.hash, JSON.stringify(row.record)]);
      await client.query('SELECT pg_notify($1, $2)', [AUTH_CHANNEL, 'keys']);
    });
  }

  async remove(id: string): Promise<void> {
    await this.db.transaction(async (client) => {
      await client.query('DELETE FROM folio_api_keys WHERE id = $1', [id]);
      await client.query('SELECT pg_notify($1, $2)', [AUTH_CHANNEL, 'keys']);
    });
  }

  async touch(used: { id: string; lastUsedAt: string }[]): Promise<void> {
    if (used.length === 0) return;
    await this.db.query(
      `UPDATE folio_api_keys AS k SET record = jsonb_set(k.record, '{last_used_at}', to_jsonb(u.last_used_at))
         FROM unnest($1::text[], $2::text[]) AS u(id, last_used_at)
        WHERE k.id = u.id AND (k.record->>'last_used_at' IS NULL OR k.record->>'last_used_at' < u.last_used_at)`,
      [used.map((row) => row.id), used.map((row) => row.lastUsedAt)],
    );
  }

  private async putSession(row: SharedSessionRow, maxSessions: number): Promise<void> {
    await this.db.transaction(async (client) => {
      await client.query('DELETE FROM folio_sessions WHERE expires_at <= now()');
      await client.query('INSERT INTO folio_sessions (hash, created_at, expires_at) VALUES ($1, to_timestamp($2 / 1000.0), to_timestamp($3 / 1000.0))', [
        row.hash,
        row.createdMs,
        row.expiresMs,
      ]);
      // The bound holds across nodes: the oldest sessions beyond it go.
      await client.query('DELETE FROM folio_sessions WHERE hash IN (SELECT hash FROM folio_sessions ORDER BY created_at DESC OFFSET $1)', [maxSessions]);
      await client.query('SELECT pg_notify($1, $2)', [AUTH_CHANNEL, 'sessions']);
    });
  }

  private async removeSession(hash: string): Promise<boolean> {
    return this.db.transaction(async (client) => {
      const { rowCount } = await client.query('DELETE FROM folio_sessions WHERE hash = $1', [hash]);
      await client.query('SELECT pg_notify($1, $2)', [AUTH_CHANNEL, 'sessions']);
      return (rowCount ?? 0) > 0;
    });
  }

  /** Loads every key and live session into the stores' memory. */
  async reload(keys: KeyStore, sessions: SessionStore): Promise<void> {
    const keyRows = await this.db.query<{ id: string; hash: string; record: ApiKey }>('SELECT id, hash, record FROM folio_api_keys');
    const sessionRows = await this.db.query<{ hash: string; created_ms: string; expires_ms: string }>(
      `SELECT hash, (extract(epoch FROM created_at) * 1000)::bigint AS created_ms, (extract(epoch FROM expires_at) * 1000)::bigint AS expires_ms
         FROM folio_sessions WHERE expires_at > now()`,
    );
    keys.adoptShared(keyRows.rows);
    sessions.adoptShared(sessionRows.rows.map((row) => ({ hash: row.hash, createdMs: Number(row.created_ms), expiresMs: Number(row.expires_ms) })));
  }
}
