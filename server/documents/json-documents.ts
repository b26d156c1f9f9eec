// A client's JSON documents made ready for a collection: checked against the contract
// (api/document-validation.ts), their own vectors against the collection's `user` embedders,
// and built into the engine's IndexDocument — a batch of thousands in slices, so that other
// requests (searches) run between them instead of waiting behind the whole batch.

import type { IndexDocument } from '../../engine/index.ts';
import { validateDocumentInputs } from '../api/index.ts';
import type { DocumentInput } from '../api/index.ts';
import { FolioError } from '../errors/index.ts';
import { buildIndexDocument, vectorErrors } from '../ingest/index.ts';
import type { VectorRules } from '../ingest/index.ts';

/** Documents of a batch built between two turns of the event loop. */
const BUILD_SLICE_DOCUMENTS = 1_000;

/** The documents, built; throws FolioError `validation_failed` naming every problem, before anything is built. */
export async function buildJsonDocuments(documents: readonly DocumentInput[], rules: VectorRules): Promise<IndexDocument[]> {
  validateDocumentInputs(documents);
  const wrongVectors = documents.flatMap((doc, index) => vectorErrors(doc.vectors, rules, documents.length === 1 ? '/body/vectors' : `/body/${index}/vectors`));
  if (wrongVectors.length > 0) throw new FolioError('validation_failed', "document vectors do not fit the collection's user embedders", wrongVectors);
  const indexedAt = new Date().toISOString();
  const docs: IndexDocument[] = [];
  for (let i = 0; i < documents.length; i++) {
    if (i > 0 && i % BUILD_SLICE_DOCUMENTS === 0) await new Promise((resolve) => setImmediate(resolve));
    docs.push(buildIndexDocument(documents[i], indexedAt));
  }
  return docs;
}
