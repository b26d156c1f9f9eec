// Damage is contained (issue 18): a collection whose files fail their checks — at start, or
// while it serves — is set aside as unavailable while every other collection serves. Its
// requests answer 503 `collection_unavailable` naming the damaged file (relative to the
// collection, never the server's paths); GET /v1/stats lists it with the reason; `folio check
// --repair` (collection-check.ts) makes it serve again.

import path from 'node:path';
import { CorruptFileError } from '../../storage/index.ts';
import { FolioError } from '../errors/index.ts';

export interface DamagedCollection {
  name: string;
  dir: string;
  /** The damaged file relative to the collection's directory, when known. */
  file: string | null;
  /** What is wrong, for people: the file and the check it failed. */
  reason: string;
}

/** Is `error` a damaged file (here, or reported back by a worker with its code)? */
export function isDamage(error: unknown): boolean {
  return error instanceof CorruptFileError || (error instanceof Error && (error as { code?: unknown }).code === 'corrupt_file');
}

/** What a failure to open (or serve) the collection at `dir` says about it. */
export function describeDamage(name: string, dir: string, error: unknown): DamagedCollection {
  if (error instanceof CorruptFileError) {
    const file = path.relative(dir, error.path) || path.basename(error.path);
    return { name, dir, file, reason: `${file} is damaged: ${error.reason}` };
  }
  const message = error instanceof Error ? error.message : String(error);
  // A worker's CorruptFileError arrives as a plain Error: its message names the absolute path.
  const absolute = /^corrupt file (.+?): (.*)$/s.exec(message);
  if (absolute !== null) {
    const file = path.relative(dir, absolute[1]);
    return { name, dir, file, reason: `${file} is damaged: ${absolute[2]}` };
  }
  return { name, dir, file: null, reason: `could not be opened: ${message.split(dir).join('<collection>')}` };
}

/** The 503 every request for a damaged collection gets. */
export function collectionUnavailable(damaged: DamagedCollection): FolioError {
  return new FolioError(
    'collection_unavailable',
    `collection '${damaged.name}' is unavailable: ${damaged.reason}. Other collections are not affected. `
      + "Stop the server and run 'folio check --repair' to set the damaged files aside, then re-index what it lists.",
  );
}
