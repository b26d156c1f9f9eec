// Turns client documents into the engine's IndexDocument and back into the API's views
// (summary, stored document), and applies a PATCH to a stored document.

import type { IndexDocument, Metadata } from '../../engine/index.ts';
import type { DocumentInput, DocumentPatch, DocumentSummary, StoredDocumentView } from './collection-types.ts';

/** `format` of documents sent as JSON. */
export const JSON_DOCUMENT_FORMAT = 'text';

/**
 * UTF-8 length of a JSON document's canonical JSON (`{ id, title, text, metadata }`, absent
 * fields as their defaults), so the same document has the same size however it was written.
 */
export function jsonByteLength(doc: { id: string; title: string | null; text: string; metadata: Metadata }): number {
  // {"id":…,"title":…,"text":…,"metadata":…}: the keys and punctuation, then each value.
  const title = doc.title === null ? 4 : jsonStringBytes(doc.title);
  return 36 + jsonStringBytes(doc.id) + title + jsonStringBytes(doc.text) + Buffer.byteLength(JSON.stringify(doc.metadata), 'utf8');
}

/** Characters JSON.stringify writes as escapes (and lone surrogates, written as \uXXXX). */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * UTF-8 length of JSON.stringify(text), without building it when nothing needs escaping (the
 * common case: a text is scanned natively instead of copied).
 */
function jsonStringBytes(text: string): number {
  if (!NEEDS_ESCAPE.test(text)) return Buffer.byteLength(text, 'utf8') + 2;
  return Buffer.byteLength(JSON.stringify(text), 'utf8');
}

/** The IndexDocument for a validated client document accepted at `indexedAt`. */
export function buildIndexDocument(input: DocumentInput, indexedAt: string): IndexDocument {
  const doc = { id: input.id, title: input.title ?? null, text: input.text ?? '', metadata: { ...(input.metadata ?? {}) } };
  return { ...doc, pages: null, format: JSON_DOCUMENT_FORMAT, bytes: jsonByteLength(doc), indexedAt };
}

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
    page_list: doc.pages === null ? null : doc.pages.map(({ number, label }) => ({ number, label })),
  };
}
