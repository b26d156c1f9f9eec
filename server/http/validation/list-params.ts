// Parameters shared by the routes that take lists and filters in either encoding: a name list
// (`a,b`, repeated query parameters, or a JSON array) and a metadata filter (URL-encoded JSON
// on GET, an object in a body), parsed by the engine's parser (400 invalid_filter).

import { parseFilter } from '../../../engine/index.ts';
import type { FilterNode } from '../../../engine/index.ts';
import { FolioError } from '../../errors/index.ts';

/** `a,b` or `['a', 'b']` (or repeated query parameters) → the non-empty, trimmed names. */
export function listOf(value: string | string[] | undefined): string[] {
  const parts = value === undefined ? [] : Array.isArray(value) ? value : [value];
  return parts.flatMap((part) => part.split(',')).map((part) => part.trim()).filter((part) => part !== '');
}

/**
 * The filter, or null when there is none (absent, null, empty text, or `{}`). On GET it is
 * JSON text; text that is not JSON is an invalid filter, like a bad object.
 */
export function toFilter(filter: string | Record<string, unknown> | null | undefined): FilterNode | null {
  if (filter === undefined || filter === null) return null;
  let input: unknown = filter;
  if (typeof filter === 'string') {
    if (filter.trim() === '') return null;
    try {
      input = JSON.parse(filter);
    } catch (error) {
      throw new FolioError('invalid_filter', `filter is not valid JSON (${(error as Error).message})`);
    }
  }
  const node = parseFilter(input);
  return node.kind === 'match_all' ? null : node;
}
