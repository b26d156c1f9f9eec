// A stored document (the engine's IndexDocument) as the API shows it (docs/api.md,
// "Documents"): its summary — what a write answers and a webhook carries — and the whole
// stored document of GET …/documents/{id} and of the list's members, in the API's names
// (`indexed_at`, `page_list`).

import type { IndexDocument } from '../../engine/index.ts';
import type { DocumentSummary, StoredDocument } from './document.ts';

export function documentSummary(doc: IndexDocument): DocumentSummary {
  return {
    id: doc.id,
    title: doc.title,
    format: doc.format,
    pages: doc.pages === null ? null : doc.pages.length,
    bytes: doc.bytes,
    metadata: doc.metadata,
    indexed_at: doc.indexedAt,
  };
}

export function storedDocument(doc: IndexDocument): StoredDocument {
  return {
    ...documentSummary(doc),
    text: doc.text,
    ...(doc.vectors !== undefined && { vectors: doc.vectors }),
    page_list: doc.pages === null ? null : doc.pages.map(({ number, label }) => ({ number, label })),
  };
}
