// TypeBox schemas of collections (docs/api.md, "Collections"): the name rule, the create body and
// the record (its settings' shapes are server/settings/'s), with each embedder's progress.

import { Type } from 'typebox';
import type { Static } from 'typebox';
import { COLLECTION_NAME_PATTERN, DEFAULT_LANGUAGE } from '../names/index.ts';
import { CollectionSettingsSchema, UpdateCollectionBodySchema } from '../settings/index.ts';


export const CollectionNameSchema = Type.String({
  pattern: COLLECTION_NAME_PATTERN,
  description: 'Collection name: `^[a-z0-9][a-z0-9_-]{0,63}$`.',
});

export const CollectionParamsSchema = Type.Object({ name: CollectionNameSchema });

export const CreateCollectionBodySchema = Type.Object(
  {
    name: CollectionNameSchema,
    // The settings, as PATCH takes them: what is left out is the default.
    ...UpdateCollectionBodySchema.properties,
    language: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 32,
        default: DEFAULT_LANGUAGE,
        description: 'Stemmer language, e.g. `english`, `french`, `german`.',
      }),
    ),
  },
  { additionalProperties: false },
);

/** Progress of one embedder over the collection's documents. */
export const EmbeddingProgressSchema = Type.Object(
  {
    embedded: Type.Integer({ minimum: 0, description: 'Live documents whose passages are embedded and searchable by meaning.' }),
    pending: Type.Integer({ minimum: 0, description: 'Live documents waiting to be embedded.' }),
    failed: Type.Integer({ minimum: 0, description: 'Documents whose embedding failed (retried later).' }),
  },
  { additionalProperties: false, title: 'EmbeddingProgress' },
);
export type EmbeddingProgress = Static<typeof EmbeddingProgressSchema>;

export const ReindexProgressSchema = Type.Object(
  {
    fields: Type.Array(Type.String(), { description: 'Every searchable metadata field (`metadata.<name>`) the segments are being indexed with, not only those added; `[]` when the last one was removed.' }),
    documents_done: Type.Integer({ minimum: 0, description: 'Live documents indexed with them already.' }),
    documents_total: Type.Integer({ minimum: 0, description: 'Live documents in segments.' }),
  },
  { additionalProperties: false, title: 'ReindexProgress' },
);

export const CollectionInfoSchema = Type.Object(
  {
    name: Type.String(),
    language: Type.String(),
    created_at: Type.String({ format: 'date-time' }),
    documents: Type.Integer({ minimum: 0, description: 'Live documents, including unrefreshed writes.' }),
    size_bytes: Type.Integer({ minimum: 0 }),
    segments: Type.Integer({ minimum: 0 }),
    settings: CollectionSettingsSchema,
    embedding: Type.Record(Type.String(), EmbeddingProgressSchema, { description: 'Per embedder: documents embedded, waiting and failed.' }),
    reindexing: Type.Union([Type.Null(), ReindexProgressSchema], {
      description:
        'null, or while the collection indexes its documents again after `searchable_fields` changed its metadata fields: how far it has come. Searches use the new metadata fields once it is done.',
    }),
  },
  { additionalProperties: false, title: 'Collection' },
);
/** Collection record (docs/api.md, "Collections"). */
export type CollectionInfo = Static<typeof CollectionInfoSchema>;

export const CollectionListSchema = Type.Object(
  { collections: Type.Array(CollectionInfoSchema) },
  { additionalProperties: false },
);
