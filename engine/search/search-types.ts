// The search request the engine executes and the result it returns (docs/api.md, "Search"). The server
// turns HTTP parameters into a SearchRequest and adds paging fields and timing around the
// SearchResult. Names here are the engine's (camelCase); the server gives them the API's
// names (`page_label`, `matched_pages`, `facet_stats`) at one boundary of its own.

import type { Metadata } from '../document.ts';
import type { FilterNode } from '../filter/index.ts';
import type { SynonymRule } from '../query/index.ts';
import type { FieldBoost } from './field-boosts.ts';
import type { FieldWeights } from './bm25.ts';
import type { SortKey } from '../sort/index.ts';
import type { TypoMode, TypoTolerance } from '../typo/typo-rules.ts';
import type { CorpusStatistics } from './corpus-statistics.ts';
import type { ScoreExplanation } from './score-explanation.ts';

export type { ScoreExplanation } from './score-explanation.ts';

export type MatchMode = 'any' | 'all';

export interface SearchRequest {
  /** Query text (may be empty: match all). */
  q: string;
  /** `any` (default): a document matches if any positive clause does; `all`: every one must. */
  match: MatchMode;
  /** Hits to skip, ≥ 0. */
  offset: number;
  /** Hits to return, 1–100. */
  limit: number;
  /** Element name wrapped round matched terms in `highlight` (validated `^[a-z][a-z0-9-]*$`). */
  highlightTag: string;
  /** Attach a score explanation to each hit. */
  explain?: boolean;
  /** False: no "did you mean" suggestions, even for a search that finds nothing (a key with a filter: they come from every document). */
  suggest?: boolean;
  /** Only documents matching this filter (parsed by engine/filter); null or absent: all. */
  filter?: FilterNode | null;
  /** Metadata fields whose values to count over all matches. */
  facets?: string[];
  /** Values returned per facet field, 1–1000 (default 100). */
  facetLimit?: number;
  /** Up to three sort keys; empty or absent: relevance (score, then id). */
  sort?: SortKey[];
  /**
   * Typos per query word: `auto` (default) as `typoTolerance` says, `0` none, `1`/`2` at most
   * that many (engine/typo/typo-rules.ts).
   */
  typos?: TypoMode;
  /**
   * The collection's typo tolerance settings (the server always gives them); absent: disabled,
   * so only `typos` 1 or 2 turns typos on, with the default word sizes.
   */
  typoTolerance?: TypoTolerance;
  /** `last`: the word being typed (the last, without a space after it) is a prefix; default `none`. */
  prefix?: PrefixMode;
  /**
   * The synonym rules this query's words can use (SynonymTable.rulesFor); absent or empty: no
   * synonyms. The server fills in the collection's when a request leaves them out, and sends
   * `[]` for `synonyms=false`.
   */
  synonyms?: readonly SynonymRule[];
  /**
   * Field boosts multiplying relevance scores (field-boosts.ts; a sort by fields ignores them);
   * the server gives the collection's `ranking.boost` when a request has none.
   */
  boost?: readonly FieldBoost[];
  /** The time recency boosts measure from, ms since the epoch (default: now). */
  now?: number;
  /**
   * A metadata field: keep the best `groupSize` hits of each of its values (grouping.ts). Then
   * `offset` and `limit` count groups, and `total` the groups among the matches.
   */
  distinct?: string;
  /** Hits kept per group, 1–100 (default 1). */
  groupSize?: number;
  /**
   * How much title and text count (`search_fields`; the collection's `searchable_fields`); a field
   * of weight 0 is not searched (but `title:word` still is). Absent: title 3, text 1.
   */
  fieldWeights?: FieldWeights;
  /**
   * Count every match (`total` exact however many there are). Otherwise a search ranked by
   * relevance counts exactly up to TOTAL_EXACT_UP_TO and then skips what cannot reach its top
   * hits, answering that many with `totalRelation` `gte`. Facets and sorts count every match anyway.
   */
  trackTotal?: boolean;
  /**
   * What a hit carries besides `id` and `score`; absent: everything. `[]` gives ids and scores
   * only, without reading the stored document.
   */
  hitFields?: readonly HitField[];
  /**
   * `keyword` (default): the query's words. `semantic`: the documents nearest to
   * `semantic.vector` (the query's words are not matched). `hybrid`: both rankings fused.
   */
  mode?: SearchMode;
  /** The query vector and how to use it; required for `semantic` and `hybrid`. */
  semantic?: SemanticRequest;
  /**
   * Statistics of several collections searched as one (corpus-statistics.ts): BM25 weighs with
   * them instead of this collection's, so scores compare across the collections. Absent: its own.
   */
  corpus?: CorpusStatistics;
}

export type SearchMode = 'keyword' | 'semantic' | 'hybrid';

export interface SemanticRequest {
  /** The embedder whose vector files to search (the query vector is of its dimensions). */
  embedder: string;
  /** The query's vector (normalised by the engine). */
  vector: readonly number[] | Float32Array;
  /** Weight of the semantic side in a hybrid search, 0–1. */
  ratio: number;
  /** `convex` (default): normalised scores combined; `rrf`: reciprocal rank fusion. */
  fusion?: 'convex' | 'rrf';
  /** Ids never returned by the semantic side (a "more like this" search leaves out its document). */
  excludeIds?: readonly string[];
}

export type PrefixMode = 'none' | 'last';

/** The members of a hit a request may leave out (`id` and `score` are always there). */
export const HIT_FIELDS = ['title', 'format', 'page', 'pageLabel', 'snippet', 'highlight', 'metadata', 'matchedPages'] as const;
export type HitField = (typeof HIT_FIELDS)[number];

/** Without `trackTotal`, `total` is exact up to this many matches (as Elasticsearch's `track_total_hits`). */
export const TOTAL_EXACT_UP_TO = 10_000;

/** `eq`: `total` is the number of matches; `gte`: at least that many match. */
export type TotalRelation = 'eq' | 'gte';

/** A query that would find something, offered when a search finds nothing ("did you mean"). */
export interface Suggestion {
  text: string;
}

/** A hit: `id` and `score` always; the other members unless the request's `hitFields` leaves them out. */
export interface SearchHit {
  id: string;
  score: number;
  title?: string | null;
  format?: string;
  /** The page that best satisfies the query (hit-evidence.ts); null for documents without pages. */
  page?: number | null;
  /** The best page's label (`iv`, `A-3`, `slide 2`, a sheet name), else null. */
  pageLabel?: string | null;
  /** Plain-text excerpt around the best match, at most about 240 characters. */
  snippet?: string;
  /** The same excerpt, HTML-escaped, the words where the query is satisfied wrapped in the highlight tag. */
  highlight?: string;
  metadata?: Metadata;
  /**
   * With `highlight`: each searchable metadata field the query matched in, its value HTML-escaped
   * with the matched words wrapped in the highlight tag (an array's strings each; those without
   * a match as they are).
   */
  metadataHighlights?: Record<string, string | string[]>;
  /** Pages where at least one positive clause is satisfied, ascending; empty for documents without pages. */
  matchedPages?: number[];
  explain?: ScoreExplanation;
}

export interface SearchResult {
  hits: SearchHit[];
  /** Number of matching live documents: exact when `totalRelation` is `eq`, a lower bound when `gte`. */
  total: number;
  totalRelation: TotalRelation;
  /** The search ran out of time: the hits are the best found before then, the total a lower bound. */
  timedOut: boolean;
  /** Per requested field: value → count among all matches, by count then value. */
  facets: Record<string, Record<string, number>>;
  /** Per requested field with numeric values among the matches: their min and max. */
  facetStats: Record<string, { min: number; max: number }>;
  /** Only when nothing matched (`total` 0) and the query has words: up to 3 alternative queries. */
  suggestions?: Suggestion[];
  /** Semantic and hybrid searches: the share of live documents whose vectors are searchable (0–1). */
  semanticCoverage?: number;
}
