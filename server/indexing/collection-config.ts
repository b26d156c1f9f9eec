// A collection's own record on disk, `collection.json`: its name, analysis language, creation
// time and search settings (`settings.typo_tolerance`, `embedders`, `synonyms`, `ranking`,
// `searchable_fields`, `ocr_languages`, in the API's
// shape). Written atomically when the collection is created and whenever its settings change. A
// file written before a setting existed reads as that setting's default.

import fs from 'node:fs';
import path from 'node:path';
import type { SynonymEntry, TypoTolerance } from '../../engine/index.ts';
import { CorruptFileError, writePrivateJsonFile } from '../../storage/index.ts';
import type { CollectionSettings, RankingSettingsWire, SearchableFieldWire } from '../api/index.ts';
import { COLLECTION_CONFIG_FILE } from './collection-layout.ts';
import { defaultTypoTolerance, typoToleranceFromStored, typoToleranceToWire } from './collection-settings.ts';
import { embeddersFromStored, embeddersToStored, embeddersToWire } from './embedder-settings.ts';
import type { EmbedderConfig } from './embedder-settings.ts';
import { ocrLanguagesFromStored, ocrLanguagesToStored } from './ocr-language-settings.ts';
import { rankingFromStored } from './ranking-settings.ts';
import { searchableFieldsFromStored } from './searchable-fields.ts';
import { synonymsFromStored, synonymsToStored } from './synonym-settings.ts';

export interface CollectionConfig {
  name: string;
  language: string;
  /** RFC 3339 UTC. */
  created_at: string;
  typoTolerance: TypoTolerance;
  embedders: Record<string, EmbedderConfig>;
  synonyms: SynonymEntry[];
  /** Ranking by fields, as written (ranking-settings.ts parses it). */
  ranking: RankingSettingsWire;
  /** Searchable fields and weights, as written (searchable-fields.ts). */
  searchableFields: SearchableFieldWire[];
  /** Tesseract languages its uploads are read in (ocr-language-settings.ts). */
  ocrLanguages: string[];
}

/** A collection's settings, as the server holds them. */
export type SettingsValues = Pick<CollectionConfig, 'typoTolerance' | 'embedders' | 'synonyms' | 'ranking' | 'searchableFields' | 'ocrLanguages'>;

/** A collection's settings as collection.json stores them (and the cluster's catalog, as JSON). */
export interface StoredSettings {
  typo_tolerance: unknown;
  embedders: unknown;
  /** Absent in settings stored before synonyms existed: none. */
  synonyms?: unknown;
  /** Absent in settings stored before ranking existed: no boosts. */
  ranking?: unknown;
  /** Absent in settings stored before searchable fields existed: the default. */
  searchable_fields?: unknown;
  /** Absent in settings stored before OCR languages existed: English. */
  ocr_languages?: unknown;
}

/** The settings as a collection's record shows them (no embedder's API key). */
export function settingsToWire(settings: SettingsValues): CollectionSettings {
  return {
    typo_tolerance: typoToleranceToWire(settings.typoTolerance),
    embedders: embeddersToWire(settings.embedders),
    synonyms: synonymsToStored(settings.synonyms),
    ranking: structuredClone(settings.ranking),
    searchable_fields: settings.searchableFields.map((entry) => ({ ...entry })),
    ocr_languages: ocrLanguagesToStored(settings.ocrLanguages),
  };
}

export function storedSettingsOf(settings: SettingsValues): StoredSettings {
  return {
    typo_tolerance: typoToleranceToWire(settings.typoTolerance),
    embedders: embeddersToStored(settings.embedders),
    synonyms: synonymsToStored(settings.synonyms),
    ranking: settings.ranking,
    searchable_fields: settings.searchableFields,
    ocr_languages: ocrLanguagesToStored(settings.ocrLanguages),
  };
}

/** Settings read back from their stored form; null when they are not valid. */
export function settingsFromStored(stored: StoredSettings): SettingsValues | null {
  const typoTolerance = typoToleranceFromStored(stored.typo_tolerance);
  const embedders = embeddersFromStored(stored.embedders);
  const synonyms = synonymsFromStored(stored.synonyms);
  const ranking = rankingFromStored(stored.ranking);
  const searchableFields = searchableFieldsFromStored(stored.searchable_fields);
  const ocrLanguages = ocrLanguagesFromStored(stored.ocr_languages);
  if (typoTolerance === null || embedders === null || synonyms === null || ranking === null || searchableFields === null || ocrLanguages === null) return null;
  return { typoTolerance, embedders, synonyms, ranking, searchableFields, ocrLanguages };
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
