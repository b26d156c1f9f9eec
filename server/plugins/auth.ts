// Authentication (SPEC §1): every route needs `Authorization: Bearer <token>` unless it is
// marked `config: { public: true }` (health and the OpenAPI document). For now the only
// credential is the master key; API keys and sessions will join as further token kinds
// that resolve to a Principal here, and scope checks will read `request.principal`.
// Tokens are compared by SHA-256 digest with a constant-time comparison, and never logged.

import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { FolioError } from '../errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route needs no credential. */
    public?: boolean;
  }
  interface FastifyRequest {
    /** Who made the request; null on public routes. */
    principal: Principal | null;
  }
}

/** The authenticated caller. Only the master key exists for now; it has every right. */
export interface Principal {
  kind: 'master';
}

export interface AuthOptions {
  masterKey: string;
}

const BEARER = /^Bearer[ \t]+([^\s]+)[ \t]*$/i;

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

function bearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization;
  if (header === undefined || header === '') {
    throw new FolioError('unauthorized', "missing credentials: send 'Authorization: Bearer <key>'");
  }
  const match = BEARER.exec(header);
  if (match === null) throw new FolioError('unauthorized', "malformed Authorization header: expected 'Bearer <key>'");
  return match[1];
}

async function authPlugin(app: FastifyInstance, options: AuthOptions): Promise<void> {
  const masterDigest = digest(options.masterKey);

  function resolvePrincipal(token: string): Principal | null {
    return timingSafeEqual(digest(token), masterDigest) ? { kind: 'master' } : null;
  }

  app.decorateRequest('principal', null);
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.public === true) return;
    const principal = resolvePrincipal(bearerToken(request));
    if (principal === null) throw new FolioError('unauthorized', 'unknown or invalid token');
    request.principal = principal;
  });
}

// Applies to the whole application rather than an encapsulated child (what fastify-plugin does).
Object.assign(authPlugin, { [Symbol.for('skip-override')]: true });

export default authPlugin;
