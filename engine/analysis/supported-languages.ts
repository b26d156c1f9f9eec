// The analysis languages a collection may choose: every Snowball stemming algorithm plus
// `none` (fold only, no stemming).

import { algorithms } from 'snowball-stemmers';

/** The language that folds tokens but does not stem them. */
export const NO_STEMMING_LANGUAGE = 'none';

/** Every supported language name, sorted, `none` included. */
export const SUPPORTED_LANGUAGES: readonly string[] = Object.freeze(
  [...algorithms(), NO_STEMMING_LANGUAGE].sort(),
);

const SUPPORTED = new Set(SUPPORTED_LANGUAGES);

/** True when `language` is one of SUPPORTED_LANGUAGES (exact, lower-case names). */
export function isSupportedLanguage(language: string): boolean {
  return SUPPORTED.has(language);
}
