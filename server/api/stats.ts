// TypeBox schema of the server's statistics (docs/api.md, "Statistics": GET /v1/stats, admin): version,
// uptime, memory, searches answered and their rate, and per collection its documents,
// segments, bytes and state.

import { Type } from 'typebox';
import type { Static } from 'typebox';
import { EmbeddingProgressSchema } from './collection.ts';

export const CollectionStatsSchema = Type.Object(
  {
    name: Type.String(),
    documents: Type.Integer({ minimum: 0, description: 'Live documents, including unrefreshed writes.' }),
    segments: Type.Integer({ minimum: 0 }),
    bytes: Type.Integer({ minimum: 0, description: 'Bytes of its index files on disk.' }),
    state: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]),
    reason: Type.Optional(Type.String({ description: 'Why the collection is unavailable.' })),
    embedding: Type.Record(Type.String(), EmbeddingProgressSchema, { description: 'Per embedder: documents embedded, waiting and failed.' }),
  },
  { additionalProperties: false, title: 'CollectionStats' },
);

export const ClusterStatsSchema = Type.Object(
  {
    node_id: Type.String({ description: 'This node, as writer leases name it.' }),
    role: Type.Union([Type.Literal('writer'), Type.Literal('replica')], { description: '`writer`: may take writer leases; `replica`: searches only.' }),
    nodes: Type.Integer({ minimum: 1, description: 'Nodes that sent a heartbeat in the last three poll intervals, this one included.' }),
    rate_limits: Type.Union([Type.Literal('shared'), Type.Literal('per_node')], {
      description: '`shared`: token buckets in Redis, one limit across nodes; `per_node` (no `--redis`): each node enforces its share, 1/`nodes` of each limit.',
    }),
    collections: Type.Record(
      Type.String(),
      Type.Object(
        {
          role: Type.Union([Type.Literal('writer'), Type.Literal('replica')], { description: 'Whether this node writes the collection (holds its lease) or follows it.' }),
          manifest_version: Type.Integer({ minimum: 0, description: 'The published manifest this node searches.' }),
          visible_log_seq: Type.Integer({ minimum: 0, description: 'Writes of the shared log up to this sequence number are searchable here.' }),
          fencing_token: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], { description: 'The writer lease\'s fencing token, when this node holds it.' }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false, title: 'ClusterStats', description: 'Cluster mode only (docs/cluster.md).' },
);

export const StatsSchema = Type.Object(
  {
    version: Type.String(),
    started_at: Type.String({ format: 'date-time' }),
    uptime_s: Type.Integer({ minimum: 0 }),
    memory: Type.Object(
      {
        rss_bytes: Type.Integer({ minimum: 0, description: 'Resident memory of the process (mapped index pages it has touched included).' }),
        heap_used_bytes: Type.Integer({ minimum: 0 }),
        heap_total_bytes: Type.Integer({ minimum: 0 }),
        external_bytes: Type.Integer({ minimum: 0, description: 'Memory held outside the JavaScript heap (buffers, WebAssembly).' }),
      },
      { additionalProperties: false },
    ),
    searches: Type.Object(
      {
        total: Type.Integer({ minimum: 0, description: 'Searches answered since the server started.' }),
        per_second: Type.Number({ minimum: 0, description: 'Searches answered per second over the last minute.' }),
      },
      { additionalProperties: false },
    ),
    collections: Type.Array(CollectionStatsSchema, { description: 'The collections the caller may see, by name.' }),
    cluster: Type.Optional(ClusterStatsSchema),
  },
  { additionalProperties: false, title: 'Stats' },
);
export type Stats = Static<typeof StatsSchema>;
export type CollectionStats = Static<typeof CollectionStatsSchema>;
export type ClusterStats = Static<typeof ClusterStatsSchema>;
