// A collection's own record on disk, `collection.json`: its name, analysis language and
// creation time. Written once, atomically, when the collection is created.

import fs from 'node:fs';
import path from 'node:path';
import { CorruptFileError, writeFileAtomic } from '../../storage/index.ts';
import { COLLECTION_CONFIG_FILE } from './collection-layout.ts';

export interface CollectionConfig {
  name: string;
  language: string;
  /** RFC 3339 UTC. */
  created_at: string;
}

export function writeCollectionConfig(dir: string, config: CollectionConfig): void {
  const body = { name: config.name, language: config.language, created_at: config.created_at };
  writeFileAtomic(path.join(dir, COLLECTION_CONFIG_FILE), JSON.stringify(body, null, 2) + '\n');
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
  return { name: config.name, language: config.language, created_at: config.created_at };
}
