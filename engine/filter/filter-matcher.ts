// The reference semantics of filters: whether one document's metadata matches a FilterNode.
// Used for documents not yet in a segment, and as the oracle the bitmap evaluator is tested
// against. Simple on purpose; it is not the fast path.
//
// - `in`: some element of the field's value (a scalar is one element) strictly equals some
//   filter value. Types never mix: 1 ≠ "1", true ≠ "true".
// - `range`: some element of the bounds' type satisfies every bound; numbers compare
//   numerically, strings by Unicode code point (the order of the segment's value dictionary).
//   Booleans are in no range.
// - A missing field (or an empty array) matches neither; `not` inverts, so `$not` matches
//   documents without the field.

import type { Metadata, MetadataValue } from '../document.ts';
import { compareCodePoints } from '../segment/term-order.ts';
import type { FilterNode, FilterScalar, RangeBounds } from './filter-types.ts';

export function matchesFilter(node: FilterNode, metadata: Metadata): boolean {
  switch (node.kind) {
    case 'match_all':
      return true;
    case 'and':
      return node.children.every((child) => matchesFilter(child, metadata));
    case 'or':
      return node.children.some((child) => matchesFilter(child, metadata));
    case 'not':
      return !matchesFilter(node.child, metadata);
    case 'in':
      return elementsOf(metadata, node.field).some((element) => node.values.includes(element));
    case 'range':
      return elementsOf(metadata, node.field).some((element) => withinBounds(element, node.bounds));
  }
}

/** The field's value as a list of elements; none when the document lacks the field. */
function elementsOf(metadata: Metadata, field: string): readonly FilterScalar[] {
  // Own properties only: a field named "constructor" must not find Object.prototype's.
  if (!Object.hasOwn(metadata, field)) return [];
  const value: MetadataValue = metadata[field];
  return Array.isArray(value) ? value : [value];
}

/** Whether `element` satisfies every bound; an element of another type satisfies none. */
function withinBounds(element: FilterScalar, bounds: RangeBounds): boolean {
  const { gt, gte, lt, lte } = bounds;
  if (gt !== undefined && !(compare(element, gt) > 0)) return false;
  if (gte !== undefined && !(compare(element, gte) >= 0)) return false;
  if (lt !== undefined && !(compare(element, lt) < 0)) return false;
  if (lte !== undefined && !(compare(element, lte) <= 0)) return false;
  return true;
}

/** Orders an element against a bound of the same type; NaN (never satisfying) across types. */
function compare(element: FilterScalar, bound: number | string): number {
  if (typeof element === 'number' && typeof bound === 'number') return element - bound;
  if (typeof element === 'string' && typeof bound === 'string') return compareCodePoints(element, bound);
  return Number.NaN;
}
