// The terms of a collection a query term may match with typos: one Levenshtein automaton per query
// term (engine/typo/levenshtein-automaton.ts) walked over every segment's term dictionary,
// seeking past dead prefixes, with the typo count of each term found and its document frequency
// summed over the segments. The best few are kept: fewest typos first, then the most frequent.
// Bounded: each dictionary walk reads at most MAX_TYPO_TERMS_READ terms.

import { compareCodePoints } from '../segment/term-order.ts';
import { LevenshteinAutomaton, MAX_TYPO_TERM_LENGTH } from '../typo/levenshtein-automaton.ts';
import type { SegmentReader } from '../segment/segment-reader.ts';
import type { SegmentView } from './segment-view.ts';

/** Typo variants a query word expands to at most (the best ones). */
export const MAX_TYPO_EXPANSIONS = 50;
/** Terms one walk of one segment's dictionary may read (a few thousand suffice for 2 typos). */
export const MAX_TYPO_TERMS_READ = 50_000;
/**
 * Each typo multiplies a variant's score by this, and a variant never counts as rarer than the
 * word typed (its idf is at most the typed term's): a document with the exact word outranks
 * one with only a one-typo variant unless the variant's tf part is 4× stronger, which BM25F
 * saturation (at most (k1 + 1) = 2.2 × a single average-length occurrence) rarely allows.
 */
export const TYPO_SCORE_FACTOR = 0.25;
/**
 * The factor instead when no document contains the word as typed: no exact match exists to rank
 * first, so its typo variants are all the word can mean and keep more of its weight beside the
 * query's other words. Chosen on SciFact's train queries with one typo in each word of 5+
 * letters (benchmarks/typos.ts): nDCG@10 0.553 at 0.25, 0.616 at 0.5, 0.643 at 0.75, 0.640 at 1;
 * clean queries are unchanged (their words are in the collection).
 */
export const UNKNOWN_WORD_TYPO_SCORE_FACTOR = 0.75;
/**
 * Typos a word that some document contains may have: one, whatever its length. Its two-typo
 * variants would count TYPO_SCORE_FACTOR² = 0.06 of it, and finding them is most of the walk's
 * cost (GCIDE: 1.3 ms against 0.2 ms per word). SciFact train, one typo in each 5+ letter word:
 * nDCG@10 0.6433 → 0.6429; clean 0.7118 → 0.7116.
 */
export const EXISTING_WORD_MAX_TYPOS = 1;

export interface TypoVariant {
  term: string;
  /** 1 or 2, counted as Meilisearch does (a first-character typo counts twice). */
  typos: number;
  /** Documents containing it, over all segments. */
  docFreq: number;
}

/**
 * The terms within `maxTypos` of `term` (the term itself excluded), fewest typos first, then by
 * document frequency, then in term order; at most `limit`.
 */
export function typoVariants(term: string, maxTypos: number, views: readonly SegmentView[], limit = MAX_TYPO_EXPANSIONS): TypoVariant[] {
  if (maxTypos <= 0 || limit <= 0) return [];
  let length = 0;
  for (const _ of term) length++;
  if (length === 0 || length > MAX_TYPO_TERM_LENGTH) return [];
  const automaton = new LevenshteinAutomaton(term, Math.min(maxTypos, 2));
  const found = new Map<string, TypoVariant>();
  /** Per segment, where each term it accepted is in its dictionary. */
  const indexes = new Map<SegmentReader, Map<string, number>>();
  let complete = true;
  for (const { reader } of views) {
    const dictionary = reader.terms;
    const here = new Map<string, number>();
    indexes.set(reader, here);
    complete &&= dictionary.intersect(
      automaton,
      (index, state) => {
        const variant = dictionary.term(index);
        if (variant === term) return;
        here.set(variant, index);
        const docFreq = dictionary.docFreq(index);
        const known = found.get(variant);
        if (known !== undefined) known.docFreq += docFreq;
        else found.set(variant, { term: variant, typos: automaton.typos(state), docFreq });
      },
      MAX_TYPO_TERMS_READ,
    );
  }
  const best = [...found.values()]
    .sort((a, b) => a.typos - b.typos || b.docFreq - a.docFreq || compareCodePoints(a.term, b.term))
    .slice(0, limit);
  // Every segment was walked, so where each variant is (or is not) is known: the scorers'
  // lookups that follow need no search.
  if (complete) for (const { reader } of views) for (const variant of best) reader.terms.remember(variant.term, indexes.get(reader)?.get(variant.term) ?? -1);
  return best;
}
