// Where `folio index` files live in a collection: the root they are indexed from, their path
// relative to it, the metadata the CLI gives each (path, folder, modified_at, root, sha256),
// and the document id derived from the path, so a file edited and indexed again replaces its
// document instead of adding one.
//
// An id is the relative path with `/` written `:` (`guides/setup.md` → `guides:setup.md`).
// Ids hold only `A-Z a-z 0-9 _ . : -`: any other character becomes `-`, and the id then ends
// with `::` and 8 hex digits of the path's SHA-256, which keeps ids of different paths apart
// (`meeting notes.md` → `meeting-notes.md::1c0d2e9a`; a path never gives `::` otherwise, as it
// has no empty folder name). A path whose id would pass 256 characters is cut and ends the same way.

import { createHash } from 'node:crypto';
import { dirname, relative, resolve, sep } from 'node:path';

const MAX_ID_LENGTH = 256;
const HASH_SUFFIX_LENGTH = 2 + 8;
const ID_CHARACTER = /[A-Za-z0-9_.-]/;

/** A path with `/` between its parts on every system. */
export function portablePath(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

/** The document id of the file at `relativePath` (portable, relative to the root). */
export function idForPath(relativePath: string): string {
  let lossy = false;
  let id = '';
  for (const character of relativePath) {
    if (character === '/') id += ':';
    else if (ID_CHARACTER.test(character)) id += character;
    else {
      id += '-';
      lossy = true;
    }
  }
  if (!lossy && id.length <= MAX_ID_LENGTH) return id;
  const hash = createHash('sha256').update(relativePath).digest('hex').slice(0, 8);
  return `${id.slice(0, MAX_ID_LENGTH - HASH_SUFFIX_LENGTH)}::${hash}`;
}

/**
 * The root the paths are indexed from: the folder itself when one folder is given, else the
 * deepest folder holding every path given (a single file: its folder).
 */
export function indexRoot(paths: readonly string[], isFolder: (path: string) => boolean): string {
  const absolute = paths.map((path) => resolve(path));
  if (absolute.length === 1 && isFolder(absolute[0])) return absolute[0];
  let root = isFolder(absolute[0]) ? absolute[0] : dirname(absolute[0]);
  for (const path of absolute) {
    while (relative(root, path).startsWith('..')) root = dirname(root);
  }
  return root;
}

/** The metadata the CLI gives an indexed file (the server adds format, extension and size). */
export interface FileMetadata {
  /** Relative to the root, `/` between parts. */
  path: string;
  /**
   * Every folder above the file, relative to the root (`["guides", "guides/setup"]`), so a
   * folder filter is an equality; absent for a file at the root.
   */
  folder?: string[];
  /** The file's modification time (RFC 3339, UTC, milliseconds). */
  modified_at: string;
  /** The absolute root it was indexed from: the next run of `folio index` over it syncs these documents. */
  root: string;
  /** Hex SHA-256 of the bytes, to tell a touched file from a changed one. */
  sha256: string;
}

export function fileMetadata(relativePath: string, modifiedMs: number, root: string, sha256: string): FileMetadata {
  const parts = relativePath.split('/').slice(0, -1);
  const folder = parts.map((_, index) => parts.slice(0, index + 1).join('/'));
  return {
    path: relativePath,
    ...(folder.length > 0 && { folder }),
    modified_at: new Date(modifiedMs).toISOString(),
    root: portablePath(root),
    sha256,
  };
}
