// The contract's rules for a client's document, a PATCH and an upload's fields (docs/api.md,
// "Documents"), checked before anything is written so a write is all or nothing: ids, titles,
// text and flat metadata (strings, finite numbers, booleans, arrays of strings or of numbers),
// each problem named by its JSON pointer. Routes validate with schemas first; the document
// service checks again, which guards every other caller too.

import { FolioError } from '../errors/index.ts';
import type { FieldError } from '../errors/index.ts';
import type { DocumentInput, DocumentPatch } from './document.ts';
import { MAX_LISTED_FIELD_ERRORS } from './limits.ts';
import { MAX_DOCUMENT_ID_LENGTH, MAX_METADATA_FIELD_LENGTH, METADATA_FIELD_PATTERN, isValidDocumentId } from '../names/index.ts';

const FIELD_PATTERN = new RegExp(METADATA_FIELD_PATTERN);

type Report = (path: string, message: string) => void;

function isMetadataValue(value: unknown): boolean {
  if (typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (!Array.isArray(value)) return false;
  return (
    value.every((item) => typeof item === 'string') ||
    value.every((item) => typeof item === 'number' && Number.isFinite(item))
  );
}

function checkMetadata(metadata: unknown, at: string, allowNull: boolean, report: Report): void {
  if (metadata === undefined) return;
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) {
    report(at, 'must be an object');
    return;
  }
  for (const [field, value] of Object.entries(metadata)) {
    if (field.length > MAX_METADATA_FIELD_LENGTH || !FIELD_PATTERN.test(field)) {
      report(`${at}/${field}`, `field names are 1-${MAX_METADATA_FIELD_LENGTH} characters, without ',' or ':' and not starting with '$'`);
    } else if (!(allowNull && value === null) && !isMetadataValue(value)) {
      report(`${at}/${field}`, 'must be a string, a finite number, a boolean, or an array of strings or of numbers');
    }
  }
}

function checkTitle(title: unknown, at: string, report: Report): void {
  if (title !== undefined && title !== null && typeof title !== 'string') report(at, 'must be a string or null');
}

function collector(): { errors: FieldError[]; report: Report } {
  const errors: FieldError[] = [];
  return {
    errors,
    report: (path, message) => {
      if (errors.length < MAX_LISTED_FIELD_ERRORS) errors.push({ path, message });
    },
  };
}

/** Throws FolioError `validation_failed` listing every problem of every document. */
export function validateDocumentInputs(documents: readonly DocumentInput[]): void {
  const { errors, report } = collector();
  if (documents.length === 0) report('/body', 'at least one document is required');
  documents.forEach((doc, index) => {
    const at = documents.length === 1 ? '/body' : `/body/${index}`;
    if (typeof doc !== 'object' || doc === null) {
      report(at, 'must be an object');
      return;
    }
    if (!isValidDocumentId(doc.id)) report(`${at}/id`, `must be 1-${MAX_DOCUMENT_ID_LENGTH} characters of [A-Za-z0-9_.:-]`);
    checkTitle(doc.title, `${at}/title`, report);
    if (doc.text !== undefined && typeof doc.text !== 'string') report(`${at}/text`, 'must be a string');
    checkMetadata(doc.metadata, `${at}/metadata`, false, report);
  });
  if (errors.length > 0) throw new FolioError('validation_failed', 'the request body is invalid', errors);
}

/**
 * Throws FolioError `validation_failed` listing every problem of a file upload's fields (the
 * optional `id`, `title` and `metadata`, the latter already parsed from its JSON string).
 */
export function validateFileFields(fields: { id?: unknown; title?: unknown; metadata?: unknown }): void {
  const { errors, report } = collector();
  if (fields.id !== undefined && !isValidDocumentId(fields.id)) {
    report('/body/id', `must be 1-${MAX_DOCUMENT_ID_LENGTH} characters of [A-Za-z0-9_.:-]`);
  }
  checkTitle(fields.title, '/body/title', report);
  checkMetadata(fields.metadata, '/body/metadata', false, report);
  if (errors.length > 0) throw new FolioError('validation_failed', 'invalid upload fields', errors);
}

/** Throws FolioError `validation_failed` when a patch is malformed. */
export function validateDocumentPatch(patch: DocumentPatch): void {
  const { errors, report } = collector();
  if (typeof patch !== 'object' || patch === null) {
    report('/body', 'must be an object');
  } else {
    checkTitle(patch.title, '/body/title', report);
    checkMetadata(patch.metadata, '/body/metadata', true, report);
  }
  if (errors.length > 0) throw new FolioError('validation_failed', 'the request body is invalid', errors);
}
