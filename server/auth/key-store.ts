// The API key store (docs/api.md, "API keys, sessions and rate limits"): key records in one JSON file `<data>/api-keys.json` (mode
// 0600), replaced atomically and durably before create or delete returns. Only the SHA-256 of a
// key is kept; a presented key is found by a hash Map lookup (no comparison loop over secrets).
// `last_used_at` changes in memory on every use and reaches the disk only through `flush()`.

import path from 'node:path';
import { CorruptFileError } from '../../storage/index.ts';
import { validateKeyInput } from './key-input.ts';
import type { ApiKey } from '../api/index.ts';
import type { KeyCreateInput, KeyRateLimit } from './key-input.ts';
import { readPrivateJsonFile, writePrivateJsonFile } from '../../storage/index.ts';
import { isScope } from './scopes.ts';
import { checkKeyFilter } from './key-filter.ts';
import type { KeyFilter } from './key-filter.ts';
import type { FieldError } from '../errors/index.ts';
import type { SharedKeyRow, SharedKeys } from './shared-auth-state.ts';
import type { Scope } from './scopes.ts';
import {
  API_KEY_LENGTH,
  API_KEY_PREFIX,
  API_KEY_PREFIX_CHARS,
  isSha256Hex,
  newApiKeyValue,
  newKeyId,
  sha256Hex,
} from './secret-tokens.ts';

export const KEYS_FILE = 'api-keys.json';
/**
 * 2: records may hold a `filter`. Version 1 files (no filters) are still read; a server that only
 * knows version 1 refuses a version 2 file rather than load its filtered keys unfiltered.
 */
const FILE_VERSION = 2;
const READABLE_VERSIONS: readonly unknown[] = [1, 2];
const KEY_ID_PATTERN = /^key_[0-9A-Za-z]{16}$/;

/** A key as list and create show it: never the hash, never the plaintext. Frozen. */
export type KeyRecord = Readonly<ApiKey>;

/** What a lookup finds: the key's record and whether it has expired (expired keys get 401). */
export interface StoredKey {
  record: KeyRecord;
  expired: boolean;
}

export interface KeyStoreOptions {
  /** The clock (tests pass a fake one). */
  now?: () => Date;
}

interface Entry {
  hash: string;
  expiresMs: number | null;
  record: KeyRecord;
}

function freezeRecord(record: KeyRecord): KeyRecord {
  Object.freeze(record.scopes);
  if (record.collections !== null) Object.freeze(record.collections);
  if (record.rate_limit !== null) Object.freeze(record.rate_limit);
  return Object.freeze(record);
}

/** A stored record's filter (absent in records written before filters: none); one that no longer parses is damage, never "no filter". */
function storedFilter(filter: unknown, damaged: (reason: string) => Error): KeyFilter | null {
  if (filter === undefined || filter === null) return null;
  const errors: FieldError[] = [];
  const valid = checkKeyFilter(filter, errors);
  if (valid === null) throw damaged(`its filter is not a valid filter (${errors.map((error) => error.message).join('; ')})`);
  return valid;
}

function byCreation(a: Entry, b: Entry): number {
  const left = a.record.created_at;
  const right = b.record.created_at;
  if (left !== right) return left < right ? -1 : 1;
  return a.record.id < b.record.id ? -1 : a.record.id > b.record.id ? 1 : 0;
}

function isTimestamp(value: unknown): value is string {
  return typeof value === 'string' && !Number.isNaN(Date.parse(value));
}

/** Checks one stored key; returns a reason when it is damaged. */
function entryProblem(raw: Record<string, unknown>): string | null {
  if (typeof raw.id !== 'string' || !KEY_ID_PATTERN.test(raw.id)) return 'bad id';
  if (typeof raw.name !== 'string') return 'bad name';
  if (typeof raw.prefix !== 'string' || !raw.prefix.startsWith(API_KEY_PREFIX)) return 'bad prefix';
  if (!isSha256Hex(raw.hash)) return 'bad hash';
  if (!Array.isArray(raw.scopes) || raw.scopes.length === 0 || !raw.scopes.every(isScope)) return 'bad scopes';
  const collections = raw.collections;
  if (collections !== null && (!Array.isArray(collections) || !collections.every((c) => typeof c === 'string'))) {
    return 'bad collections';
  }
  const limit = raw.rate_limit as Record<string, unknown> | null;
  if (limit !== null) {
    if (typeof limit !== 'object' || !Number.isInteger(limit.per_second) || !Number.isInteger(limit.burst)) {
      return 'bad rate_limit';
    }
  }
  if (!isTimestamp(raw.created_at)) return 'bad created_at';
  if (raw.expires_at !== null && !isTimestamp(raw.expires_at)) return 'bad expires_at';
  if (raw.last_used_at !== null && !isTimestamp(raw.last_used_at)) return 'bad last_used_at';
  return null;
}

export class KeyStore {
  /** The key file; null when the keys are shared (cluster mode). */
  readonly file: string | null;
  readonly #shared: SharedKeys | null;
  readonly #now: () => Date;
  readonly #byId = new Map<string, Entry>();
  readonly #byHash = new Map<string, Entry>();
  /** last_used_at changed in memory since the file was last written. */
  #dirty = false;
  #closed = false;

  private constructor(file: string | null, now: () => Date, shared: SharedKeys | null = null) {
    this.file = file;
    this.#now = now;
    this.#shared = shared;
  }

  /** A store whose keys live in a shared place (cluster mode); `adoptShared` fills it. */
  static shared(shared: SharedKeys, options: KeyStoreOptions = {}): KeyStore {
    return new KeyStore(null, options.now ?? (() => new Date()), shared);
  }

  /** Takes the shared place's keys as they are now (last_used_at: the later of the two). */
  adoptShared(rows: readonly SharedKeyRow[]): void {
    this.#byId.clear();
    const previous = new Map([...this.#byHash].map(([hash, entry]) => [hash, entry.record.last_used_at]));
    this.#byHash.clear();
    for (const { id, hash, record } of rows) {
      const usedHere = previous.get(hash) ?? null;
      const lastUsed = usedHere !== null && (record.last_used_at === null || usedHere > record.last_used_at) ? usedHere : record.last_used_at;
      const filter = storedFilter(record.filter, (reason) => new Error(`API key ${id} in the shared store: ${reason}`));
      const entry: Entry = { hash, expiresMs: record.expires_at === null ? null : Date.parse(record.expires_at), record: freezeRecord({ ...record, last_used_at: lastUsed, filter }) };
      this.#byId.set(id, entry);
      this.#byHash.set(hash, entry);
    }
  }

  /** Loads `<dataDir>/api-keys.json` (missing = no keys); a damaged file is refused. */
  static open(dataDir: string, options: KeyStoreOptions = {}): KeyStore {
    const store = new KeyStore(path.join(dataDir, KEYS_FILE), options.now ?? (() => new Date()));
    store.#load();
    return store;
  }

  get size(): number {
    return this.#byId.size;
  }

  /** True when there are last_used_at changes not yet on disk. */
  get dirty(): boolean {
    return this.#dirty;
  }

  /**
   * Creates a key and writes it durably before returning. The plaintext `key` exists only in
   * this return value. Throws `validation_failed` for bad settings.
   */
  /**
   * Creates a key, durable before it returns (in the file; in cluster mode, in the shared
   * place). The plaintext `key` exists only in this return value. Throws `validation_failed`.
   */
  async add(input: KeyCreateInput): Promise<{ record: KeyRecord; key: string }> {
    if (this.#shared === null) return this.create(input);
    const { entry, key } = this.#newEntry(input);
    await this.#shared.put({ id: entry.record.id, hash: entry.hash, record: entry.record });
    this.#admit(entry);
    return { record: entry.record, key };
  }

  /** `add` for the file store, synchronous. */
  create(input: KeyCreateInput): { record: KeyRecord; key: string } {
    if (this.#shared !== null) throw new Error('a shared key store creates keys with add()');
    const { entry, key } = this.#newEntry(input);
    this.#write([...this.#byId.values(), entry]);
    this.#admit(entry);
    return { record: entry.record, key };
  }

  #newEntry(input: KeyCreateInput): { entry: Entry; key: string } {
    this.#assertOpen();
    const now = this.#now();
    const valid = validateKeyInput(input, now);
    let key: string;
    let hash: string;
    do {
      key = newApiKeyValue();
      hash = sha256Hex(key);
    } while (this.#byHash.has(hash));
    let id: string;
    do id = newKeyId();
    while (this.#byId.has(id));
    const record = freezeRecord({
      id,
      name: valid.name,
      prefix: key.slice(0, API_KEY_PREFIX_CHARS),
      scopes: valid.scopes,
      collections: valid.collections,
      rate_limit: valid.rateLimit,
      created_at: now.toISOString(),
      last_used_at: null,
      expires_at: valid.expiresAt,
      filter: valid.filter,
    });
    return { entry: { hash, expiresMs: valid.expiresAt === null ? null : Date.parse(valid.expiresAt), record }, key };
  }

  #admit(entry: Entry): void {
    this.#byId.set(entry.record.id, entry);
    this.#byHash.set(entry.hash, entry);
  }

  /** Every key's public record, oldest first. */
  list(): KeyRecord[] {
    return [...this.#byId.values()].sort(byCreation).map((entry) => entry.record);
  }

  get(id: string): KeyRecord | null {
    return this.#byId.get(id)?.record ?? null;
  }

  /** Revokes a key: on disk before returning, and it stops working at once. False if unknown. */
  /** Revokes a key: durable before returning (file or shared place), and it stops working at once. False if unknown. */
  async remove(id: string): Promise<boolean> {
    if (this.#shared === null) return this.delete(id);
    this.#assertOpen();
    const entry = this.#byId.get(id);
    if (entry === undefined) return false;
    await this.#shared.remove(id);
    this.#forget(entry);
    return true;
  }

  /** `remove` for the file store, synchronous. */
  delete(id: string): boolean {
    if (this.#shared !== null) throw new Error('a shared key store revokes keys with remove()');
    this.#assertOpen();
    const entry = this.#byId.get(id);
    if (entry === undefined) return false;
    this.#write([...this.#byId.values()].filter((other) => other !== entry));
    this.#forget(entry);
    return true;
  }

  #forget(entry: Entry): void {
    this.#byId.delete(entry.record.id);
    this.#byHash.delete(entry.hash);
  }

  /**
   * Finds the key a bearer token names, or null. Only the token's public shape (prefix and
   * length) is checked before hashing; the secret part is never compared, only its SHA-256
   * used as a Map key.
   */
  lookup(token: string): StoredKey | null {
    if (typeof token !== 'string' || token.length !== API_KEY_LENGTH || !token.startsWith(API_KEY_PREFIX)) {
      return null;
    }
    const entry = this.#byHash.get(sha256Hex(token));
    if (entry === undefined) return null;
    return { record: entry.record, expired: this.#expired(entry, this.#now().getTime()) };
  }

  isExpired(record: KeyRecord, now: Date = this.#now()): boolean {
    return record.expires_at !== null && Date.parse(record.expires_at) <= now.getTime();
  }

  /** Notes that a key was just used: memory only, written by the next `flush()` or write. */
  touch(id: string): void {
    const entry = this.#byId.get(id);
    if (entry === undefined || this.#closed) return;
    entry.record = freezeRecord({ ...entry.record, last_used_at: this.#now().toISOString() });
    this.#dirty = true;
  }

  /** Writes pending last_used_at changes; returns whether it wrote. A no-op once closed. */
  flush(): boolean {
    if (this.#closed || !this.#dirty) return false;
    if (this.#shared !== null) {
      this.#dirty = false;
      const used = [...this.#byId.values()].filter((entry) => entry.record.last_used_at !== null).map((entry) => ({ id: entry.record.id, lastUsedAt: entry.record.last_used_at! }));
      // Usage times are best effort: a failure leaves them for the next flush.
      this.#shared.touch(used).catch(() => (this.#dirty = true));
      return true;
    }
    this.#write([...this.#byId.values()]);
    return true;
  }

  /** Flushes and stops accepting changes. */
  close(): void {
    if (this.#closed) return;
    this.flush();
    this.#closed = true;
  }

  #expired(entry: Entry, nowMs: number): boolean {
    return entry.expiresMs !== null && entry.expiresMs <= nowMs;
  }

  #assertOpen(): void {
    if (this.#closed) throw new Error('the API key store is closed');
  }

  /** Replaces the file with exactly these entries (current in-memory last_used_at included). */
  #write(entries: Entry[]): void {
    if (this.file === null) return;
    const keys = entries.sort(byCreation).map(({ hash, record }) => ({
      id: record.id,
      name: record.name,
      prefix: record.prefix,
      hash,
      scopes: record.scopes,
      collections: record.collections,
      rate_limit: record.rate_limit,
      created_at: record.created_at,
      expires_at: record.expires_at,
      last_used_at: record.last_used_at,
      filter: record.filter,
    }));
    writePrivateJsonFile(this.file, { version: FILE_VERSION, keys });
    this.#dirty = false;
  }

  #load(): void {
    if (this.file === null) return;
    const file = this.file;
    const data = readPrivateJsonFile(file);
    if (data === undefined) return;
    const damaged = (reason: string) => new CorruptFileError(file, `${reason}; API keys are not loaded from it`);
    if (typeof data !== 'object' || data === null || Array.isArray(data)) throw damaged('not a JSON object');
    const { version, keys } = data as Record<string, unknown>;
    if (!READABLE_VERSIONS.includes(version)) throw damaged(`unsupported version ${JSON.stringify(version)}`);
    if (!Array.isArray(keys)) throw damaged('"keys" is not a list');
    keys.forEach((raw: unknown, index) => {
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw damaged(`keys[${index}] is not an object`);
      const fields = raw as Record<string, unknown>;
      const problem = entryProblem(fields);
      if (problem !== null) throw damaged(`keys[${index}]: ${problem}`);
      const hash = fields.hash as string;
      const id = fields.id as string;
      if (this.#byId.has(id)) throw damaged(`keys[${index}]: duplicate id ${id}`);
      if (this.#byHash.has(hash)) throw damaged(`keys[${index}]: duplicate hash`);
      const limit = fields.rate_limit as KeyRateLimit | null;
      const record = freezeRecord({
        id,
        name: fields.name as string,
        prefix: fields.prefix as string,
        scopes: [...(fields.scopes as Scope[])],
        collections: fields.collections === null ? null : [...(fields.collections as string[])],
        rate_limit: limit === null ? null : { per_second: limit.per_second, burst: limit.burst },
        created_at: fields.created_at as string,
        last_used_at: fields.last_used_at as string | null,
        expires_at: fields.expires_at as string | null,
        filter: storedFilter(fields.filter, (reason) => damaged(`keys[${index}]: ${reason}`)),
      });
      const entry: Entry = { hash, expiresMs: record.expires_at === null ? null : Date.parse(record.expires_at), record };
      this.#byId.set(id, entry);
      this.#byHash.set(hash, entry);
    });
  }
}
