// TypeBox schema of the server's statistics (SPEC §9, §12: GET /v1/stats, admin): version,
// uptime, memory, searches answered and their rate, and per collection its documents,
// segments, bytes and state.

import { Type } from 'typebox';
import type { Static } from 'typebox';
import { EmbeddingProgressSchema } from './embedder.ts';

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
  },
  { additionalProperties: false, title: 'Stats' },
);
export type Stats = Static<typeof StatsSchema>;
export type CollectionStats = Static<typeof CollectionStatsSchema>;
