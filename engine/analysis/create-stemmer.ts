// Builds the Snowball stemming function for a language (`none` → no stemmer). English uses
// the exact, much faster port in english-stemmer.ts; the other languages use
// `snowball-stemmers` (~0.27 M words/s, so the analyzer caches results). Callers pass
// lower-case, folded words.

import { newStemmer } from 'snowball-stemmers';
import { stemEnglish } from './english-stemmer.ts';
import { NO_STEMMING_LANGUAGE } from './supported-languages.ts';

const ENGLISH = 'english';

export type StemFunction = (word: string) => string;

/** The stemmer for `language`, or null for `none`. The language must be supported. */
export function createStemmer(language: string): StemFunction | null {
  if (language === NO_STEMMING_LANGUAGE) return null;
  if (language === ENGLISH) return stemEnglish;
  const stemmer = newStemmer(language);
  return (word) => {
    const stem = stemmer.stem(word);
    // A stemmer never legitimately erases a word; keep the word if one ever does.
    return stem.length > 0 ? stem : word;
  };
}
