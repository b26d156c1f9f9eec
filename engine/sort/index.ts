// Public surface of search sorting (docs/api.md, "Search"): parse `sort=year:desc,title:asc` into SortKeys.
// Ordering hits by them is the searcher's job.

export { parseSort } from './sort-parser.ts';
export { MAX_SORT_KEYS } from './sort-types.ts';
export type { SortDirection, SortKey } from './sort-types.ts';
