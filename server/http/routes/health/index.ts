// GET /v1/health (docs/api.md, "Health and OpenAPI"): liveness and version, open to everyone (no credential).

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { problemResponses } from '../../../api/index.ts';
import { FOLIO_VERSION } from '../../../config/index.ts';

const HealthSchema = Type.Object(
  { status: Type.Literal('ok'), version: Type.String() },
  { additionalProperties: false, title: 'Health' },
);

const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/v1/health',
    {
      config: { public: true },
      schema: {
        summary: 'Health check',
        tags: ['meta'],
        security: [],
        response: { 200: HealthSchema, ...problemResponses(500) },
      },
    },
    async () => ({ status: 'ok' as const, version: FOLIO_VERSION }),
  );
};

export default healthRoutes;
