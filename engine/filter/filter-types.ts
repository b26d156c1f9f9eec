// The filter AST (docs/api.md, "Search"): what parseFilter makes of a user's filter object, and what the
// searcher evaluates against segments' metadata. Plain data only (structured-cloneable), so it
// can cross to search workers as is. The grammar and its errors live in filter-parser.ts.

/** A value a filter compares with: metadata values are these, or arrays of strings or numbers. */
export type FilterScalar = string | number | boolean;

/** Bounds of one range: all numbers, or all strings (compared by Unicode code point). At least one bound. */
export interface RangeBounds {
  gt?: number | string;
  gte?: number | string;
  lt?: number | string;
  lte?: number | string;
}

export type FilterNode =
  /** `{}`, the empty filter: every document. */
  | { kind: 'match_all' }
  /** Several keys of one object: every child (at least 2 children). */
  | { kind: 'and'; children: FilterNode[] }
  /** `$or`: any child (at least 2 children). */
  | { kind: 'or'; children: FilterNode[] }
  /** `$not`: documents the child does not match, including those missing its fields. */
  | { kind: 'not'; child: FilterNode }
  /** Equality: a value of the field equals one of `values` (deduplicated, type-strict). */
  | { kind: 'in'; field: string; values: FilterScalar[] }
  /** A value of the field, of the bounds' type, lies within every bound. */
  | { kind: 'range'; field: string; bounds: RangeBounds };

/** docs/api.md, "Limits": at most 64 filter clauses, counting field conditions (`in` and `range` leaves). */
export const MAX_FILTER_CLAUSES = 64;

/** Filter objects may nest at most this deep (the whole filter is level 1; `$or`/`$not` add one). */
export const MAX_FILTER_DEPTH = 8;

/** Documents matching both filters (null: no filter); built after parsing, so no limit applies to the pair. */
export function bothFilters(a: FilterNode | null, b: FilterNode | null): FilterNode | null {
  if (a === null || a.kind === 'match_all') return b;
  if (b === null || b.kind === 'match_all') return a;
  return { kind: 'and', children: [a, b] };
}
