// The cluster's PostgreSQL: one connection pool, the schema (created at start under an advisory
// lock, so nodes starting together do not race), and the error a client sees when PostgreSQL
// cannot be reached: 503 `cluster_unavailable` with Retry-After, nothing written.
//
// Tables (all prefixed `folio_`):
//   collections  name, language, created_at, settings, log_head (the last write-log sequence)
//   write_log    (collection, seq) → one encoded write; gapless per collection, trimmed once published
//   manifests    (collection, version) → the published manifest, the log seq it covers, the
//                object key of each file, the writer's fencing token
//   leases       collection → the writer: node id, fencing token, expiry (PostgreSQL's clock)
//   api_keys     id → SHA-256 of the key and its public record (never the key)
//   sessions     SHA-256 of the token → created and expiry times
//   nodes        node id → role, last heartbeat (how many nodes share a rate limit)
//   webhooks     id → the webhook with its signing secret (every node signs)
//   webhook_deliveries  the shared outbox: event, state, attempts, next attempt, claim

import pg from 'pg';
import { FolioError } from '../errors/index.ts';

/** Seconds a client is told to wait when PostgreSQL is unreachable. */
export const CLUSTER_RETRY_AFTER_SECONDS = 2;
/** Longest a query waits for a connection or an answer before the request fails with 503. */
const QUERY_TIMEOUT_MS = 5_000;
const SCHEMA_LOCK = 0x466f6c696f; // "Folio"

const SCHEMA = `
CREATE TABLE IF NOT EXISTS folio_collections (
  name text PRIMARY KEY,
  language text NOT NULL,
  created_at text NOT NULL,
  settings jsonb NOT NULL,
  log_head bigint NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS folio_write_log (
  collection text NOT NULL REFERENCES folio_collections(name) ON DELETE CASCADE,
  seq bigint NOT NULL,
  record bytea NOT NULL,
  appended_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (collection, seq)
);
CREATE TABLE IF NOT EXISTS folio_manifests (
  collection text NOT NULL REFERENCES folio_collections(name) ON DELETE CASCADE,
  version bigint NOT NULL,
  log_seq bigint NOT NULL,
  manifest jsonb NOT NULL,
  objects jsonb NOT NULL,
  fencing_token bigint NOT NULL,
  published_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (collection, version)
);
CREATE TABLE IF NOT EXISTS folio_api_keys (
  id text PRIMARY KEY,
  hash text NOT NULL UNIQUE,
  record jsonb NOT NULL
);
CREATE TABLE IF NOT EXISTS folio_sessions (
  hash text PRIMARY KEY,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE TABLE IF NOT EXISTS folio_webhooks (
  id text PRIMARY KEY,
  record jsonb NOT NULL
);
CREATE TABLE IF NOT EXISTS folio_webhook_deliveries (
  id text PRIMARY KEY,
  webhook_id text NOT NULL REFERENCES folio_webhooks(id) ON DELETE CASCADE,
  event jsonb NOT NULL,
  state text NOT NULL,
  attempts jsonb NOT NULL,
  next_attempt_at timestamptz,
  claimed_by text,
  claimed_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX IF NOT EXISTS folio_webhook_deliveries_due ON folio_webhook_deliveries (next_attempt_at) WHERE state = 'pending';
CREATE INDEX IF NOT EXISTS folio_webhook_deliveries_of ON folio_webhook_deliveries (webhook_id, created_at);
CREATE TABLE IF NOT EXISTS folio_nodes (
  node_id text PRIMARY KEY,
  role text NOT NULL,
  seen_at timestamptz NOT NULL
);
CREATE TABLE IF NOT EXISTS folio_leases (
  collection text PRIMARY KEY REFERENCES folio_collections(name) ON DELETE CASCADE,
  holder text NOT NULL,
  token bigint NOT NULL,
  expires_at timestamptz NOT NULL
);
`;

export class ClusterDatabase {
  readonly pool: pg.Pool;

  constructor(readonly url: string) {
    this.pool = new pg.Pool({
      connectionString: url,
      max: 8,
      connectionTimeoutMillis: QUERY_TIMEOUT_MS,
      query_timeout: QUERY_TIMEOUT_MS,
      idleTimeoutMillis: 10_000,
    });
    // An idle connection PostgreSQL drops (a restart) must not crash the process.
    this.pool.on('error', () => {});
  }

  /** Creates the tables if they are missing; the first node to start does it. */
  async migrate(): Promise<void> {
    await this.transaction(async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK]);
      await client.query(SCHEMA);
    });
  }

  async query<R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<pg.QueryResult<R>> {
    try {
      return await this.pool.query<R>(text, values);
    } catch (error) {
      throw unavailable(error);
    }
  }

  /** Runs `work` in one transaction; rolled back if it throws. */
  async transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw unavailable(error);
    }
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw unavailable(error);
    } finally {
      client.release();
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

/** Node's codes for a connection that could not be made or was lost. */
const CONNECTION_ERROR_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** What the pg driver says when a connection ends, times out or is refused. */
const CONNECTION_ERROR_MESSAGE = /connection terminated|timeout exceeded when trying to connect|query read timeout|connection (?:error|refused)|cannot use a pool after calling end|client has encountered a connection error/i;

/** True when PostgreSQL could not be reached (as opposed to an error of the query itself). */
export function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && CONNECTION_ERROR_CODES.has(code)) return true;
  // SQLSTATE classes 08 (connection), 57 (operator intervention: a shutdown) and 53 (resources).
  if (typeof code === 'string' && /^(08|57|53)[0-9A-Z]{3}$/.test(code)) return true;
  return error instanceof Error && CONNECTION_ERROR_MESSAGE.test(error.message);
}

/** A lost or refused connection becomes 503 `cluster_unavailable`; any other error passes through. */
function unavailable(error: unknown): unknown {
  if (!isConnectionError(error)) return error;
  return new FolioError(
    'cluster_unavailable',
    `the cluster's PostgreSQL cannot be reached (${(error as Error).message}); nothing was written — retry after Retry-After seconds`,
    undefined,
    CLUSTER_RETRY_AFTER_SECONDS,
  );
}

/** True for a PostgreSQL unique violation (a row that already exists). */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown }).code === '23505';
}
