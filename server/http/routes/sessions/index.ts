// Session routes (docs/api.md, "API keys, sessions and rate limits"): `POST /v1/sessions` trades the master key for a 12-hour session
// token (what the CLI's `auth login` and dashboards use), and `DELETE /v1/sessions/current`
// ends the session that makes the request. Creating a session is a public route that checks
// the master key itself (constant time); a wrong key counts as a failed authentication of the
// client address, like an unknown bearer token (another valid credential, such as an API key,
// does not).

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { FolioError } from '../../../errors/index.ts';
import { CreateSessionBodySchema, NoContentSchema, SessionSchema, problemResponses } from '../../../api/index.ts';

const sessionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/v1/sessions',
    {
      config: { public: true },
      schema: {
        summary: 'Open a session with the master key',
        tags: ['sessions'],
        security: [],
        body: CreateSessionBodySchema,
        response: { 201: SessionSchema, ...problemResponses(400, 401, 413, 415, 429, 500) },
      },
    },
    async (request, reply) => {
      // Only wrong keys are held back from a blocked address: the right one always opens a
      // session (behind a proxy, one client's guesses must not lock everyone out).
      if (!app.credentials.isMasterKey(request.body.master_key)) {
        // Another valid credential (an admin API key the dashboard tries here first) is no
        // guess: it is neither counted nor held back, as it would not be as a bearer token.
        if (app.credentials.principalOf(request.body.master_key) !== null) throw new FolioError('unauthorized', 'wrong master key');
        const blocked = app.failedAuth.isBlocked(request.ip);
        if (blocked.blocked) {
          reply.header('retry-after', String(blocked.retryAfterSeconds));
          throw new FolioError('rate_limited', 'too many failed authentications from this address; try again later');
        }
        app.failedAuth.recordFailure(request.ip);
        throw new FolioError('unauthorized', 'wrong master key');
      }
      const { token, expiresAt } = await app.sessions.open();
      return reply.code(201).send({ token, expires_at: expiresAt });
    },
  );

  app.delete(
    '/v1/sessions/current',
    {
      schema: {
        summary: 'End the session making this request',
        tags: ['sessions'],
        response: { 204: NoContentSchema, ...problemResponses(401, 403, 429, 500) },
      },
    },
    async (request, reply) => {
      const token = /^Bearer[ \t]+(\S+)/i.exec(request.headers.authorization ?? '')?.[1];
      if (token !== undefined) await app.sessions.end(token);
      return reply.code(204).send(null);
    },
  );
};

export default sessionRoutes;
