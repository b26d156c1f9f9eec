// A collection's settings as values (typed, parsed) and in their stored shape — the shape
// collection.json and the cluster's catalog keep and, without embedders' API keys, the API
// shows (settings-shapes.ts) — with the way between them.

import type { SynonymEntry, TypoTolerance } from '../../engine/index.ts';
import { embeddersFromStored, embeddersToStored, embeddersToWire } from './embedder-settings.ts';
import type { EmbedderConfig } from './embedder-settings.ts';
import { ocrLanguagesFromStored, ocrLanguagesToStored } from './ocr-language-settings.ts';
import { rankingFromStored } from './ranking-settings.ts';
import { searchableFieldsFromStored } from './searchable-fields.ts';
import type { CollectionSettings, RankingSettingsWire, SearchableFieldWire } from './settings-shapes.ts';
import { synonymsFromStored, synonymsToStored } from './synonym-settings.ts';
import { typoToleranceFromStored, typoToleranceToWire } from './typo-tolerance.ts';

/** A collection's settings, as the server holds them. */
export interface SettingsValues {
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
