// A collection's `ocr_languages` setting (docs/api.md, "OCR languages"): the Tesseract languages
// images and scanned pages of its uploads are read in (an upload may name its own). The list's
// shape is the schema's (1–5 distinct codes); whether the server has them installed is checked
// where requests come in, since it depends on the server, not the collection. Stored in
// collection.json; a file written before the setting existed reads as English.

import { BUNDLED_OCR_LANGUAGE, checkOcrLanguageList } from '../../extract/index.ts';

/** What a collection's uploads are read in unless it says otherwise. */
export const DEFAULT_OCR_LANGUAGES: readonly string[] = Object.freeze([BUNDLED_OCR_LANGUAGE]);

/** The languages as stored and shown (a copy). */
export function ocrLanguagesToStored(languages: readonly string[]): string[] {
  return [...languages];
}

/** Languages read back from their stored form (absent: English); null when they are not valid. */
export function ocrLanguagesFromStored(value: unknown): string[] | null {
  if (value === undefined) return [...DEFAULT_OCR_LANGUAGES];
  if (!Array.isArray(value) || !value.every((language): language is string => typeof language === 'string')) return null;
  return checkOcrLanguageList(value) ? [...value] : null;
}
