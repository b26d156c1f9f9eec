// Where API keys and sessions live when several nodes share them (cluster mode, PostgreSQL):
// what the key and session stores need of that place. Each node keeps every key and session in
// memory for hash lookups; a change is committed to the shared place before it is answered,
// and the node adopts the others' changes when it hears of them (server/cluster/).

import type { ApiKey } from '../api/index.ts';

/** One API key as it is shared: its id, the SHA-256 of the key, and the public record. */
export interface SharedKeyRow {
  id: string;
  hash: string;
  record: ApiKey;
}

export interface SharedSessionRow {
  hash: string;
  createdMs: number;
  expiresMs: number;
}

export interface SharedKeys {
  put(row: SharedKeyRow): Promise<void>;
  remove(id: string): Promise<void>;
  /** Best effort: last_used_at times that changed in memory. */
  touch(used: { id: string; lastUsedAt: string }[]): Promise<void>;
}

export interface SharedSessions {
  /** Adds a session; the place keeps at most `maxSessions` live ones, the oldest going first. */
  put(row: SharedSessionRow, maxSessions: number): Promise<void>;
  remove(hash: string): Promise<boolean>;
}
