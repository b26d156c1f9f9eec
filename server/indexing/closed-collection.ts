// What the server knows of a collection it has not opened (collections open when first used and
// close when idle, collection-registry.ts): its record for GET /v1/collections, read from its
// files — collection.json and the manifest's segments — without opening it, and whether its
// write-ahead log holds writes the manifest does not cover yet (such a collection is opened at
// start, so they are replayed and made searchable as before).

import fs from 'node:fs';
import path from 'node:path';
import { emptyManifest, listWalGenerations, readManifest, walFilePath } from '../../storage/index.ts';
import { readCollectionConfig } from './collection-config.ts';
import { WAL_DIR_NAME, directorySizeBytes } from './collection-layout.ts';
import type { CollectionFacts } from './collection-types.ts';

/** The facts of a closed collection: as its open self would answer once idle (nothing pending, embedding or re-indexing). */
export function closedCollectionFacts(dir: string): CollectionFacts {
  const config = readCollectionConfig(dir);
  const manifest = readManifest(dir) ?? emptyManifest();
  const live = manifest.segments.map((segment) => segment.docCount - segment.deletedCount);
  const documents = live.reduce((sum, count) => sum + count, 0);
  const embedding: CollectionFacts['embedding'] = {};
  for (const embedder of Object.keys(config.embedders)) {
    const embedded = manifest.segments.reduce((sum, segment, i) => sum + (segment.vectors?.[embedder] !== undefined ? live[i] : 0), 0);
    embedding[embedder] = { embedded, failed: 0, pending: Math.max(0, documents - embedded) };
  }
  return {
    name: config.name,
    language: config.language,
    createdAt: config.created_at,
    documents,
    sizeBytes: directorySizeBytes(dir),
    segments: manifest.segments.length,
    settings: { typoTolerance: config.typoTolerance, embedders: config.embedders, synonyms: config.synonyms, ranking: config.ranking, searchableFields: config.searchableFields, ocrLanguages: config.ocrLanguages },
    embedding,
    reindexing: null,
  };
}

/** Whether the write-ahead log holds records the manifest's segments do not (acknowledged writes not yet searchable). */
export function hasUnappliedWrites(dir: string): boolean {
  const manifest = readManifest(dir) ?? emptyManifest();
  const walDir = path.join(dir, WAL_DIR_NAME);
  return listWalGenerations(walDir).some((generation) => generation >= manifest.walGeneration && (fs.statSync(walFilePath(walDir, generation), { throwIfNoEntry: false })?.size ?? 0) > 0);
}
