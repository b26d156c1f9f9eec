// TypeBox schemas of API keys and sessions (docs/api.md, "API keys, sessions and rate limits"): the create bodies, the key record
// (never the hash; the plaintext `key` only in the create answer) and the session answer.
// Field rules beyond shape (future expiry, known collection names, no escalation) are checked
// by the key store and the route.

import { Type } from 'typebox';
import type { Static } from 'typebox';
import { COLLECTION_NAME_PATTERN } from '../names/index.ts';

const ScopeSchema = Type.Union([Type.Literal('search'), Type.Literal('write'), Type.Literal('admin')]);

const RateLimitSchema = Type.Object(
  {
    per_second: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
    burst: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
  },
  { additionalProperties: false },
);

export const CreateKeyBodySchema = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    scopes: Type.Optional(Type.Array(ScopeSchema, { minItems: 1, maxItems: 3, description: 'Default `["search", "write"]`; `admin` implies the others.' })),
    collections: Type.Optional(
      Type.Union([Type.Array(Type.String({ pattern: COLLECTION_NAME_PATTERN }), { minItems: 1, maxItems: 1_000 }), Type.Null()], {
        description: 'The collections the key may use; null or absent for all.',
      }),
    ),
    rate_limit: Type.Optional(Type.Union([RateLimitSchema, Type.Null()])),
    expires_at: Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.Null()])),
    filter: Type.Optional(
      Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], {
        description: 'Only the documents matching this filter (the filter syntax of a search) are visible to the key, in every read; a key with a filter has only the `search` scope. A key created by a key with a filter inherits it, ANDed with its own.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const KeyRecordSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    prefix: Type.String({ description: 'The first 10 characters of the key.' }),
    scopes: Type.Array(ScopeSchema),
    collections: Type.Union([Type.Array(Type.String()), Type.Null()]),
    rate_limit: Type.Union([RateLimitSchema, Type.Null()]),
    created_at: Type.String({ format: 'date-time' }),
    last_used_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    expires_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    filter: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], { description: 'The documents the key sees (null: every document).' }),
  },
  { additionalProperties: false, title: 'ApiKey' },
);
/** An API key as list and create show it: never the hash, never the plaintext. */
export type ApiKey = Static<typeof KeyRecordSchema>;

export const CreatedKeySchema = Type.Object(
  { ...KeyRecordSchema.properties, key: Type.String({ description: 'The key itself, shown this once.' }) },
  { additionalProperties: false, title: 'CreatedApiKey' },
);

export const KeyListSchema = Type.Object({ keys: Type.Array(KeyRecordSchema) }, { additionalProperties: false });

export const KeyParamsSchema = Type.Object({ keyId: Type.String({ minLength: 1, maxLength: 64 }) });

export const CreateSessionBodySchema = Type.Object(
  { master_key: Type.String({ minLength: 1, maxLength: 1024 }) },
  { additionalProperties: false },
);

export const SessionSchema = Type.Object(
  { token: Type.String(), expires_at: Type.String({ format: 'date-time' }) },
  { additionalProperties: false, title: 'Session' },
);
