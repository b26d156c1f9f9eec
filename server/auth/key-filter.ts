// A key's filter (docs/api.md, "Keys with a filter"): tenancy inside a collection. A key created
// with `filter` (a filter object as a search takes it) sees only the documents that match it, in
// every read: searches in every mode, `similar_to`, facets, listing, get and downloads; anything
// else is 404 as if absent. Such a key has only the `search` scope. A key a filtered key creates
// inherits its filter, ANDed with its own. The record keeps the filter as written (or, for an
// inherited one, the two combined into one filter object); the parsed form is made once per
// record and kept.

import { parseFilter } from '../../engine/index.ts';
import type { FilterNode } from '../../engine/index.ts';
import { FolioError } from '../errors/index.ts';
import type { FieldError } from '../errors/index.ts';

/** A filter object as a client writes it (`{"tenant": "acme"}`). */
export type KeyFilter = Readonly<Record<string, unknown>>;

/** Checks a new key's `filter`: null or a non-empty filter object the filter syntax accepts. */
export function checkKeyFilter(filter: unknown, errors: FieldError[]): KeyFilter | null {
  if (filter === undefined || filter === null) return null;
  if (typeof filter !== 'object' || Array.isArray(filter)) {
    errors.push({ path: '/body/filter', message: 'must be a filter object, or null for every document' });
    return null;
  }
  if (Object.keys(filter).length === 0) {
    errors.push({ path: '/body/filter', message: 'must name at least one condition ({} would see every document: leave the filter out)' });
    return null;
  }
  try {
    parseFilter(filter);
  } catch (error) {
    errors.push({ path: '/body/filter', message: (error as Error).message });
    return null;
  }
  return deepFreeze(structuredClone(filter) as Record<string, unknown>);
}

/**
 * `own` ANDed with the creating key's `inherited` filter, as one filter object: the keys side by
 * side when they share none, else `NOT (NOT inherited OR NOT own)`. Refused (400, at
 * `/body/filter`) when the two together break the filter limits.
 */
export function andKeyFilters(inherited: KeyFilter | null, own: KeyFilter | null): KeyFilter | null {
  if (inherited === null) return own;
  if (own === null) return inherited;
  const shared = Object.keys(own).some((name) => Object.hasOwn(inherited, name));
  const combined = shared ? { $not: { $or: [{ $not: inherited }, { $not: own }] } } : { ...inherited, ...own };
  try {
    parseFilter(combined);
  } catch (error) {
    const message = `with the creating key's own filter, ${(error as Error).message}`;
    throw new FolioError('invalid_filter', message, [{ path: '/body/filter', message }]);
  }
  return deepFreeze(structuredClone(combined) as Record<string, unknown>);
}

const parsed = new WeakMap<KeyFilter, FilterNode>();

/** The parsed filter of a key's record, made once per record. */
export function keyFilterNode(filter: KeyFilter): FilterNode {
  let node = parsed.get(filter);
  if (node === undefined) {
    node = parseFilter(filter);
    parsed.set(filter, node);
  }
  return node;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
