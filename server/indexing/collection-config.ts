// A collection's own record on disk, `collection.json`: its name, analysis language, creation
// time and search settings (`settings.typo_tolerance`, `embedders`, `synonyms`, `ranking`,
// `searchable_fields`, `ocr_languages`, in the API's
// shape). Written atomically when the collection is created and whenever its settings change. A
// file written before a setting existed reads as that setting's default.

import fs from 'node:fs';
import path from 'node:path';
import { CorruptFileError, writePrivateJsonFile } from '../../storage/index.ts';
import {
  defaultTypoTolerance,
  embeddersFromStored,
  ocrLanguagesFromStored,
  rankingFromStored,
  searchableFieldsFromStored,
  storedSettingsOf,
  synonymsFromStored,
  typoToleranceFromStored,
} from '../settings/index.ts';
import type { SettingsValues } from '../settings/index.ts';
import { COLLECTION_CONFIG_FILE } from './collection-layout.ts';

/** collection.json: the collection's name, language and creation time, and its settings (settings/). */
export interface CollectionConfig extends SettingsValues {
  name: string;
  language: string;
  /** RFC 3339 UTC. */
  created_at: string;
}

/** Written private to the server's user: an embedder's API key is in it. */
export function writeCollectionConfig(dir: string, config: CollectionConfig): void {
  const settings = storedSettingsOf(config);
  const body = { name: config.name, language: config.language, created_at: config.created_at, settings };
  writePrivateJsonFile(path.join(dir, COLLECTION_CONFIG_FILE), body);
}

/** Reads `<dir>/collection.json`; a missing or malformed file is a CorruptFileError naming it. */
export function readCollectionConfig(dir: string): CollectionConfig {
  const filePath = path.join(dir, COLLECTION_CONFIG_FILE);
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(filePath, 'utf8'));
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : 'not valid JSON';
    throw new CorruptFileError(filePath, reason);
  }
  const config = parsed as Record<string, unknown> | null;
  if (
    typeof config !== 'object' ||
    config === null ||
    typeof config.name !== 'string' ||
    typeof config.language !== 'string' ||
    typeof config.created_at !== 'string'
  ) {
    throw new CorruptFileError(filePath, 'expected { name, language, created_at }');
  }
  let typoTolerance = defaultTypoTolerance();
  const settings = config.settings as Record<string, unknown> | null | undefined;
  if (settings !== undefined) {
    const stored = typeof settings === 'object' && settings !== null ? typoToleranceFromStored(settings.typo_tolerance) : null;
    if (stored === null) throw new CorruptFileError(filePath, 'settings.typo_tolerance is not a valid typo tolerance');
    typoTolerance = stored;
  }
  const embedders = embeddersFromStored((settings as Record<string, unknown> | undefined)?.embedders);
  if (embedders === null) throw new CorruptFileError(filePath, 'settings.embedders is not a valid set of embedders');
  const synonyms = synonymsFromStored((settings as Record<string, unknown> | undefined)?.synonyms);
  if (synonyms === null) throw new CorruptFileError(filePath, 'settings.synonyms is not a valid list of synonyms');
  const ranking = rankingFromStored((settings as Record<string, unknown> | undefined)?.ranking);
  if (ranking === null) throw new CorruptFileError(filePath, 'settings.ranking is not a valid ranking setting');
  const searchableFields = searchableFieldsFromStored((settings as Record<string, unknown> | undefined)?.searchable_fields);
  if (searchableFields === null) throw new CorruptFileError(filePath, 'settings.searchable_fields is not a valid list of searchable fields');
  const ocrLanguages = ocrLanguagesFromStored((settings as Record<string, unknown> | undefined)?.ocr_languages);
  if (ocrLanguages === null) throw new CorruptFileError(filePath, 'settings.ocr_languages is not a valid list of OCR languages');
  return { name: config.name, language: config.language, created_at: config.created_at, typoTolerance, embedders, synonyms, ranking, searchableFields, ocrLanguages };
}
