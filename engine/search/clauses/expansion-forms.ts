// A word's expansions as clause forms, written once for title and text and for each searchable
// metadata field (field-forms.ts): its typo variants (typo-expansions.ts), each scored
// ×TYPO_SCORE_FACTOR per typo — ×UNKNOWN_WORD_TYPO_SCORE_FACTOR when no document has the word as
// typed, and one typo at most for a word the collection has — and never rarer than the word;
// and the terms a prefix starts, the first MAX_PREFIX_EXPANSIONS in term order.

import type { FieldScope } from '../../query/index.ts';
import { Bm25fWeight, bm25Idf } from '../bm25.ts';
import type { CollectionStatistics } from '../bm25.ts';
import type { SegmentView } from '../segment-view.ts';
import { EXISTING_WORD_MAX_TYPOS, TYPO_SCORE_FACTOR, UNKNOWN_WORD_TYPO_SCORE_FACTOR, typoVariants } from '../typo-expansions.ts';
import type { ClauseForm, PrepareContext } from './clause-forms.ts';

/** A prefix matches at most this many terms (the first ones in term order). */
export const MAX_PREFIX_EXPANSIONS = 64;

/** How one word's typo variants are looked for and weighed. */
export interface TypoExpansion {
  /** The word as typed (for the forms' explanations). */
  word: string;
  /** The term whose variants are looked for (the word's term, or its term in a metadata field). */
  term: string;
  /** The clause's typo allowance. */
  maxTypos: number;
  /** Documents holding `term`: a word the collection has gets one typo at most. */
  termDocFreq: number;
  /** No document holds the word as typed: its variants are all it can mean, and lose less. */
  unknownWord: boolean;
  /** A variant's idf never passes this (the word's own). */
  maxIdf: number;
  /** What the variants are weighed with, and where they match. */
  stats: CollectionStatistics;
  scope: FieldScope;
  /** The metadata field the variants are terms of, if any. */
  field?: string;
  /** Which variants to keep (all when absent). */
  keep?: (term: string) => boolean;
}

/** The typo variants of `expansion.term` in the segments, as forms. */
export function typoForms(expansion: TypoExpansion, context: PrepareContext): ClauseForm[] {
  const { word, term, maxTypos, termDocFreq, unknownWord, maxIdf, stats, scope, field, keep } = expansion;
  const factor = unknownWord ? UNKNOWN_WORD_TYPO_SCORE_FACTOR : TYPO_SCORE_FACTOR;
  // A word the collection contains gets one typo at most: its two-typo variants would
  // count 0.25² of it (noise in the ranking), and walking for them costs most.
  const budget = termDocFreq > 0 ? Math.min(maxTypos, EXISTING_WORD_MAX_TYPOS) : maxTypos;
  const forms: ClauseForm[] = [];
  for (const variant of typoVariants(term, budget, context.views)) {
    if (keep !== undefined && !keep(variant.term)) continue;
    const idf = Math.min(bm25Idf(stats.docCount, context.withCount(variant.term, variant.docFreq)), maxIdf);
    const reason = `${variant.typos} typo${variant.typos === 1 ? '' : 's'} from '${word}', ${factor} per typo`;
    const weight = new Bm25fWeight(idf, stats, scope, factor ** variant.typos, reason);
    forms.push({ terms: [variant.term], typos: variant.typos, weight, role: 'expansion', ...(field !== undefined && { field }) });
  }
  return forms;
}

/** The terms of the segments that start with `prefix`: the first MAX_PREFIX_EXPANSIONS of each segment. */
export function termsWithPrefix(views: readonly SegmentView[], prefix: string): Set<string> {
  const terms = new Set<string>();
  for (const { reader } of views) {
    for (const index of reader.terms.withPrefix(prefix, MAX_PREFIX_EXPANSIONS)) terms.add(reader.terms.term(index));
  }
  return terms;
}
