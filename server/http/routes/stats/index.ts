// GET /v1/stats (docs/api.md, "Statistics"; admin): the server's version, start and uptime, memory, the
// searches it answered and their rate over the last minute, and per collection the caller may
// see its documents, segments, bytes on disk, state and embedding progress.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { StatsSchema, problemResponses } from '../../../api/index.ts';
import type { ClusterStats, CollectionStats, Stats } from '../../../api/index.ts';
import { canSeeCollection } from '../../../auth/index.ts';
import { FOLIO_VERSION } from '../../../config/index.ts';

const statsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/v1/stats',
    {
      schema: {
        summary: 'Server and collection statistics',
        description: 'Uptime, version, memory, searches per second, and per collection its documents, segments and bytes. '
          + 'A key limited to some collections sees only those.',
        tags: ['meta'],
        response: { 200: StatsSchema, ...problemResponses(401, 403, 500) },
      },
    },
    async (request): Promise<Stats> => {
      const now = app.clock();
      const memory = process.memoryUsage();
      return {
        version: FOLIO_VERSION,
        started_at: new Date(app.startedAt).toISOString(),
        uptime_s: Math.max(0, Math.floor((now - app.startedAt) / 1000)),
        memory: {
          rss_bytes: memory.rss,
          heap_used_bytes: memory.heapUsed,
          heap_total_bytes: memory.heapTotal,
          external_bytes: memory.external,
        },
        searches: { total: app.searchActivity.total, per_second: Math.round(app.searchActivity.perSecond() * 1000) / 1000 },
        collections: app.collections
          .list()
          .filter((info) => canSeeCollection(request.principal!, info.name))
          .map((info): CollectionStats => ({ name: info.name, documents: info.documents, segments: info.segments, bytes: info.size_bytes, state: 'ok', embedding: info.embedding }))
          .concat(
            app.registry
              .unavailable()
              .filter((damaged) => canSeeCollection(request.principal!, damaged.name))
              .map((damaged): CollectionStats => ({ name: damaged.name, documents: 0, segments: 0, bytes: 0, state: 'unavailable', reason: damaged.reason, embedding: {} })),
          )
          .sort((a, b) => (a.name < b.name ? -1 : 1)),
        ...(app.cluster !== null && { cluster: visibleClusterStatus(app.cluster.status(), (name) => canSeeCollection(request.principal!, name)) }),
      };
    },
  );
};

/** The cluster's status with only the collections the caller may see. */
function visibleClusterStatus(status: ClusterStats, canSee: (name: string) => boolean): ClusterStats {
  return { ...status, collections: Object.fromEntries(Object.entries(status.collections).filter(([name]) => canSee(name))) };
}

export default statsRoutes;
