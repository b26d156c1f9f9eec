// Dashboard and CLI sessions (docs/api.md, "API keys, sessions and rate limits"): `folio_sess_…` tokens valid for 12 hours, kept only as
// SHA-256 hashes in `<data>/sessions.json` (mode 0600, replaced atomically and durably) so they
// survive restarts. Expired sessions are refused and pruned; at most `maxSessions` live at once
// (creating one more evicts the oldest).

import path from 'node:path';
import { CorruptFileError } from '../../storage/index.ts';
import { readPrivateJsonFile, writePrivateJsonFile } from '../../storage/index.ts';
import {
  isSha256Hex,
  newSessionToken,
  SESSION_TOKEN_LENGTH,
  SESSION_TOKEN_PREFIX,
  sha256Hex,
} from './secret-tokens.ts';

import type { SharedSessionRow, SharedSessions } from './shared-auth-state.ts';

export const SESSIONS_FILE = 'sessions.json';
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;
export const MAX_SESSIONS = 1_000;
const FILE_VERSION = 1;

export interface SessionInfo {
  createdAt: string;
  expiresAt: string;
}

export interface SessionStoreOptions {
  /** The clock (tests pass a fake one). */
  now?: () => Date;
  /** Session lifetime; 12 hours by default. */
  ttlMs?: number;
  /** Most live sessions kept; 1,000 by default. */
  maxSessions?: number;
}

interface Session {
  createdMs: number;
  expiresMs: number;
}

export class SessionStore {
  /** The sessions file; null when sessions are shared (cluster mode). */
  readonly file: string | null;
  readonly #shared: SharedSessions | null;
  readonly #now: () => Date;
  readonly #ttlMs: number;
  readonly #maxSessions: number;
  /** By token hash, oldest first (insertion order). */
  #sessions = new Map<string, Session>();
  #closed = false;

  private constructor(file: string | null, options: SessionStoreOptions, shared: SharedSessions | null = null) {
    this.file = file;
    this.#shared = shared;
    this.#now = options.now ?? (() => new Date());
    this.#ttlMs = options.ttlMs ?? SESSION_TTL_MS;
    this.#maxSessions = options.maxSessions ?? MAX_SESSIONS;
    if (!(this.#ttlMs > 0)) throw new RangeError('ttlMs must be positive');
    if (!Number.isInteger(this.#maxSessions) || this.#maxSessions < 1) {
      throw new RangeError('maxSessions must be a positive integer');
    }
  }

  /** Loads `<dataDir>/sessions.json` (missing = none), dropping expired sessions; a damaged file is refused. */
  static open(dataDir: string, options: SessionStoreOptions = {}): SessionStore {
    const store = new SessionStore(path.join(dataDir, SESSIONS_FILE), options);
    store.#load();
    return store;
  }

  /** A store whose sessions live in a shared place (cluster mode); `adoptShared` fills it. */
  static shared(shared: SharedSessions, options: SessionStoreOptions = {}): SessionStore {
    return new SessionStore(null, options, shared);
  }

  /** Takes the shared place's live sessions as they are now. */
  adoptShared(rows: readonly SharedSessionRow[]): void {
    const nowMs = this.#now().getTime();
    const sessions = new Map<string, Session>();
    for (const row of [...rows].sort((a, b) => a.createdMs - b.createdMs)) {
      if (row.expiresMs > nowMs) sessions.set(row.hash, { createdMs: row.createdMs, expiresMs: row.expiresMs });
    }
    this.#sessions = sessions;
  }

  /** Sessions held in memory (expired ones may linger until the next lookup or write). */
  get size(): number {
    return this.#sessions.size;
  }

  /** Opens a session, durable before it returns (file or shared place), evicting the oldest when the bound is reached. */
  async open(): Promise<{ token: string; expiresAt: string }> {
    if (this.#shared === null) return this.create();
    const { next, hash, session, token } = this.#newSession();
    await this.#shared.put({ hash, ...session }, this.#maxSessions);
    this.#sessions = next;
    return { token, expiresAt: new Date(session.expiresMs).toISOString() };
  }

  /** `open` for the file store, synchronous. */
  create(): { token: string; expiresAt: string } {
    if (this.#shared !== null) throw new Error('a shared session store opens sessions with open()');
    const { next, session, token } = this.#newSession();
    this.#write(next);
    this.#sessions = next;
    return { token, expiresAt: new Date(session.expiresMs).toISOString() };
  }

  #newSession(): { next: Map<string, Session>; hash: string; session: Session; token: string } {
    this.#assertOpen();
    const nowMs = this.#now().getTime();
    const next = this.#live(nowMs);
    while (next.size >= this.#maxSessions) next.delete(next.keys().next().value as string);
    let token: string;
    let hash: string;
    do {
      token = newSessionToken();
      hash = sha256Hex(token);
    } while (next.has(hash));
    const session: Session = { createdMs: nowMs, expiresMs: nowMs + this.#ttlMs };
    next.set(hash, session);
    return { next, hash, session, token };
  }

  /** The live session a token names, or null (unknown, malformed or expired — the latter is pruned). */
  lookup(token: string): SessionInfo | null {
    const hash = this.#hashOf(token);
    if (hash === null) return null;
    const session = this.#sessions.get(hash);
    if (session === undefined) return null;
    if (session.expiresMs <= this.#now().getTime()) {
      // Pruned in memory now; the file forgets it at the next write or on load.
      this.#sessions.delete(hash);
      return null;
    }
    return { createdAt: new Date(session.createdMs).toISOString(), expiresAt: new Date(session.expiresMs).toISOString() };
  }

  /** Ends a session (logout), durable before it returns (file or shared place). False when the token names no live session. */
  async end(token: string): Promise<boolean> {
    if (this.#shared === null) return this.delete(token);
    this.#assertOpen();
    const hash = this.#hashOf(token);
    if (hash === null || !this.#sessions.has(hash)) return false;
    await this.#shared.remove(hash);
    this.#sessions.delete(hash);
    return true;
  }

  /** `end` for the file store, synchronous. */
  delete(token: string): boolean {
    if (this.#shared !== null) throw new Error('a shared session store ends sessions with end()');
    this.#assertOpen();
    const hash = this.#hashOf(token);
    if (hash === null) return false;
    const nowMs = this.#now().getTime();
    const next = this.#live(nowMs);
    if (!next.delete(hash)) return false;
    this.#write(next);
    this.#sessions = next;
    return true;
  }

  /** Drops expired sessions from memory; returns how many. The file follows at the next write. */
  pruneExpired(): number {
    const before = this.#sessions.size;
    this.#sessions = this.#live(this.#now().getTime());
    return before - this.#sessions.size;
  }

  close(): void {
    this.#closed = true;
  }

  #assertOpen(): void {
    if (this.#closed) throw new Error('the session store is closed');
  }

  #hashOf(token: string): string | null {
    if (typeof token !== 'string' || token.length !== SESSION_TOKEN_LENGTH || !token.startsWith(SESSION_TOKEN_PREFIX)) {
      return null;
    }
    return sha256Hex(token);
  }

  /** A copy of the live sessions, oldest first. */
  #live(nowMs: number): Map<string, Session> {
    const live = new Map<string, Session>();
    for (const [hash, session] of this.#sessions) if (session.expiresMs > nowMs) live.set(hash, session);
    return live;
  }

  #write(sessions: Map<string, Session>): void {
    if (this.file === null) return;
    const list = [...sessions].map(([hash, session]) => ({
      hash,
      created_at: new Date(session.createdMs).toISOString(),
      expires_at: new Date(session.expiresMs).toISOString(),
    }));
    writePrivateJsonFile(this.file, { version: FILE_VERSION, sessions: list });
  }

  #load(): void {
    if (this.file === null) return;
    const file = this.file;
    const data = readPrivateJsonFile(file);
    if (data === undefined) return;
    const damaged = (reason: string) =>
      new CorruptFileError(file, `${reason}; delete the file to end every session`);
    if (typeof data !== 'object' || data === null || Array.isArray(data)) throw damaged('not a JSON object');
    const { version, sessions } = data as Record<string, unknown>;
    if (version !== FILE_VERSION) throw damaged(`unsupported version ${JSON.stringify(version)}`);
    if (!Array.isArray(sessions)) throw damaged('"sessions" is not a list');
    const loaded: Array<[string, Session]> = [];
    sessions.forEach((raw: unknown, index) => {
      const fields = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
      const createdMs = typeof fields.created_at === 'string' ? Date.parse(fields.created_at) : NaN;
      const expiresMs = typeof fields.expires_at === 'string' ? Date.parse(fields.expires_at) : NaN;
      if (!isSha256Hex(fields.hash) || Number.isNaN(createdMs) || Number.isNaN(expiresMs)) {
        throw damaged(`sessions[${index}] is not a valid session`);
      }
      loaded.push([fields.hash, { createdMs, expiresMs }]);
    });
    loaded.sort((a, b) => a[1].createdMs - b[1].createdMs);
    const nowMs = this.#now().getTime();
    for (const [hash, session] of loaded) if (session.expiresMs > nowMs) this.#sessions.set(hash, session);
    // A file written with a larger bound keeps only the newest sessions.
    while (this.#sessions.size > this.#maxSessions) this.#sessions.delete(this.#sessions.keys().next().value as string);
  }
}
