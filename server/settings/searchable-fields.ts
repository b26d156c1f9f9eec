// Searchable fields and their weights (docs/api.md, "Settings: searchable fields"): a collection's
// `searchable_fields` and a search's `search_fields` (`title^2,metadata.author`), checked beyond
// their schema — each field once; `title`, `text` or `metadata.<name>`; a search names only
// metadata fields the collection makes searchable (only theirs have their words indexed) — and
// made into the engine's FieldWeights, a field left out weighing 0 (not searched).

import { DEFAULT_FIELD_WEIGHTS } from '../../engine/index.ts';
import type { FieldWeights } from '../../engine/index.ts';
import { Compile } from 'typebox/compile';
import { Type } from 'typebox';
import { MAX_FIELD_WEIGHT, SearchableFieldSchema } from './settings-shapes.ts';
import type { SearchableFieldWire } from './settings-shapes.ts';
import { FolioError } from '../errors/index.ts';
import type { FieldError } from '../errors/index.ts';

const storedFields = Compile(Type.Array(SearchableFieldSchema, { minItems: 1 }));

/** The fields besides metadata ones. */
const SEARCHABLE = ['title', 'text'] as const;
type Searchable = (typeof SEARCHABLE)[number];

const METADATA_PREFIX = 'metadata.';
/** A metadata field's name as docs/api.md allows it (no control characters either: they mark a field's terms in the index). */
const SEARCHABLE_METADATA_NAME = /^[^$,:\u0000-\u001f][^,:\u0000-\u001f]*$/;

/** The default: title 3, text 1. */
export const DEFAULT_SEARCHABLE_FIELDS: readonly SearchableFieldWire[] = Object.freeze([
  { field: 'title', weight: DEFAULT_FIELD_WEIGHTS.title },
  { field: 'text', weight: DEFAULT_FIELD_WEIGHTS.text },
]);

function refuse(errors: FieldError[]): never {
  throw new FolioError('validation_failed', `${errors[0].path}: ${errors[0].message}`, errors);
}

/** The field errors of a list of fields (`path` names each entry): unknown, not searchable yet, or twice. */
function fieldErrors(fields: readonly string[], pathOf: (index: number) => string): FieldError[] {
  const errors: FieldError[] = [];
  fields.forEach((field, i) => {
    if (field.startsWith(METADATA_PREFIX)) {
      if (!SEARCHABLE_METADATA_NAME.test(field.slice(METADATA_PREFIX.length))) {
        errors.push({ path: pathOf(i), message: `${JSON.stringify(field)}: a metadata field's name is not empty, does not start with $ and has no , : or control characters` });
      }
    } else if (!(SEARCHABLE as readonly string[]).includes(field)) {
      errors.push({ path: pathOf(i), message: `${JSON.stringify(field)} is not a searchable field (title, text or metadata.<name>)` });
    } else if (fields.indexOf(field) !== i) {
      errors.push({ path: pathOf(i), message: `${JSON.stringify(field)} is listed twice` });
    }
  });
  return errors;
}

/** A collection's `searchable_fields` as a client wrote them (schema-checked), checked; a copy. */
export function checkSearchableFields(fields: readonly SearchableFieldWire[], path: string): SearchableFieldWire[] {
  const errors = fieldErrors(fields.map((entry) => entry.field), (i) => `${path}/${i}/field`);
  if (errors.length > 0) refuse(errors);
  return fields.map((entry) => ({ ...entry }));
}

/** The setting read back from collection.json (absent: the default); null when it is not valid. */
export function searchableFieldsFromStored(value: unknown): SearchableFieldWire[] | null {
  if (value === undefined) return DEFAULT_SEARCHABLE_FIELDS.map((entry) => ({ ...entry }));
  if (!storedFields.Check(value)) return null;
  try {
    return checkSearchableFields(value as SearchableFieldWire[], '');
  } catch {
    return null;
  }
}

/** The engine's weights of a list of fields: those listed, the others 0. */
export function fieldWeightsOf(fields: readonly SearchableFieldWire[]): FieldWeights {
  const weights: FieldWeights = { title: 0, text: 0 };
  const metadata: Record<string, number> = {};
  for (const { field, weight } of fields) {
    if (field.startsWith(METADATA_PREFIX)) metadata[field.slice(METADATA_PREFIX.length)] = weight;
    else weights[field as Searchable] = weight;
  }
  if (Object.keys(metadata).length > 0) weights.metadata = metadata;
  return weights;
}

/** The metadata fields of a list of fields whose words are indexed, by name, sorted (each segment records them so). */
export function searchableMetadataFields(fields: readonly SearchableFieldWire[]): string[] {
  return fields
    .filter(({ field }) => field.startsWith(METADATA_PREFIX))
    .map(({ field }) => field.slice(METADATA_PREFIX.length))
    .sort();
}

/** Whether the weights are the default ones (a search then carries none). */
export function isDefaultWeights(weights: FieldWeights): boolean {
  return weights.title === DEFAULT_FIELD_WEIGHTS.title && weights.text === DEFAULT_FIELD_WEIGHTS.text && weights.metadata === undefined;
}

/**
 * A search's own weights against the collection's searchable metadata fields `searchable`: a
 * metadata field it names must be one of them (else FolioError `validation_failed` at `path`);
 * the others get weight 0, so `field:word` can still name them.
 */
export function searchWeightsWithin(weights: FieldWeights, searchable: readonly string[], path: string): FieldWeights {
  const named = Object.keys(weights.metadata ?? {});
  const unknown = named.filter((name) => !searchable.includes(name));
  if (unknown.length > 0) {
    refuse(
      unknown.map((name) => ({
        path,
        message: `${JSON.stringify(METADATA_PREFIX + name)} is not one of the collection's searchable_fields (only their words are indexed)`,
      })),
    );
  }
  if (searchable.length === 0) return weights;
  const metadata: Record<string, number> = {};
  for (const name of searchable) metadata[name] = weights.metadata?.[name] ?? 0;
  return { ...weights, metadata };
}

/**
 * A search's `search_fields` (`title^2`, `text`: weight 1 by default) as weights; `path` names
 * the parameter. Throws FolioError `validation_failed` naming what is wrong.
 */
export function parseSearchFields(names: readonly string[], path: string): FieldWeights {
  const entries = names.map((name) => {
    const caret = name.lastIndexOf('^');
    if (caret < 0) return { field: name, weight: 1, text: name };
    const weight = Number(name.slice(caret + 1));
    return { field: name.slice(0, caret), weight, text: name };
  });
  const errors = fieldErrors(entries.map((entry) => entry.field), () => path);
  for (const entry of entries) {
    if (!(entry.weight > 0 && entry.weight <= MAX_FIELD_WEIGHT)) errors.push({ path, message: `${JSON.stringify(entry.text)}: a weight is a number more than 0 and at most ${MAX_FIELD_WEIGHT}` });
  }
  if (entries.length === 0) errors.push({ path, message: 'names at least one field' });
  if (errors.length > 0) refuse(errors);
  return fieldWeightsOf(entries);
}
