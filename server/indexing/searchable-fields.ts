// Searchable fields and their weights (docs/api.md, "Settings: searchable fields"): a collection's
// `searchable_fields` and a search's `search_fields` (`title^2,text`), checked beyond their schema
// — each field once, `title` and `text` only for now (a metadata field is refused, naming the
// entry: searching one needs its words indexed) — and made into the engine's FieldWeights, a
// field left out weighing 0 (not searched).

import { DEFAULT_FIELD_WEIGHTS } from '../../engine/index.ts';
import type { FieldWeights } from '../../engine/index.ts';
import { Compile } from 'typebox/compile';
import { Type } from 'typebox';
import { MAX_FIELD_WEIGHT, SearchableFieldSchema } from '../api/index.ts';
import type { SearchableFieldWire } from '../api/index.ts';
import { FolioError } from '../errors/index.ts';
import type { FieldError } from '../errors/index.ts';

const storedFields = Compile(Type.Array(SearchableFieldSchema, { minItems: 1 }));

/** The fields a search may look in, for now. */
const SEARCHABLE = ['title', 'text'] as const;
type Searchable = (typeof SEARCHABLE)[number];

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
    if (field.startsWith('metadata.')) {
      errors.push({ path: pathOf(i), message: `${JSON.stringify(field)}: metadata fields cannot be searched yet, only title and text (docs/api.md, "Not yet")` });
    } else if (!(SEARCHABLE as readonly string[]).includes(field)) {
      errors.push({ path: pathOf(i), message: `${JSON.stringify(field)} is not a searchable field (title, text)` });
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
  for (const { field, weight } of fields) weights[field as Searchable] = weight;
  return weights;
}

/** Whether the weights are the default ones (a search then carries none). */
export function isDefaultWeights(weights: FieldWeights): boolean {
  return weights.title === DEFAULT_FIELD_WEIGHTS.title && weights.text === DEFAULT_FIELD_WEIGHTS.text;
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
