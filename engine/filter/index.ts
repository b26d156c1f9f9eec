// Public surface of metadata filters (docs/api.md, "Search"): parse a filter object into a FilterNode, and
// the reference matcher for one document's metadata. Evaluating a node against a segment's
// bitmaps is the searcher's job.

export { FIELD_NAME_RULE, MAX_FIELD_NAME_LENGTH, isAllowedFieldName, parseFilter } from './filter-parser.ts';
export { matchesFilter } from './filter-matcher.ts';
export { MAX_FILTER_CLAUSES, MAX_FILTER_DEPTH, bothFilters } from './filter-types.ts';
export type { FilterNode, FilterScalar, RangeBounds } from './filter-types.ts';
