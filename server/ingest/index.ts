// Batch bodies as they came (the ingest room): parsing and checking an NDJSON body or a JSON
// array whole, in the ingest thread or inline, the BatchBody that results, its documents pending as views of its
// bytes, and how a client's JSON document becomes the engine's IndexDocument.

export { JSON_DOCUMENT_FORMAT, buildIndexDocument, documentInputBytes, jsonByteLength } from './index-document.ts';
export { BatchBody, BodyDocument, bodyDocumentInput, sliceBodyDocuments, sliceIndexDocuments } from './batch-body.ts';
export type { BatchFormat, BodyDocumentsSlice } from './batch-body.ts';
export { batchTooLarge, parseBatchBody } from './parse-batch-body.ts';
export { vectorErrors } from './document-vectors.ts';
export type { VectorRules } from './document-vectors.ts';
export { JsonArrayStream, JsonArraySyntaxError } from './json-array-stream.ts';
