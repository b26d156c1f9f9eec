// Who may call which route (docs/api.md, "API keys, sessions and rate limits"), as one declarative table: for every route, the scope it
// needs and the path parameter naming the collection it touches. The auth plugin enforces it
// on every request, and refuses to start if a route that is not public has no entry here, so
// a new route cannot go unguarded by accident.
//
// Kinds of need:
//  - a scope (`search`, `write`, `admin`; admin implies the others), optionally limited by the
//    collection named in the path (a collection-limited key gets 403 for any other collection),
//    or open to keys with a filter too (creating a key, which then sees no more than its creator),
//    or closed to them (a collection's record, which counts every document);
//  - `unrestricted_admin`: an admin key for all collections, the master key or a session
//    (webhooks, which see every collection's events);
//  - `session`: only a session token (logging out of that session).

import type { Scope } from './scopes.ts';

export type RouteNeed =
  | {
      scope: Scope;
      /** Path parameter naming the collection the route touches. */
      collectionParam?: string;
      /** Body property naming the collection the route creates (checked once the body is parsed). */
      collectionBodyField?: string;
      /** Body list whose items name collections the route reads, by `field` (checked once the body is parsed, each path named). */
      collectionBodyList?: { list: string; field: string };
      /** A key with a filter may call it too, whatever its scope (creating keys that see no more than it). */
      alsoFilteredKeys?: true;
      /** Not for a key with a filter: the answer counts documents outside it (a collection's record). */
      notFilteredKeys?: true;
    }
  | { unrestrictedAdmin: true }
  | { session: true };

/** `METHOD path` (Fastify's route pattern) → what the caller needs. */
export const ROUTE_ACCESS: Readonly<Record<string, RouteNeed>> = {
  'GET /v1/collections': { scope: 'search', notFilteredKeys: true },
  'POST /v1/collections': { scope: 'admin', collectionBodyField: 'name' },
  'GET /v1/collections/:name': { scope: 'search', collectionParam: 'name', notFilteredKeys: true },
  'PATCH /v1/collections/:name': { scope: 'admin', collectionParam: 'name' },
  'DELETE /v1/collections/:name': { scope: 'admin', collectionParam: 'name' },
  'PUT /v1/collections/:name/documents/:id': { scope: 'write', collectionParam: 'name' },
  'POST /v1/collections/:name/documents': { scope: 'write', collectionParam: 'name' },
  'GET /v1/collections/:name/documents': { scope: 'search', collectionParam: 'name' },
  'GET /v1/collections/:name/documents/:id': { scope: 'search', collectionParam: 'name' },
  'GET /v1/collections/:name/documents/:id/file': { scope: 'search', collectionParam: 'name' },
  'GET /v1/collections/:name/documents/:id/pages/:page/image': { scope: 'search', collectionParam: 'name' },
  'PATCH /v1/collections/:name/documents/:id': { scope: 'write', collectionParam: 'name' },
  'DELETE /v1/collections/:name/documents/:id': { scope: 'write', collectionParam: 'name' },
  'POST /v1/collections/:name/documents/delete': { scope: 'write', collectionParam: 'name' },
  'POST /v1/collections/:name/refresh': { scope: 'write', collectionParam: 'name' },
  'GET /v1/collections/:name/search': { scope: 'search', collectionParam: 'name' },
  'POST /v1/collections/:name/search': { scope: 'search', collectionParam: 'name' },
  'POST /v1/collections/:name/facet-search': { scope: 'search', collectionParam: 'name' },
  'POST /v1/collections/:name/files': { scope: 'write', collectionParam: 'name' },
  'POST /v1/multi-search': { scope: 'search', collectionBodyList: { list: 'queries', field: 'collection' } },
  'GET /v1/formats': { scope: 'search' },
  'GET /v1/stats': { scope: 'admin' },
  // A copy of every collection: admins not limited to some collections only.
  'POST /v1/snapshots': { unrestrictedAdmin: true },
  'POST /v1/api-keys': { scope: 'admin', alsoFilteredKeys: true },
  'GET /v1/api-keys': { scope: 'admin' },
  'DELETE /v1/api-keys/:keyId': { scope: 'admin' },
  'DELETE /v1/sessions/current': { session: true },
  'POST /v1/webhooks': { unrestrictedAdmin: true },
  'GET /v1/webhooks': { unrestrictedAdmin: true },
  'GET /v1/webhooks/:webhookId': { unrestrictedAdmin: true },
  'DELETE /v1/webhooks/:webhookId': { unrestrictedAdmin: true },
  'GET /v1/webhooks/:webhookId/deliveries': { unrestrictedAdmin: true },
};

export function routeKey(method: string, url: string): string {
  return `${method} ${url}`;
}
