// A PATCH applied to a stored document (building one from a client's document is ingest/'s;
// how a document reads on the wire is api/document-wire.ts').

import type { IndexDocument, Metadata, MetadataValue } from '../../engine/index.ts';
import { JSON_DOCUMENT_FORMAT, jsonByteLength } from '../ingest/index.ts';

/** A change to a stored document: a new title (null: none), metadata fields set or (null) removed. */
export interface DocumentChange {
  title?: string | null;
  metadata?: Record<string, MetadataValue | null>;
}

/**
 * `current` with the patch applied: title replaced when present, metadata merged (a null
 * value removes the key), text and pages kept. A JSON document's size is recomputed.
 */
export function applyPatch(current: IndexDocument, patch: DocumentChange, indexedAt: string): IndexDocument {
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
