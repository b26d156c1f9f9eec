// TypeBox schemas of JSON documents (docs/api.md, "Documents"): ids, flat metadata, the write bodies, the
// summary and the stored document, matching server/indexing/collection-types.ts.

import { Type } from 'typebox';
import type { Static } from 'typebox';
import type { Metadata } from '../../engine/index.ts';
import { CollectionNameSchema } from './collection.ts';
import { EMBEDDER_NAME_PATTERN, MAX_EMBEDDERS, MAX_VECTOR_DIMENSIONS } from '../settings/index.ts';
import { MAX_BATCH_DOCUMENTS } from './limits.ts';
import { DOCUMENT_ID_PATTERN, MAX_DOCUMENT_ID_LENGTH, MAX_METADATA_FIELD_LENGTH, METADATA_FIELD_PATTERN } from '../names/index.ts';



export const DocumentIdSchema = Type.String({
  minLength: 1,
  maxLength: MAX_DOCUMENT_ID_LENGTH,
  pattern: DOCUMENT_ID_PATTERN,
  description: 'Document id: 1–256 characters of `[A-Za-z0-9_.:-]`.',
});

export const DocumentParamsSchema = Type.Object({ name: CollectionNameSchema, id: DocumentIdSchema });

/** `GET …/documents/{id}/pages/{page}/image`: a page of the kept original as a picture. */
export const PageImageParamsSchema = Type.Object({
  name: CollectionNameSchema,
  id: DocumentIdSchema,
  page: Type.Integer({ minimum: 1, maximum: 1_000_000, description: '1-based physical page number (as a hit\'s `page`).' }),
});

/** Widths a page picture may be asked for, in pixels (extract/preview/page-image.ts). */
export const MIN_PAGE_IMAGE_WIDTH = 16;
export const MAX_PAGE_IMAGE_WIDTH = 2048;
export const DEFAULT_PAGE_IMAGE_WIDTH = 800;

export const PageImageQuerySchema = Type.Object(
  {
    width: Type.Optional(Type.Integer({ minimum: MIN_PAGE_IMAGE_WIDTH, maximum: MAX_PAGE_IMAGE_WIDTH, default: DEFAULT_PAGE_IMAGE_WIDTH, description: 'Width in pixels (an image file is never enlarged; a very tall page is made narrower to stay within 6 million pixels).' })),
    format: Type.Optional(Type.Union([Type.Literal('webp'), Type.Literal('png')], { default: 'webp', description: 'The picture\'s encoding.' })),
  },
  { additionalProperties: false },
);

export const MetadataValueSchema = Type.Union(
  [Type.String(), Type.Number(), Type.Boolean(), Type.Array(Type.String()), Type.Array(Type.Number())],
  { description: 'A string, finite number, boolean, or an array of strings or of numbers.' },
);

const metadataFieldNames = { maxLength: MAX_METADATA_FIELD_LENGTH, pattern: METADATA_FIELD_PATTERN };

// Declared with `additionalProperties` (friendlier to OpenAPI tools than TypeBox's Record,
// which emits `patternProperties`), typed as the engine's Metadata.
export const MetadataSchema = Type.Unsafe<Metadata>({
  type: 'object',
  additionalProperties: MetadataValueSchema,
  propertyNames: metadataFieldNames,
  description: 'Flat object; every field is filterable, facetable and sortable.',
});

/** PATCH metadata: a null value removes the field. */
export const MetadataPatchSchema = Type.Unsafe<Record<string, Metadata[string] | null>>({
  type: 'object',
  additionalProperties: Type.Union([MetadataValueSchema, Type.Null()]),
  propertyNames: metadataFieldNames,
  description: 'Merged into the stored metadata; a null value removes that field.',
});

/** A document's own vectors, by `user` embedder (checked against the collection's embedders). */
export const DocumentVectorsSchema = Type.Record(
  Type.String({ pattern: EMBEDDER_NAME_PATTERN }),
  Type.Array(Type.Number(), { minItems: 1, maxItems: MAX_VECTOR_DIMENSIONS }),
  { maxProperties: MAX_EMBEDDERS, description: "Vectors for the collection's `user` embedders: name → numbers, of its dimensions." },
);

const documentFields = {
  title: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  text: Type.Optional(Type.String()),
  metadata: Type.Optional(MetadataSchema),
  vectors: Type.Optional(DocumentVectorsSchema),
};

/** PUT body: the id comes from the path. */
export const DocumentBodySchema = Type.Object(documentFields, { additionalProperties: false });

export const DocumentWithIdSchema = Type.Object(
  { id: DocumentIdSchema, ...documentFields },
  { additionalProperties: false, title: 'DocumentInput' },
);
/** A JSON document as a client sends it, already schema-validated. */
export type DocumentInput = Static<typeof DocumentWithIdSchema>;

export const DocumentBatchSchema = Type.Array(DocumentWithIdSchema, {
  minItems: 1,
  maxItems: MAX_BATCH_DOCUMENTS,
  description: `1 to ${MAX_BATCH_DOCUMENTS} documents; more is refused with 413 \`payload_too_large\`.`,
});

/** POST body: one document or a batch (JSON array, or NDJSON with one document a line). */
export const DocumentPostBodySchema = Type.Union([DocumentWithIdSchema, DocumentBatchSchema]);

export const DocumentPatchBodySchema = Type.Object(
  {
    title: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    metadata: Type.Optional(MetadataPatchSchema),
  },
  { additionalProperties: false },
);
/** A PATCH: title replaced when present; metadata merged (a null value removes the key). */
export type DocumentPatch = Static<typeof DocumentPatchBodySchema>;

export const DocumentSummarySchema = Type.Object(
  {
    id: Type.String(),
    title: Type.Union([Type.String(), Type.Null()]),
    format: Type.String({ description: '`text` for JSON documents, else the file type.' }),
    pages: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
    bytes: Type.Integer({ minimum: 0 }),
    metadata: MetadataSchema,
    indexed_at: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false, title: 'DocumentSummary' },
);
/** Document summary (docs/api.md, "Documents"). `pages` is null for documents without pages. */
export type DocumentSummary = Static<typeof DocumentSummarySchema>;

export const StoredDocumentSchema = Type.Object(
  {
    ...DocumentSummarySchema.properties,
    text: Type.String(),
    vectors: Type.Optional(DocumentVectorsSchema),
    page_list: Type.Union([
      Type.Array(
        Type.Object(
          { number: Type.Integer({ minimum: 1 }), label: Type.Union([Type.String(), Type.Null()]) },
          { additionalProperties: false },
        ),
      ),
      Type.Null(),
    ]),
  },
  { additionalProperties: false, title: 'StoredDocument' },
);
/** The stored document, as `GET …/documents/{id}` returns it. */
export type StoredDocument = Static<typeof StoredDocumentSchema>;

export const IndexedResponseSchema = Type.Object(
  { indexed: Type.Integer({ minimum: 0 }), ids: Type.Array(Type.String()) },
  { additionalProperties: false },
);

/** `?refresh=wait_for`: answer once the write is searchable; `true`: refresh now, then answer. */
export const WriteQuerySchema = Type.Object(
  {
    refresh: Type.Optional(
      Type.Union([Type.Literal('wait_for'), Type.Literal('true')], {
        description: '`wait_for`: respond once the change is searchable, after the next scheduled refresh; `true`: start that refresh now, then respond.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const RefreshResponseSchema = Type.Object(
  { refreshed: Type.Literal(true) },
  { additionalProperties: false },
);

/**
 * The multipart body of `POST …/files` as OpenAPI describes it (the route reads the parts as a
 * stream, so this schema documents, it does not validate): the file and three optional fields.
 */
export const UploadFileBodySchema = Type.Object(
  {
    file: Type.String({ format: 'binary', contentMediaType: 'application/octet-stream', description: 'The file; its name gives its extension when its bytes do not say its type.' }),
    id: Type.Optional(Type.String({ ...DocumentIdSchema, description: 'Document id; default: the hex SHA-256 of the bytes.' })),
    title: Type.Optional(Type.String({ description: "Default: the file's own title (PDF metadata, first heading…)." })),
    metadata: Type.Optional(
      Type.String({ contentMediaType: 'application/json', description: 'A flat JSON object as text, e.g. `{"shelf":"b2"}`; the file\'s format, extension and size are added.' }),
    ),
    ocr_languages: Type.Optional(
      Type.String({ description: "The languages its images and scanned pages are read in, as Tesseract codes joined by '+' (`deu+eng`); default: the collection's `ocr_languages`. Each must be installed (`GET /v1/formats`)." }),
    ),
  },
  { title: 'UploadFileBody', description: 'multipart/form-data' },
);
