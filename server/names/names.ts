// The names and ids the contract allows (docs/api.md, "Collections", "Documents"): collection
// names, document ids and metadata field names, each as a pattern and a length, and the
// language a collection gets when it names none. Below every room that checks one (api/'s
// schemas, ingest/, indexing/, documents/, auth/), so each rule is written once.

/** Lowercase letters, digits, `_` and `-`; starts with a letter or digit; 1–64 characters. */
export const COLLECTION_NAME_PATTERN = '^[a-z0-9][a-z0-9_-]{0,63}$';

/** Stemmer language used when a collection is created without one. */
export const DEFAULT_LANGUAGE = 'english';

/** Document ids: letters, digits, `_`, `.`, `:` and `-` (at most MAX_DOCUMENT_ID_LENGTH). */
export const DOCUMENT_ID_PATTERN = '^[A-Za-z0-9_.:-]+$';

/**
 * Metadata field names: not empty, no leading `$` (reserved for filter operators such as
 * `$or`), and no `,` or `:` (they separate fields in `facets=a,b` and `sort=year:desc`).
 */
export const METADATA_FIELD_PATTERN = '^[^$,:][^,:]*$';

/** Longest document id and metadata field name, in characters. */
export const MAX_DOCUMENT_ID_LENGTH = 256;
export const MAX_METADATA_FIELD_LENGTH = 128;

const DOCUMENT_ID = new RegExp(DOCUMENT_ID_PATTERN);
const COLLECTION_NAME = new RegExp(COLLECTION_NAME_PATTERN);

/** A document id the contract allows: 1–256 characters of [A-Za-z0-9_.:-]. */
export function isValidDocumentId(id: unknown): id is string {
  return typeof id === 'string' && id.length >= 1 && id.length <= MAX_DOCUMENT_ID_LENGTH && DOCUMENT_ID.test(id);
}

/** A collection name the contract allows (COLLECTION_NAME_PATTERN). */
export function isValidCollectionName(name: unknown): name is string {
  return typeof name === 'string' && COLLECTION_NAME.test(name);
}
