// A collection's facts (indexing's CollectionFacts) as the API's record of it (docs/api.md,
// "Collections": `created_at`, `size_bytes`, its settings without embedders' API keys,
// `reindexing.documents_done`…): what the collection routes answer and the `collection.created`
// webhook carries.

import type { CollectionInfo } from '../api/index.ts';
import type { CollectionFacts } from '../indexing/index.ts';
import { settingsToWire } from '../settings/index.ts';

export function collectionRecord(facts: CollectionFacts): CollectionInfo {
  const { reindexing } = facts;
  return {
    name: facts.name,
    language: facts.language,
    created_at: facts.createdAt,
    documents: facts.documents,
    size_bytes: facts.sizeBytes,
    segments: facts.segments,
    settings: settingsToWire(facts.settings),
    embedding: facts.embedding,
    reindexing: reindexing === null ? null : { fields: reindexing.fields, documents_done: reindexing.documentsDone, documents_total: reindexing.documentsTotal },
  };
}
