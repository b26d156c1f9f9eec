// The languages OCR can read: English ships with Folio (@tesseract.js-data/eng); others are
// installed on demand by `folio ocr add <code>` as `<code>.traineddata.gz` in the add-ons'
// `tessdata` folder, from the npm packages @tesseract.js-data/<code> (Tesseract's LSTM
// "best_int" models), where English is copied too so that languages combine (`deu+eng`).
// Tesseract reads every language of a job from one folder: this says which.

import { createRequire } from 'node:module';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The language Folio's own install reads. */
export const BUNDLED_OCR_LANGUAGE = 'eng';
/** The model variant of @tesseract.js-data packages that the LSTM-only core reads. */
export const OCR_MODEL_FOLDER = '4.0.0_best_int';
/** A Tesseract language code: `deu`, `chi_sim`, `jpn_vert`. */
export const OCR_LANGUAGE_PATTERN = /^[a-z]{3}(?:_[a-z]{3,5})?$/;
/** Most languages one file is read in at once (each costs time on every page). */
export const MAX_OCR_LANGUAGES = 5;
/** The command that installs a language, named by every error about one that is missing. */
export const OCR_ADD_COMMAND = 'folio ocr add';

const TRAINED_DATA_SUFFIX = '.traineddata.gz';

/** The file of `language` in a tessdata folder. */
export function trainedDataFile(dir: string, language: string): string {
  return join(dir, `${language}${TRAINED_DATA_SUFFIX}`);
}

/** The folder of Folio's own English data (an absolute path). */
export function bundledOcrDataDir(): string {
  const packageJson = createRequire(import.meta.url).resolve(`@tesseract.js-data/${BUNDLED_OCR_LANGUAGE}/package.json`);
  return join(dirname(packageJson), OCR_MODEL_FOLDER);
}

/** Every language OCR can read with `dataDir` (the add-ons' tessdata folder, or null), sorted. */
export function installedOcrLanguages(dataDir: string | null): string[] {
  const languages = new Set([BUNDLED_OCR_LANGUAGE]);
  if (dataDir !== null && existsSync(dataDir)) {
    for (const name of readdirSync(dataDir)) {
      if (!name.endsWith(TRAINED_DATA_SUFFIX)) continue;
      const language = name.slice(0, -TRAINED_DATA_SUFFIX.length);
      if (OCR_LANGUAGE_PATTERN.test(language)) languages.add(language);
    }
  }
  return [...languages].sort();
}

/** The languages of `languages` not installed with `dataDir`. */
export function missingOcrLanguages(languages: readonly string[], dataDir: string | null): string[] {
  const installed = new Set(installedOcrLanguages(dataDir));
  return languages.filter((language) => !installed.has(language));
}

/** What to say when `missing` languages are asked for: the command that installs them. */
export function missingOcrLanguagesMessage(missing: readonly string[]): string {
  return `OCR language${missing.length === 1 ? '' : 's'} ${missing.map((l) => `'${l}'`).join(', ')} ${missing.length === 1 ? 'is' : 'are'} not installed on the server: run \`${OCR_ADD_COMMAND} ${missing.join(' ')}\` (with --addons-dir if the server has its own)`;
}

/**
 * `deu+eng` (Tesseract's way) or `deu,eng` → ['deu', 'eng']; null when a part is empty or not a
 * language code, one repeats, or there are more than MAX_OCR_LANGUAGES.
 */
export function parseOcrLanguages(text: string): string[] | null {
  const languages = text.split(/[+,]/).map((part) => part.trim());
  return checkOcrLanguageList(languages) ? languages : null;
}

/** Whether `languages` is a valid list: 1–MAX_OCR_LANGUAGES distinct language codes. */
export function checkOcrLanguageList(languages: readonly string[]): boolean {
  return (
    languages.length >= 1 &&
    languages.length <= MAX_OCR_LANGUAGES &&
    new Set(languages).size === languages.length &&
    languages.every((language) => OCR_LANGUAGE_PATTERN.test(language))
  );
}

/**
 * The one folder Tesseract reads `languages` from: Folio's own for English alone, else the
 * add-ons' tessdata folder, which must hold every one of them (English is copied there by
 * `folio ocr add`). Throws naming the command when one is missing.
 */
export function ocrDataDirFor(languages: readonly string[], dataDir: string | null): string {
  if (languages.length === 1 && languages[0] === BUNDLED_OCR_LANGUAGE) return bundledOcrDataDir();
  const missing = dataDir === null ? [...languages] : languages.filter((language) => !existsSync(trainedDataFile(dataDir, language)));
  if (missing.length > 0 || dataDir === null) throw new Error(missingOcrLanguagesMessage(missing));
  return dataDir;
}
