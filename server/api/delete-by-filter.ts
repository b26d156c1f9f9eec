// TypeBox schemas of delete by filter (docs/api.md, "Documents"): `POST …/documents/delete` with
// `{ "filter": {...} }` answers `{ "deleted": n }`. The filter's grammar is checked by the
// engine's parser (400 invalid_filter); the schema only requires a non-empty object, so an
// empty filter sent by mistake cannot empty a collection.

import { Type } from 'typebox';

export const DeleteByFilterBodySchema = Type.Object(
  {
    filter: Type.Unsafe<Record<string, unknown>>({
      type: 'object',
      minProperties: 1,
      description:
        'The documents to delete: a filter object as in search (docs/api.md, "Search"). `{}` is refused; '
        + 'to remove every document, delete and re-create the collection.',
    }),
  },
  { additionalProperties: false },
);

export const DeletedResponseSchema = Type.Object(
  { deleted: Type.Integer({ minimum: 0, description: 'How many documents were deleted.' }) },
  { additionalProperties: false, title: 'DeletedResponse' },
);
