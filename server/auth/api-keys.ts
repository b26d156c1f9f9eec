// API key management as clients see it (docs/api.md, "API keys, sessions and rate limits"): create (the plaintext key is in this answer
// only), list and revoke, with no escalation: a key can create, see and revoke only keys
// whose scopes and collections are within its own, and creates only keys that expire no later
// and are limited no higher than itself (left out, they inherit its expiry and its rate
// limit); a key with a filter creates only keys that see no more than it (its filter ANDed with
// theirs, key-filter.ts); the master key and sessions hold every right. Each change is followed by its webhook event (never carrying the key itself), and a
// revoked key's rate-limit bucket is forgotten.

import { FolioError } from '../errors/index.ts';
import { validateKeyInput } from './key-input.ts';
import type { KeyCreateInput } from './key-input.ts';
import { andKeyFilters } from './key-filter.ts';
import type { KeyFilter } from './key-filter.ts';
import type { KeyRecord, KeyStore } from './key-store.ts';
import { grantsOf } from './principal.ts';
import type { Principal } from './principal.ts';
import { DEFAULT_SCOPES, isSubset } from './scopes.ts';
import type { Scope } from './scopes.ts';
import type { RequestRateLimiter } from './token-bucket-limiter.ts';

/** Told about key changes once they are durable (the webhook service, structurally). */
export interface KeyEvents {
  emit(type: 'key.created' | 'key.deleted', data: Record<string, unknown>): Promise<void>;
}

/** Does `principal` hold at least what a key with these grants would? */
function covers(principal: Principal, scopes: readonly Scope[], collections: readonly string[] | null): boolean {
  const own = grantsOf(principal);
  return isSubset(scopes, collections, own.scopes, own.collections);
}

const keyNotFound = (id: string): FolioError => new FolioError('key_not_found', `API key '${id}' does not exist`);

export class ApiKeys {
  private readonly keys: KeyStore;
  private readonly rateLimiter: RequestRateLimiter | null;
  private readonly events: KeyEvents;

  constructor(keys: KeyStore, rateLimiter: RequestRateLimiter | null, events: KeyEvents) {
    this.keys = keys;
    this.rateLimiter = rateLimiter;
    this.events = events;
  }

  /** Creates a key within `by`'s own rights (default scopes `search` and `write`, all collections). */
  async create(by: Principal, input: KeyCreateInput): Promise<KeyRecord & { key: string }> {
    const filtered = (input.filter !== undefined && input.filter !== null) || (by.kind === 'key' && by.filter !== null);
    // A key with a filter has only the search scope (asking for more is the key input's 400).
    const scopes = input.scopes ?? (filtered ? ['search' as const] : [...DEFAULT_SCOPES]);
    const inheritedCollections = by.kind === 'key' && by.filter !== null && by.collections !== null ? [...by.collections] : null;
    const collections = input.collections ?? inheritedCollections;
    if (!covers(by, scopes, collections)) throw new FolioError('forbidden', 'a key can only create keys within its own scopes and collections');
    let bounded = by.kind === 'key' ? this.withinOwnLimits(by, input) : input;
    // A filtered key's keys see no more than it does: its filter ANDed with theirs.
    if (by.kind === 'key' && by.filter !== null) {
      validateKeyInput({ ...bounded, scopes, collections }, new Date());
      bounded = { ...bounded, filter: andKeyFilters(by.filter, (bounded.filter ?? null) as KeyFilter | null) };
    }
    const { record, key } = await this.keys.add({ ...bounded, scopes, collections });
    await this.events.emit('key.created', { key: record });
    return { ...record, key };
  }

  /** The keys `by` could have created (never the keys themselves). */
  list(by: Principal): KeyRecord[] {
    return this.keys.list().filter((record) => this.visible(by, record));
  }

  /** Revokes a key at once. A key `by` could not have created is as good as absent to it. */
  async delete(by: Principal, id: string): Promise<void> {
    const record = this.keys.get(id);
    if (record === null || !this.visible(by, record)) throw keyNotFound(id);
    await this.keys.remove(id);
    await this.events.emit('key.deleted', { key: { id } });
    this.rateLimiter?.forget(`key:${id}`);
  }

  /**
   * `input` with the creating key's expiry and rate limit where it gives none; 403 when it asks
   * for a later expiry or a higher rate than the creator's own (its rate, else the default).
   */
  private withinOwnLimits(by: Extract<Principal, { kind: 'key' }>, input: KeyCreateInput): KeyCreateInput {
    let { expiresAt, rateLimit } = input;
    if (by.expiresAt !== null) {
      if (expiresAt === undefined || expiresAt === null) expiresAt = by.expiresAt;
      else if (!(Date.parse(expiresAt) <= Date.parse(by.expiresAt))) {
        throw new FolioError('forbidden', `a key can only create keys that expire no later than itself (${by.expiresAt})`, [
          { path: '/body/expires_at', message: `must be at most ${by.expiresAt}, the creating key's own expiry` },
        ]);
      }
    }
    const own = by.rateLimit ?? this.rateLimiter?.defaultRate ?? null;
    if (own !== null) {
      if (rateLimit === undefined || rateLimit === null) {
        if (by.rateLimit !== null) rateLimit = { per_second: own.perSecond, burst: own.burst };
      } else if (rateLimit.per_second > own.perSecond || rateLimit.burst > own.burst) {
        throw new FolioError('forbidden', `a key can only create keys limited no higher than itself (${own.perSecond}/s, burst ${own.burst})`, [
          { path: '/body/rate_limit', message: `must be at most ${own.perSecond} per second and a burst of ${own.burst}` },
        ]);
      }
    }
    return { ...input, expiresAt, rateLimit };
  }

  private visible(by: Principal, record: KeyRecord): boolean {
    return covers(by, record.scopes, record.collections);
  }
}
