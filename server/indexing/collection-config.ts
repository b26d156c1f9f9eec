// A collection's own record on disk, `collection.json`: its name, analysis language, creation
// time and search settings (`settings.typo_tolerance`, in the API's shape). Written atomically
// when the collection is created and whenever its settings change. A file written before
// settings existed reads as the default settings.

import fs from 'node:fs';
import path from 'node:path';
import type { TypoTolerance } from '../../engine/index.ts';
import { CorruptFileError, writePrivateJsonFile } from '../../storage/index.ts';
import { COLLECTION_CONFIG_FILE } from './collection-layout.ts';
import { defaultTypoTolerance, typoToleranceFromStored, typoToleranceToWire } from './collection-settings.ts';
import { embeddersFromStored, embeddersToStored } from './embedder-settings.ts';
import type { EmbedderConfig } from './embedder-settings.ts';

export interface CollectionConfig {
  name: string;
  language: string;
  /** RFC 3339 UTC. */
  created_at: string;
  typoTolerance: TypoTolerance;
  embedders: Record<string, EmbedderConfig>;
}

/** A collection's settings as collection.json stores them (and the cluster's catalog, as JSON). */
export interface StoredSettings {
  typo_tolerance: unknown;
  embedders: unknown;
}

export function storedSettingsOf(typoTolerance: TypoTolerance, embedders: Record<string, EmbedderConfig>): StoredSettings {
  return { typo_tolerance: typoToleranceToWire(typoTolerance), embedders: embeddersToStored(embedders) };
}

/** Settings read back from their stored form; null when they are not valid. */
export function settingsFromStored(stored: StoredSettings): Pick<CollectionConfig, 'typoTolerance' | 'embedders'> | null {
  const typoTolerance = typoToleranceFromStored(stored.typo_tolerance);
  const embedders = embeddersFromStored(stored.embedders);
  return typoTolerance === null || embedders === null ? null : { typoTolerance, embedders };
}

/** Written private to the server's user: an embedder's API key is in it. */
export function writeCollectionConfig(dir: string, config: CollectionConfig): void {
  const settings = storedSettingsOf(config.typoTolerance, config.embedders);
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
  return { name: config.name, language: config.language, created_at: config.created_at, typoTolerance, embedders };
}
