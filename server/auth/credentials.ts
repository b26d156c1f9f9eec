// Who a bearer token is (docs/api.md, "API keys, sessions and rate limits"): the master key (compared as SHA-256 digests in constant
// time), a session, or an API key (looked up by its SHA-256, so no timing leak). Unknown,
// revoked or expired tokens are nobody. The HTTP layer asks here and never sees key records.

import { createHash, timingSafeEqual } from 'node:crypto';
import type { KeyStore } from './key-store.ts';
import type { Principal } from './principal.ts';
import { expandScopes } from './scopes.ts';
import type { SessionStore } from './session-store.ts';

function tokenDigest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

export class Credentials {
  private readonly masterDigest: Buffer;
  private readonly keys: KeyStore;
  private readonly sessions: SessionStore;

  constructor(masterKey: string, keys: KeyStore, sessions: SessionStore) {
    this.masterDigest = tokenDigest(masterKey);
    this.keys = keys;
    this.sessions = sessions;
  }

  /** Whether `token` is the master key (constant time). */
  isMasterKey(token: string): boolean {
    return timingSafeEqual(tokenDigest(token), this.masterDigest);
  }

  /** The principal `token` stands for, or null for an unknown, revoked or expired one. */
  principalOf(token: string): Principal | null {
    if (this.isMasterKey(token)) return { kind: 'master' };
    const session = this.sessions.lookup(token);
    if (session !== null) return { kind: 'session', tokenHash: tokenDigest(token).toString('hex') };
    const found = this.keys.lookup(token);
    if (found === null || found.expired) return null;
    const { record } = found;
    return {
      kind: 'key',
      id: record.id,
      scopes: expandScopes(record.scopes),
      collections: record.collections,
      rateLimit: record.rate_limit === null ? null : { perSecond: record.rate_limit.per_second, burst: record.rate_limit.burst },
      expiresAt: record.expires_at,
      filter: record.filter,
    };
  }
}
