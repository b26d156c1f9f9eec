// The shapes of a collection's embedders (docs/api.md, "Search by meaning" `embedders`), as TypeBox
// schemas: how a client configures search by meaning, how collection.json stores it, and how the
// collection record shows it (never with its `api_key`).

import { Type } from 'typebox';
import type { Static } from 'typebox';

/** Embedder names: letters, digits, `_` and `-`, 1–64 characters. */
export const EMBEDDER_NAME_PATTERN = '^[A-Za-z0-9_-]{1,64}$';
/** Embedders one collection may have. */
export const MAX_EMBEDDERS = 4;
/** Longest document template. */
export const MAX_DOCUMENT_TEMPLATE_CHARS = 2_000;
/** Most dimensions a vector may have. */
export const MAX_VECTOR_DIMENSIONS = 4_096;

export const EMBEDDER_SOURCES = ['builtin', 'local', 'openai', 'user'] as const;
export type EmbedderSource = (typeof EMBEDDER_SOURCES)[number];

const embedderFields = {
  source: Type.Union([Type.Literal('builtin'), Type.Literal('local'), Type.Literal('openai'), Type.Literal('user')], {
    description:
      '`builtin`: the offline model shipped with Folio (Universal Sentence Encoder lite, 512 dimensions). `local`, `openai`, `user`: see docs/api.md.',
  }),
  model: Type.String({ minLength: 1, maxLength: 256, description: 'Model name (the source\'s default when left out).' }),
  url: Type.String({ minLength: 1, maxLength: 2048, description: '`openai`: the base URL of an OpenAI-compatible API.' }),
  dimensions: Type.Integer({ minimum: 1, maximum: MAX_VECTOR_DIMENSIONS, description: 'Vector dimensions (`user`, `openai`).' }),
  document_template: Type.String({
    minLength: 1,
    maxLength: MAX_DOCUMENT_TEMPLATE_CHARS,
    description: 'What is embedded for each passage: `{{title}}`, `{{text}}` (the passage), `{{metadata.FIELD}}`. Default `{{title}}\\n{{text}}`.',
  }),
  default_semantic_ratio: Type.Number({ minimum: 0, maximum: 1, description: 'Weight of meaning in a hybrid search when the request gives none.' }),
};

/** An embedder as a client writes it (create, or PATCH: a whole embedder replaces the old one). */
export const EmbedderSettingsInputSchema = Type.Object(
  {
    source: embedderFields.source,
    model: Type.Optional(embedderFields.model),
    url: Type.Optional(embedderFields.url),
    api_key: Type.Optional(Type.String({ minLength: 1, maxLength: 1024, description: 'Write-only: never returned.', writeOnly: true })),
    dimensions: Type.Optional(embedderFields.dimensions),
    document_template: Type.Optional(embedderFields.document_template),
    default_semantic_ratio: Type.Optional(embedderFields.default_semantic_ratio),
  },
  { additionalProperties: false },
);
export type EmbedderSettingsInput = Static<typeof EmbedderSettingsInputSchema>;

/** `embedders` in a create or PATCH body: name → embedder (PATCH: null removes it). */
export const EmbeddersPatchSchema = Type.Record(Type.String(), Type.Union([EmbedderSettingsInputSchema, Type.Null()]), {
  maxProperties: MAX_EMBEDDERS,
  description: `Embedders by name (\`${EMBEDDER_NAME_PATTERN}\`, at most ${MAX_EMBEDDERS}); in a PATCH, \`null\` removes one.`,
});
export type EmbeddersPatch = Static<typeof EmbeddersPatchSchema>;

/** An embedder as the collection record shows it: every field, and whether a key is set, never the key. */
export const EmbedderSettingsSchema = Type.Object(
  {
    source: embedderFields.source,
    model: embedderFields.model,
    url: Type.Union([embedderFields.url, Type.Null()]),
    api_key_set: Type.Boolean({ description: 'Whether an API key is stored (it is never returned).' }),
    dimensions: Type.Union([embedderFields.dimensions, Type.Null()]),
    document_template: embedderFields.document_template,
    default_semantic_ratio: embedderFields.default_semantic_ratio,
  },
  { additionalProperties: false, title: 'Embedder' },
);
export type EmbedderSettingsWire = Static<typeof EmbedderSettingsSchema>;
