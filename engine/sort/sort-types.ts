// The sort order of a search (docs/api.md, "Search"): what parseSort makes of `sort=year:desc,title:asc`,
// and what the searcher orders hits by, first key first. Plain data only.

export type SortDirection = 'asc' | 'desc';

export type SortKey =
  /** `_score`: relevance (default direction desc). */
  | { kind: 'score'; direction: SortDirection }
  /** `_id`: the document's id, by code point (default asc). */
  | { kind: 'id'; direction: SortDirection }
  /** `title`: the document's own title, not a metadata field (default asc). */
  | { kind: 'title'; direction: SortDirection }
  /** Any other name: a metadata field (default asc). */
  | { kind: 'field'; field: string; direction: SortDirection };

/** At most this many sort keys in one search. */
export const MAX_SORT_KEYS = 3;
