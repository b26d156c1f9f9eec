// The limits every ZIP read in extract/ obeys (format detection, office documents and e-books,
// zip archives), declared once here, and ZipLimitError, the refusal for breaking one.
//
// Two more limits come from the caller's ExtractionOptions (defaults in DEFAULT_EXTRACTION_OPTIONS,
// extraction.ts), because e-mail and gzip share them: `maxUnpackedBytes` bounds each entry and
// all entries read from one archive together (ZipArchive's budget; a zip archive's budget is
// also shared with everything nested in it, nested-extraction.ts), and `maxArchiveDepth`
// bounds containers within containers (nested-extraction.ts). An entry is never inflated past
// what is left of the budget, whatever its headers claim.

import { ExtractionError } from '../extraction.ts';

/** Most entries a central directory may list (a local-header walk stops there). */
export const MAX_ZIP_ENTRIES = 100_000;

/** Longest entry name in bytes (PATH_MAX on Linux); a longer one is not a real file's. */
export const MAX_ZIP_NAME_BYTES = 4096;

/** Deflate cannot compress better than about 1032:1; an entry declaring more is lying. */
export const MAX_COMPRESSION_RATIO = 1100;

/** Below this declared size an entry's compression ratio is not judged. */
export const RATIO_MIN_BYTES = 1024 * 1024;

/** Most bytes of a stored `mimetype` entry that format detection looks at. */
export const MAX_MIMETYPE_BYTES = 256;

/** Which limit refused the archive. */
export type ZipLimit = 'entries' | 'name' | 'ratio' | 'unpacked';

/** A ZIP file refused for one of its limits (the ones above, or the unpack budget). */
export class ZipLimitError extends ExtractionError {
  readonly limit: ZipLimit;

  constructor(limit: ZipLimit, message: string) {
    super('extraction_failed', message);
    this.name = 'ZipLimitError';
    this.limit = limit;
  }
}
