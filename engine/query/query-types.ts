// The analyzed form of a search query (docs/api.md, "Search") that the query parser produces and the
// searcher executes: a flat list of clauses, each a term, a phrase or a prefix, with how it
// must occur and which field it looks in (terms and phrases with their synonyms, if any).

import type { Synonym } from './synonyms.ts';

/** `should`: ranks and (with no `must`) matches; `must`: required (`+x`, match=all); `must_not`: excluded (`-x`). */
export type Occur = 'should' | 'must' | 'must_not';

/**
 * Where a clause looks: every searched field (default), only `title:` / `text:`, or only a
 * searchable metadata field (`author:word` → `metadata.author`).
 */
export type FieldScope = 'all' | 'title' | 'text' | `metadata.${string}`;

/** The metadata field a scope names (`author` for `metadata.author`), or null for title, text or all. */
export function metadataFieldOf(scope: FieldScope): string | null {
  return scope.startsWith('metadata.') ? scope.slice('metadata.'.length) : null;
}

/** One analyzed (folded, stemmed) term. */
export interface TermClause {
  kind: 'term';
  occur: Occur;
  field: FieldScope;
  term: string;
  /**
   * Typos a match may have (1 or 2; engine/typo/typo-rules.ts), from the word as typed; absent:
   * only the exact term matches (phrases, prefixes, exclusions, short words, numbers, typos off).
   */
  maxTypos?: number;
  /** What the word may also match (the collection's synonyms of it, engine/query/synonyms.ts). */
  synonyms?: Synonym[];
}

/** Analyzed terms at consecutive positions; always at least two. */
export interface PhraseClause {
  kind: 'phrase';
  occur: Occur;
  field: FieldScope;
  terms: string[];
  /**
   * An identifier or compound typed as one word ("asn1_der_decoding", "e-mail"): its parts
   * written together as one term ("asn1derdecoding", "email"), which matches as well as the
   * phrase of its parts.
   */
  joined?: string;
  /** What the phrase may also match: the collection's synonyms of a multi-word input found in the query. */
  synonyms?: Synonym[];
}

/** Terms starting with `prefix` (folded, unstemmed, at least one character). */
export interface PrefixClause {
  kind: 'prefix';
  occur: Occur;
  field: FieldScope;
  prefix: string;
  /**
   * The word as typed (folded) when `prefix` was cut back to where it agrees with its stem:
   * the terms of the documents' words starting with it match too ("runn" → "running" → "run").
   */
  word?: string;
}

export type QueryClause = TermClause | PhraseClause | PrefixClause;

/**
 * A parsed query. With no positive clause (only `must_not`, or nothing at all) the searcher
 * matches every document minus the exclusions.
 */
export interface AnalyzedQuery {
  clauses: QueryClause[];
}

/** Clauses kept from one query; the rest of a longer query is ignored. */
export const MAX_QUERY_CLAUSES = 64;
