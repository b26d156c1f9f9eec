// The sort syntax (docs/api.md, "Search"): turns `year:desc,title:asc` (one string, or an array of them from
// repeated query parameters or a JSON body) into SortKeys, or throws
// EngineError('invalid_sort') with a message naming the key.
//
// - Each comma-separated entry is `name` or `name:asc|desc` (direction in any case).
//   Whitespace around an entry, name or direction is ignored, and so are empty entries.
// - `_score` is relevance (default desc), `_id` the document id and `title` the document's
//   title (default asc); any other name is a metadata field (default asc) and follows the
//   field-name rule of metadata.
// - At most MAX_SORT_KEYS keys; each may appear once. No keys at all gives [] (the caller's
//   default order, relevance).

import { EngineError } from '../errors.ts';
import { FIELD_NAME_RULE, isAllowedFieldName } from '../filter/index.ts';
import { MAX_SORT_KEYS } from './sort-types.ts';
import type { SortDirection, SortKey } from './sort-types.ts';

/** Separates keys in one string, and a key's name from its direction. */
const KEY_SEPARATOR = ',';
const DIRECTION_SEPARATOR = ':';

/** Names that sort by something other than a metadata field, with their default direction. */
const BUILT_IN_KEYS: ReadonlyMap<string, { kind: 'score' | 'id' | 'title'; direction: SortDirection }> = new Map([
  ['_score', { kind: 'score', direction: 'desc' }],
  ['_id', { kind: 'id', direction: 'asc' }],
  ['title', { kind: 'title', direction: 'asc' }],
]);

const FIELD_DEFAULT_DIRECTION: SortDirection = 'asc';

/** Keys and names longer than this are cut short when quoted in a message. */
const MAX_QUOTED_LENGTH = 64;

/** Parses `sort` (docs/api.md, "Search") into SortKeys, first key first; [] for undefined or empty. */
export function parseSort(input: string | string[] | undefined): SortKey[] {
  if (input === undefined) return [];
  const entries: unknown[] = Array.isArray(input) ? input : [input];
  const keys: SortKey[] = [];
  const seen = new Set<string>();
  for (const entry of entries) {
    if (typeof entry !== 'string') fail('sort: must be a string or an array of strings');
    for (const raw of entry.split(KEY_SEPARATOR)) {
      const text = raw.trim();
      if (text === '') continue;
      const key = parseSortKey(text);
      const identity = key.kind === 'field' ? `field${DIRECTION_SEPARATOR}${key.field}` : key.kind;
      if (seen.has(identity)) {
        fail(`sort key ${quote(text)}: sorts on ${quote(nameOf(key))} a second time; a key may appear once`);
      }
      seen.add(identity);
      keys.push(key);
      if (keys.length > MAX_SORT_KEYS) fail(`sort: at most ${MAX_SORT_KEYS} keys are allowed`);
    }
  }
  return keys;
}

/** One `name` or `name:direction`, already trimmed and not empty. */
function parseSortKey(text: string): SortKey {
  const separator = text.indexOf(DIRECTION_SEPARATOR);
  const name = separator < 0 ? text : text.slice(0, separator).trim();
  const direction = separator < 0 ? undefined : parseDirection(text, text.slice(separator + 1).trim());
  const builtIn = BUILT_IN_KEYS.get(name);
  if (builtIn !== undefined) return { kind: builtIn.kind, direction: direction ?? builtIn.direction };
  if (!isAllowedFieldName(name)) {
    fail(`sort key ${quote(text)}: ${quote(name)} is not an allowed field name (${FIELD_NAME_RULE})`);
  }
  return { kind: 'field', field: name, direction: direction ?? FIELD_DEFAULT_DIRECTION };
}

function parseDirection(text: string, direction: string): SortDirection {
  const lower = direction.toLowerCase();
  if (lower === 'asc' || lower === 'desc') return lower;
  fail(`sort key ${quote(text)}: the direction must be "asc" or "desc", not ${quote(direction)}`);
}

/** The name a key was written with, for messages. */
function nameOf(key: SortKey): string {
  if (key.kind === 'field') return key.field;
  return key.kind === 'title' ? 'title' : `_${key.kind}`;
}

function fail(message: string): never {
  throw new EngineError('invalid_sort', message);
}

/** A string in JSON quotes, cut short when very long. */
function quote(text: string): string {
  return JSON.stringify(text.length <= MAX_QUOTED_LENGTH ? text : `${text.slice(0, MAX_QUOTED_LENGTH)}…`);
}
