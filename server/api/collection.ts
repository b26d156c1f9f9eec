// TypeBox schemas of collections (SPEC §4): the name rule, the create body and the record,
// matching `CollectionInfo` in server/indexing/collection-types.ts.

import { Type } from 'typebox';
import type { Static } from 'typebox';

/** Lowercase letters, digits, `_` and `-`; starts with a letter or digit; 1–64 characters. */
export const COLLECTION_NAME_PATTERN = '^[a-z0-9][a-z0-9_-]{0,63}$';

/** Stemmer language used when a collection is created without one. */
export const DEFAULT_LANGUAGE = 'english';

export const CollectionNameSchema = Type.String({
  pattern: COLLECTION_NAME_PATTERN,
  description: 'Collection name: `^[a-z0-9][a-z0-9_-]{0,63}$`.',
});

export const CollectionParamsSchema = Type.Object({ name: CollectionNameSchema });

export const CreateCollectionBodySchema = Type.Object(
  {
    name: CollectionNameSchema,
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

export const CollectionInfoSchema = Type.Object(
  {
    name: Type.String(),
    language: Type.String(),
    created_at: Type.String({ format: 'date-time' }),
    documents: Type.Integer({ minimum: 0, description: 'Live documents, including unrefreshed writes.' }),
    size_bytes: Type.Integer({ minimum: 0 }),
    segments: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false, title: 'Collection' },
);
/** Collection record (SPEC §4). */
export type CollectionInfo = Static<typeof CollectionInfoSchema>;

export const CollectionListSchema = Type.Object(
  { collections: Type.Array(CollectionInfoSchema) },
  { additionalProperties: false },
);
