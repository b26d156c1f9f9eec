// Authentication, rate limits and authorization for every route (docs/api.md, "API keys, sessions and rate limits"), in this order:
//  1. A client address that failed to authenticate too often is refused (429) before its
//     token is even looked at, so keys cannot be guessed quickly.
//  2. The bearer token resolves to a Principal: the master key (constant-time digest
//     comparison), a session or an API key (lookup by SHA-256, so no timing leak). Missing,
//     unknown, revoked or expired → 401; a token sent and not good (not a missing one) is
//     counted against the client address.
//  3. An API key's token bucket is charged (its own rate, else the server's); the RateLimit-*
//     headers go on every response to a key, and an empty bucket gets 429 with Retry-After
//     before anything is done. The master key and sessions (its stand-in) are not limited.
//  4. The route's need from the access table (auth/access-table.ts) is checked: scope and the
//     collection in the path now, a collection named in the body once it is parsed.
// Routes marked `config: { public: true }` skip all of this. Tokens are never logged.

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ROUTE_ACCESS, authorizeCollection, authorizeRoute, routeKey } from '../../auth/index.ts';
import type { RouteNeed } from '../../auth/index.ts';
import { FolioError } from '../../errors/index.ts';

const BEARER = /^Bearer[ \t]+([^\s]+)[ \t]*$/i;

/** The bearer token, or null when the header is missing or malformed. */
function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (header === undefined || header === '') return null;
  return BEARER.exec(header)?.[1] ?? null;
}

function refuseRate(reply: FastifyReply, retryAfterSeconds: number, detail: string): never {
  reply.header('retry-after', String(retryAfterSeconds));
  throw new FolioError('rate_limited', detail);
}

async function authPlugin(app: FastifyInstance): Promise<void> {
  const { credentials, keys, rateLimiter, failedAuth } = app;

  // Every route that is not public must have an entry in the access table.
  const unguarded: string[] = [];
  app.addHook('onRoute', (route) => {
    if (route.config?.public === true) return;
    for (const method of [route.method].flat()) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      if (ROUTE_ACCESS[routeKey(method, route.url)] === undefined) unguarded.push(routeKey(method, route.url));
    }
  });
  app.addHook('onReady', async () => {
    if (unguarded.length > 0) throw new Error(`routes without an access rule (server/auth/access-table.ts): ${unguarded.join(', ')}`);
  });

  app.decorateRequest('principal', null);
  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.config.public === true) return;
    const token = bearerToken(request);
    const principal = token === null ? null : credentials.principalOf(token);
    if (principal === null) {
      // A blocked address is refused only what would fail anyway: its valid credentials still
      // work (behind a proxy, one client's guesses must not lock everyone out).
      const blocked = failedAuth.isBlocked(request.ip);
      if (blocked.blocked) refuseRate(reply, blocked.retryAfterSeconds, 'too many failed authentications from this address; try again later');
      // Only a token that is wrong is a guess: a request without one (a browser's own
      // /favicon.ico, a link preview) guesses nothing, and must not lock its address out.
      if (token !== null) failedAuth.recordFailure(request.ip);
      throw new FolioError(
        'unauthorized',
        token === null ? "missing or malformed credentials: send 'Authorization: Bearer <token>'" : 'unknown, revoked or expired token',
      );
    }
    request.principal = principal;

    if (rateLimiter !== null && principal.kind === 'key') {
      const decision = await rateLimiter.take(`key:${principal.id}`, principal.rateLimit ?? undefined);
      reply.header('ratelimit-limit', String(decision.limit));
      reply.header('ratelimit-remaining', String(decision.remaining));
      reply.header('ratelimit-reset', String(decision.resetSeconds));
      if (!decision.allowed) refuseRate(reply, decision.retryAfterSeconds, `rate limit of ${decision.limit} requests exceeded; retry after ${decision.retryAfterSeconds} s`);
    }
    if (principal.kind === 'key') keys.touch(principal.id);

    const need = routeNeed(request);
    authorizeRoute(principal, need, request.params as Record<string, string | undefined>);
  });

  app.addHook('preHandler', async (request) => {
    if (request.principal === null) return;
    const need = routeNeed(request);
    if ('scope' in need && need.collectionBodyField !== undefined) {
      const body = request.body as Record<string, unknown> | null | undefined;
      authorizeCollection(request.principal, body?.[need.collectionBodyField]);
    }
    if ('scope' in need && need.collectionBodyList !== undefined) {
      const { list, field } = need.collectionBodyList;
      const items = (request.body as Record<string, unknown> | null | undefined)?.[list];
      if (Array.isArray(items)) items.forEach((item, i) => authorizeCollection(request.principal!, (item as Record<string, unknown> | null)?.[field], `/body/${list}/${i}/${field}`));
    }
  });
}

function routeNeed(request: FastifyRequest): RouteNeed {
  const need = ROUTE_ACCESS[routeKey(request.method, request.routeOptions.url ?? '')];
  // Unreachable for registered routes (checked at start); a 404 route has no options.
  if (need === undefined) throw new FolioError('not_found', `no route ${request.method} ${request.url.split('?')[0]}`);
  return need;
}

// Applies to the whole application rather than an encapsulated child (what fastify-plugin does).
Object.assign(authPlugin, { [Symbol.for('skip-override')]: true });

export default authPlugin;
