// The terms of a collection a query term may match with typos: one Levenshtein automaton per query
// term (engine/typo/levenshtein-automaton.ts) walked over every segment's term dictionary,
// seeking past dead prefixes, with the typo count of each term found and its document frequency
// summed over the segments. The best few are kept: fewest typos first, then the most frequent.
// Bounded: each dictionary walk reads at most MAX_TYPO_TERMS_READ terms.

import { compareCodePoints } from '../segment/term-order.ts';
import { LevenshteinAutomaton, MAX_TYPO_TERM_LENGTH } from '../typo/levenshtein-automaton.ts';
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
  for (const { reader } of views) {
    const dictionary = reader.terms;
    dictionary.intersect(
      automaton,
      (index, state) => {
        const variant = dictionary.term(index);
        if (variant === term) return;
        const docFreq = dictionary.docFreq(index);
        const known = found.get(variant);
        if (known !== undefined) known.docFreq += docFreq;
        else found.set(variant, { term: variant, typos: automaton.typos(state), docFreq });
      },
      MAX_TYPO_TERMS_READ,
    );
  }
  return [...found.values()]
    .sort((a, b) => a.typos - b.typos || b.docFreq - a.docFreq || compareCodePoints(a.term, b.term))
    .slice(0, limit);
}
