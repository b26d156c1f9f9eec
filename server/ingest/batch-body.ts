// A batch write's body kept as it came: the request's bytes, and what parsing them found — each
// document's id, canonical size and byte span. The write path logs the bytes as they are, the
// pending buffer holds each document as a view of them (BodyDocument), and an index thread
// builds the IndexDocuments from the spans: no document of a batch is made into objects on the
// main thread, re-encoded or structured-cloned. A body's documents are all valid: a body that
// is not is never kept (parse-batch-body.ts refuses it whole).

import type { IndexDocument } from '../../engine/index.ts';
import type { DocumentInput } from '../api/index.ts';
import { buildIndexDocument } from './index-document.ts';

/** The body formats a batch body can have: `application/x-ndjson`, or a JSON array (`application/json`). */
export type BatchFormat = 'ndjson' | 'json-array';

export class BatchBody {
  constructor(
    readonly format: BatchFormat,
    /** The body's bytes, as received. */
    readonly bytes: Uint8Array,
    /** Each document's id, in body order (an id may repeat: the last one wins). */
    readonly ids: string[],
    /** Each document's canonical JSON size (index-document.ts `jsonByteLength`). */
    readonly sizes: number[],
    /** Each document's [start, end) byte offsets in `bytes`, two entries a document. */
    readonly spans: Uint32Array,
  ) {}
}

const utf8 = new TextDecoder();

/** The client document at `index` of a parsed body's spans (valid: the body was checked). */
export function bodyDocumentInput(bytes: Uint8Array, spans: Uint32Array, index: number): DocumentInput {
  return JSON.parse(utf8.decode(bytes.subarray(spans[2 * index], spans[2 * index + 1]))) as DocumentInput;
}

/** The IndexDocument of the document at `index` of `spans`, of canonical size `size`. */
function spanIndexDocument(bytes: Uint8Array, spans: Uint32Array, index: number, indexedAt: string, size: number): IndexDocument {
  return buildIndexDocument(bodyDocumentInput(bytes, spans, index), indexedAt, size);
}

/** One document of a written batch body, pending until a refresh indexes it. */
export class BodyDocument {
  constructor(
    readonly body: BatchBody,
    readonly index: number,
    readonly indexedAt: string,
  ) {}

  get id(): string {
    return this.body.ids[this.index];
  }

  /** The document's canonical JSON size. */
  get bytes(): number {
    return this.body.sizes[this.index];
  }

  /** The document as the engine's IndexDocument (parsed from its bytes now). */
  toIndexDocument(): IndexDocument {
    return spanIndexDocument(this.body.bytes, this.body.spans, this.index, this.indexedAt, this.bytes);
  }
}

/**
 * Documents of batch bodies on their way to an index thread: the bytes they span (copied out of
 * their bodies, so only those cross), their spans in those bytes, and when each was written.
 */
export interface BodyDocumentsSlice {
  bytes: Uint8Array;
  spans: Uint32Array;
  /** Each document's canonical size. */
  sizes: Float64Array;
  indexedAt: string;
}

/**
 * Packs documents of one body (in any order) into a slice: the smallest stretch of the body
 * holding them all, copied, with their spans made relative to it.
 */
export function sliceBodyDocuments(documents: readonly BodyDocument[]): BodyDocumentsSlice {
  const { body, indexedAt } = documents[0];
  let from = Infinity;
  let to = 0;
  for (const doc of documents) {
    from = Math.min(from, body.spans[2 * doc.index]);
    to = Math.max(to, body.spans[2 * doc.index + 1]);
  }
  const spans = new Uint32Array(documents.length * 2);
  const sizes = new Float64Array(documents.length);
  documents.forEach((doc, i) => {
    spans[2 * i] = body.spans[2 * doc.index] - from;
    spans[2 * i + 1] = body.spans[2 * doc.index + 1] - from;
    sizes[i] = doc.bytes;
  });
  return { bytes: body.bytes.slice(from, to), spans, sizes, indexedAt };
}

/** The IndexDocuments of a slice, in its order (an index thread builds them). */
export function sliceIndexDocuments(slice: BodyDocumentsSlice): IndexDocument[] {
  const docs: IndexDocument[] = [];
  for (let i = 0; i < slice.sizes.length; i++) docs.push(spanIndexDocument(slice.bytes, slice.spans, i, slice.indexedAt, slice.sizes[i]));
  return docs;
}
