// The shapes of a collection's settings (docs/api.md, "Collections": `typo_tolerance`, `synonyms`,
// `searchable_fields`, `ranking`, `ocr_languages`, and `embedders` from embedder-shapes.ts), as
// TypeBox schemas declared once: the API takes and returns them so (api/ composes its bodies and
// the collection record from them), and collection.json stores them so, checked with the same
// schemas when it is read.

import { Type } from 'typebox';
import type { Static } from 'typebox';
import { DEFAULT_TYPO_TOLERANCE, MAX_FIELD_BOOSTS, MAX_TYPO_WORD_SIZE, TYPO_FIELDS } from '../../engine/index.ts';
import { EmbedderSettingsSchema, EmbeddersPatchSchema } from './embedder-shapes.ts';

/** Most entries of a collection's `synonyms`, words (or inputs) per entry, and characters per word or phrase. */
export const MAX_SYNONYM_ENTRIES = 100_000;
export const MAX_SYNONYM_WORDS = 64;
export const MAX_SYNONYM_LENGTH = 128;

const wordSize = (description: string, fallback: number) =>
  Type.Integer({ minimum: 0, maximum: MAX_TYPO_WORD_SIZE, default: fallback, description });

const typoToleranceFields = {
  enabled: Type.Boolean({ default: DEFAULT_TYPO_TOLERANCE.enabled, description: 'Whether searches allow typos (`typos=auto`).' }),
  min_word_size: Type.Object(
    {
      one_typo: wordSize('Characters a query word needs for one typo.', DEFAULT_TYPO_TOLERANCE.minWordSize.oneTypo),
      two_typos: wordSize('Characters a query word needs for two typos; at least `one_typo`.', DEFAULT_TYPO_TOLERANCE.minWordSize.twoTypos),
    },
    { additionalProperties: false },
  ),
  disable_on_numbers: Type.Boolean({
    default: DEFAULT_TYPO_TOLERANCE.disableOnNumbers,
    description: 'No typos on words with a digit in them: numbers and codes (`2024` never finds `2025`, nor `rfc7231` `rfc7230`).',
  }),
  disable_on_fields: Type.Array(Type.Union([Type.Literal('title'), Type.Literal('text')]), {
    uniqueItems: true,
    maxItems: TYPO_FIELDS.length,
    description: 'Fields where only exact words match: `title`, `text`.',
  }),
};

/** A collection's typo tolerance as stored and returned: every field present. */
export const TypoToleranceSchema = Type.Object(typoToleranceFields, { additionalProperties: false, title: 'TypoTolerance' });
export type TypoToleranceWire = Static<typeof TypoToleranceSchema>;

/** Typo tolerance as written by a client: any field may be left out (kept, or the default). */
export const TypoTolerancePatchSchema = Type.Object(
  {
    enabled: Type.Optional(typoToleranceFields.enabled),
    min_word_size: Type.Optional(
      Type.Object(
        {
          one_typo: Type.Optional(typoToleranceFields.min_word_size.properties.one_typo),
          two_typos: Type.Optional(typoToleranceFields.min_word_size.properties.two_typos),
        },
        { additionalProperties: false },
      ),
    ),
    disable_on_numbers: Type.Optional(typoToleranceFields.disable_on_numbers),
    disable_on_fields: Type.Optional(typoToleranceFields.disable_on_fields),
  },
  {
    additionalProperties: false,
    description: 'Typo tolerance (Meilisearch\'s rules): fields left out keep their value (on create: the default).',
  },
);
export type TypoTolerancePatch = Static<typeof TypoTolerancePatchSchema>;

const synonymWords = (description: string) =>
  Type.Array(Type.String({ minLength: 1, maxLength: MAX_SYNONYM_LENGTH }), { minItems: 1, maxItems: MAX_SYNONYM_WORDS, description });

/** One entry of `synonyms`: a multi-way group (`words`), or one-way (`input` → `words`). */
export const SynonymEntrySchema = Type.Object(
  {
    words: synonymWords(`Words (or phrases) equivalent to one another — at least two — or, with \`input\`, what the input also finds. At most ${MAX_SYNONYM_WORDS}, each up to ${MAX_SYNONYM_LENGTH} characters.`),
    input: Type.Optional(synonymWords('One-way: query words (or phrases) that also find `words`; `words` do not find them.')),
  },
  { additionalProperties: false, title: 'SynonymEntry' },
);
export type SynonymEntryWire = Static<typeof SynonymEntrySchema>;

const SynonymsSchema = Type.Array(SynonymEntrySchema, {
  maxItems: MAX_SYNONYM_ENTRIES,
  description:
    `Synonyms, applied at query time (no re-index): \`{"words": ["laptop", "notebook"]}\` makes the words equivalent; `
    + `\`{"input": ["nyc"], "words": ["new york"]}\` is one-way. Words as typed rank above their synonyms; \`synonyms=false\` `
    + `on a search turns them off. At most ${MAX_SYNONYM_ENTRIES.toLocaleString('en')} entries; a write replaces the whole list.`,
});

/** Largest weight of a searchable field. */
export const MAX_FIELD_WEIGHT = 100;
/** Most metadata fields a collection makes searchable (each is one more field every word is looked for in). */
export const MAX_SEARCHABLE_METADATA_FIELDS = 16;

/** One searchable field and its weight (BM25F: how much an occurrence there counts). */
export const SearchableFieldSchema = Type.Object(
  {
    field: Type.String({
      pattern: '^(title|text|metadata\\..+)$',
      maxLength: 137,
      description: '`title`, `text` or `metadata.<name>`: a metadata field whose string values (and arrays of strings) are analysed and searched like text.',
    }),
    weight: Type.Number({ exclusiveMinimum: 0, maximum: MAX_FIELD_WEIGHT, description: `How much a word there counts, more than 0 and at most ${MAX_FIELD_WEIGHT}.` }),
  },
  { additionalProperties: false, title: 'SearchableField' },
);
export type SearchableFieldWire = Static<typeof SearchableFieldSchema>;

const SearchableFieldsSchema = Type.Array(SearchableFieldSchema, {
  minItems: 1,
  maxItems: 2 + MAX_SEARCHABLE_METADATA_FIELDS,
  description:
    'The fields searches look in and their weights; default `[{"field":"title","weight":3},{"field":"text","weight":1}]`. A field left out is not searched '
    + `(but \`title:word\` still searches the title). At most ${MAX_SEARCHABLE_METADATA_FIELDS} metadata fields; adding or removing one indexes the collection again in the background (the record's \`reindexing\`).`,
});


/** `30d`, `12h`, `90m`, `1.5w`: a number and a unit (`ms`, `s`, `m`, `h`, `d`, `w`). */
export const DURATION_PATTERN = '^[0-9]+(\\.[0-9]+)?(ms|s|m|h|d|w)$';

const duration = (description: string) => Type.String({ pattern: DURATION_PATTERN, maxLength: 32, description });

/** One boost of `boost` / `ranking.boost`: a numeric field through a modifier, or a date field's recency. */
export const FieldBoostSchema = Type.Object(
  {
    field: Type.String({ pattern: '^metadata\\.', maxLength: 137, description: 'The metadata field: `metadata.<name>`.' }),
    modifier: Type.Optional(
      Type.Union([Type.Literal('none'), Type.Literal('log1p'), Type.Literal('sqrt')], {
        description: 'A numeric field: × (1 + modifier(factor × value)); default `none`. Not with `recency`.',
      }),
    ),
    factor: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1_000_000, description: 'Default 1.' })),
    recency: Type.Optional(
      Type.Object(
        {
          scale: duration('How far from now (past `offset`) the boost falls to `decay` of its full size, e.g. `30d`.'),
          offset: Type.Optional(duration('How far from now a date keeps the full boost; default `0d`.')),
          decay: Type.Optional(Type.Number({ exclusiveMinimum: 0, exclusiveMaximum: 1, description: 'What is left of the boost one `scale` past `offset`; default 0.5.' })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  {
    additionalProperties: false,
    title: 'FieldBoost',
    description:
      'Multiplies the relevance score: a numeric field by × (1 + modifier(factor × value)); a date field (ISO 8601 strings) with '
      + '`recency` by × (1 + factor × decay^(max(0, |now − date| − offset) / scale)). A document without the field is not boosted.',
  },
);
export type FieldBoostWire = Static<typeof FieldBoostSchema>;

export const BoostListSchema = Type.Array(FieldBoostSchema, { maxItems: MAX_FIELD_BOOSTS });

/** Ranking settings: the boosts every search applies unless it gives its own `boost`. */
export const RankingSettingsSchema = Type.Object(
  { boost: BoostListSchema },
  { additionalProperties: false, title: 'RankingSettings', description: 'Ranking by fields: `boost` applies to every search that gives no `boost` of its own.' },
);
export type RankingSettingsWire = Static<typeof RankingSettingsSchema>;

/** `ocr_languages`: Tesseract language codes (docs/api.md, "OCR languages"). */
const OcrLanguagesSchema = Type.Array(Type.String({ pattern: '^[a-z]{3}(_[a-z]{3,5})?$', maxLength: 9 }), {
  minItems: 1,
  maxItems: 5,
  uniqueItems: true,
  description:
    'The languages images and scanned pages of uploaded files are read in (OCR), as Tesseract codes: `["deu", "eng"]`. '
    + 'Default `["eng"]`; every language must be installed on the server (`GET /v1/formats` lists them; `folio ocr add <code>` installs one). '
    + 'An upload may name its own (the `ocr_languages` form part).',
});

/** A collection's settings as returned. */
export const CollectionSettingsSchema = Type.Object(
  {
    typo_tolerance: TypoToleranceSchema,
    embedders: Type.Record(Type.String(), EmbedderSettingsSchema),
    synonyms: SynonymsSchema,
    ranking: RankingSettingsSchema,
    searchable_fields: SearchableFieldsSchema,
    ocr_languages: OcrLanguagesSchema,
  },
  { additionalProperties: false, title: 'CollectionSettings' },
);
export type CollectionSettings = Static<typeof CollectionSettingsSchema>;

/** `PATCH /v1/collections/{c}`: settings only; what is left out is kept. */
export const UpdateCollectionBodySchema = Type.Object(
  {
    typo_tolerance: Type.Optional(TypoTolerancePatchSchema),
    embedders: Type.Optional(EmbeddersPatchSchema),
    synonyms: Type.Optional(SynonymsSchema),
    ranking: Type.Optional(RankingSettingsSchema),
    searchable_fields: Type.Optional(SearchableFieldsSchema),
    ocr_languages: Type.Optional(OcrLanguagesSchema),
  },
  { additionalProperties: false },
);
export type CollectionSettingsPatch = Static<typeof UpdateCollectionBodySchema>;
