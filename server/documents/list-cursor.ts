// The cursor of the document listing: the last id of a page in base64url, opaque to clients (so
// it can carry more later) and checked when it comes back: a cursor that does not decode to a
// document id is a 400 naming the parameter.

import { isValidDocumentId } from '../names/index.ts';
import { FolioError } from '../errors/index.ts';

export function encodeListCursor(lastId: string): string {
  return Buffer.from(lastId, 'utf8').toString('base64url');
}

/** The id the page after `cursor` starts after; FolioError validation_failed when it is not a cursor. */
export function decodeListCursor(cursor: string): string {
  const id = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  if (!isValidDocumentId(id) || encodeListCursor(id) !== cursor) {
    throw new FolioError('validation_failed', 'cursor: not a cursor from this listing', [
      { path: '/querystring/cursor', message: 'must be the next_cursor of a previous page, unchanged' },
    ]);
  }
  return id;
}
