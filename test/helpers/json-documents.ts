// A client's JSON documents written to a collection without a server, as the document service
// writes them: checked and built (documents/json-documents.ts), then upserted.

import type { IndexDocument } from '../../engine/index.ts';
import type { DocumentInput } from '../../server/api/index.ts';
import { buildJsonDocuments } from '../../server/documents/index.ts';
import type { Collection, WriteOptions } from '../../server/indexing/index.ts';

/** Resolves to the documents as built, once durable (as the collection's upsert does). */
export async function upsertJson(collection: Collection, documents: DocumentInput[], options: WriteOptions): Promise<IndexDocument[]> {
  const built = await buildJsonDocuments(documents, collection.vectorRules());
  await collection.upsertIndexed(built, options);
  return built;
}
