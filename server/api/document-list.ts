// TypeBox schemas of the document listing (docs/api.md, "Listing documents", GET …/documents): a page of documents in id
// order with an opaque cursor for the next page, the members each carries chosen by `fields`.

import { Type } from 'typebox';
import type { Static } from 'typebox';
import { StoredDocumentSchema } from './document.ts';
import { FILTER_DESCRIPTION, nameListSchema } from './search.ts';

export const DEFAULT_LIST_LIMIT = 20;
export const MAX_LIST_LIMIT = 1000;
/** A cursor is an id (at most 256 characters) in base64url. */
export const MAX_CURSOR_LENGTH = 400;

/** The members `fields` may name; `id` is always returned. */
export const LISTED_DOCUMENT_FIELDS = ['title', 'format', 'pages', 'bytes', 'metadata', 'indexed_at', 'text', 'page_list', 'vectors'] as const;
/** Without `fields`: the document summary (a page of files would otherwise carry their whole text). */
export const DEFAULT_LISTED_FIELDS = ['title', 'format', 'pages', 'bytes', 'metadata', 'indexed_at'] as const;

export const DocumentListQuerySchema = Type.Object(
  {
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: MAX_LIST_LIMIT, default: DEFAULT_LIST_LIMIT, description: `Documents per page, 1–${MAX_LIST_LIMIT} (default ${DEFAULT_LIST_LIMIT}).` }),
    ),
    cursor: Type.Optional(
      Type.String({ minLength: 1, maxLength: MAX_CURSOR_LENGTH, description: 'The `next_cursor` of the previous page; absent: the first page.' }),
    ),
    fields: Type.Optional(
      nameListSchema(
        `Members of each document besides \`id\`: any of ${LISTED_DOCUMENT_FIELDS.join(', ')}. Absent: the summary (${DEFAULT_LISTED_FIELDS.join(', ')}); \`fields=id\` gives ids only.`,
      ),
    ),
    filter: Type.Optional(Type.String({ description: `${FILTER_DESCRIPTION} URL-encoded JSON; empty means none.` })),
  },
  { additionalProperties: false },
);

const { id, ...otherMembers } = StoredDocumentSchema.properties;
export const ListedDocumentSchema = Type.Object(
  { id, ...Object.fromEntries(Object.entries(otherMembers).map(([name, schema]) => [name, Type.Optional(schema)])) },
  { additionalProperties: false, title: 'ListedDocument', description: 'A stored document with the members `fields` chose (`id` always).' },
);

export const DocumentListSchema = Type.Object(
  {
    documents: Type.Array(ListedDocumentSchema, { description: 'Ascending by id.' }),
    next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as `cursor` for the next page; null on the last page.' }),
  },
  { additionalProperties: false, title: 'DocumentList' },
);
export type DocumentList = Static<typeof DocumentListSchema>;
