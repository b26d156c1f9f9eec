// Turns the engine's IndexDocument into the API's views (summary, stored document), and applies
// a PATCH to a stored document (building one from a client's document is ingest/'s).

import type { IndexDocument, Metadata } from '../../engine/index.ts';
import { JSON_DOCUMENT_FORMAT, jsonByteLength } from '../ingest/index.ts';
import type { DocumentPatch, DocumentSummary, StoredDocumentView } from './collection-types.ts';

/**
 * `current` with the patch applied: title replaced when present, metadata merged (a null
 * value removes the key), text and pages kept. A JSON document's size is recomputed.
 */
export function applyPatch(current: IndexDocument, patch: DocumentPatch, indexedAt: string): IndexDocument {
  const metadata: Metadata = { ...current.metadata };
  for (const [field, value] of Object.entries(patch.metadata ?? {})) {
    if (value === null) delete metadata[field];
    else metadata[field] = value;
  }
  const title = patch.title !== undefined ? patch.title : current.title;
  const bytes =
    current.format === JSON_DOCUMENT_FORMAT ? jsonByteLength({ id: current.id, title, text: current.text, metadata }) : current.bytes;
  return { ...current, title, metadata, bytes, indexedAt };
}

export function toSummary(doc: IndexDocument): DocumentSummary {
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

export function toStoredView(doc: IndexDocument): StoredDocumentView {
  return {
    ...toSummary(doc),
    text: doc.text,
    ...(doc.vectors !== undefined && { vectors: doc.vectors }),
    page_list: doc.pages === null ? null : doc.pages.map(({ number, label }) => ({ number, label })),
  };
}
