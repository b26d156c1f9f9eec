// The document model the engine indexes and stores: what a write carries once validated,
// and what a segment gives back for a document id. Plain data only (structured-cloneable).

/** A metadata value: strings, finite numbers, booleans, or arrays of strings or numbers. */
export type MetadataValue = string | number | boolean | string[] | number[];

/** Flat metadata object; every field is filterable, facetable and sortable without setup. */
export type Metadata = Record<string, MetadataValue>;

/** One page of a paged document (files); `offset` is where its text starts in `text`. */
export interface PageInfo {
  /** 1-based physical page number. */
  number: number;
  /** The page's label when it has one (`iv`, `A-3`, `slide 2`, a sheet name), else null. */
  label: string | null;
  /** UTF-16 offset in the document's `text` where this page begins. */
  offset: number;
}

/** A document as indexed and stored: the engine's unit of writing and reading. */
export interface IndexDocument {
  /** Caller's id, 1–256 characters of `[A-Za-z0-9_.:-]`. */
  id: string;
  title: string | null;
  /** Full text. For paged documents, the pages' texts joined; `pages` says where each starts. */
  text: string;
  /** Pages of a paged document, in order; null for documents without pages (JSON text). */
  pages: PageInfo[] | null;
  metadata: Metadata;
  /** `"text"` for JSON documents, else the file type (`"pdf"`, `"docx"`, …). */
  format: string;
  /** Size of the source in bytes (the JSON document's UTF-8 length, or the file's size). */
  bytes: number;
  /** RFC 3339 UTC time the document was accepted. */
  indexedAt: string;
  /** The document's own vectors, by `user` embedder (absent: none). */
  vectors?: Record<string, number[]>;
}
