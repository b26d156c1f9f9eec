// Who is calling, once the bearer token is resolved (docs/api.md, "API keys, sessions and rate limits"): the master key or a session
// (every right), or an API key with its scopes (admin implying the others), the collections it
// is limited to (null: all), the documents it sees (its filter, key-filter.ts) and its own rate
// limit. Authorization reads only this.

import { allowsCollection } from './scopes.ts';
import type { Scope } from './scopes.ts';
import { keyFilterNode } from './key-filter.ts';
import type { KeyFilter } from './key-filter.ts';
import type { FilterNode } from '../../engine/index.ts';

export type Principal =
  | { kind: 'master' }
  | { kind: 'session'; tokenHash: string }
  | {
      kind: 'key';
      id: string;
      /** Expanded: an admin key lists all three. */
      scopes: readonly Scope[];
      collections: readonly string[] | null;
      rateLimit: { perSecond: number; burst: number } | null;
      /** When the key expires (RFC 3339), or null. */
      expiresAt: string | null;
      /** The documents it sees: its filter as written, or null for every document. */
      filter: KeyFilter | null;
    };

/** The scopes and collections a principal holds (master and sessions: everything). */
export function grantsOf(principal: Principal): { scopes: readonly Scope[]; collections: readonly string[] | null } {
  if (principal.kind === 'key') return { scopes: principal.scopes, collections: principal.collections };
  return { scopes: ['search', 'write', 'admin'], collections: null };
}

/** May the principal see collection `name`? */
export function canSeeCollection(principal: Principal, name: string): boolean {
  return allowsCollection(grantsOf(principal).collections, name);
}

/** The filter every read of the principal is confined to (parsed), or null for every document. */
export function visibleFilter(principal: Principal | null): FilterNode | null {
  return principal?.kind === 'key' && principal.filter !== null ? keyFilterNode(principal.filter) : null;
}
