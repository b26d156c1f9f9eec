// Checks a principal against a route's need from the access table (access-table.ts). Throws
// 403 `forbidden` naming what is missing; never says whether a collection outside the
// caller's reach exists.

import { FolioError } from '../errors/index.ts';
import { hasScope } from './scopes.ts';
import type { RouteNeed } from './access-table.ts';
import { canSeeCollection, grantsOf } from './principal.ts';
import type { Principal } from './principal.ts';

/** The path-level check (before the body is read). */
export function authorizeRoute(principal: Principal, need: RouteNeed, params: Record<string, string | undefined>): void {
  if ('session' in need) {
    if (principal.kind !== 'session') throw new FolioError('forbidden', 'this route needs a session token');
    return;
  }
  if ('unrestrictedAdmin' in need) {
    const { scopes, collections } = grantsOf(principal);
    if (!hasScope(scopes, 'admin') || collections !== null) {
      throw new FolioError('forbidden', 'this route needs an admin key for all collections, the master key or a session');
    }
    return;
  }
  const filteredKey = principal.kind === 'key' && principal.filter !== null;
  if (!hasScope(grantsOf(principal).scopes, need.scope) && !(need.alsoFilteredKeys === true && filteredKey)) {
    throw new FolioError('forbidden', `this route needs the '${need.scope}' scope`);
  }
  if (need.notFilteredKeys === true && filteredKey) {
    throw new FolioError('forbidden', 'a key with a filter reads documents (search, list, get), not collections: their records count every document');
  }
  if (need.collectionParam !== undefined) authorizeCollection(principal, params[need.collectionParam]);
}

/** The collection named in a request (path or body, at `path` when given) must be one the principal may use. */
export function authorizeCollection(principal: Principal, name: unknown, path?: string): void {
  if (typeof name === 'string' && !canSeeCollection(principal, name)) {
    const detail = `this key may not use collection '${name}'`;
    throw new FolioError('forbidden', path === undefined ? detail : `${path}: ${detail}`, path === undefined ? undefined : [{ path, message: detail }]);
  }
}
