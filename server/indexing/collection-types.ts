// The contract between the HTTP routes and the collection services: what a collection can do
// and what the registry of collections offers. Routes depend on these types only.

import type { IndexDocument, Metadata } from '../../engine/index.ts';
import type { FilterNode } from '../../engine/index.ts';
import type { SearchRequest, SearchResult } from '../../engine/index.ts';
import type { SearchPage } from '../pools/index.ts';

/** Collection record (SPEC §4). */
export interface CollectionInfo {
  name: string;
  language: string;
  created_at: string;
  /** Live documents, including acknowledged writes not yet refreshed. */
  documents: number;
  /** Bytes on disk: segments, deletes, WAL and manifest. */
  size_bytes: number;
  segments: number;
}

/** A JSON document as a client sends it, already schema-validated. */
export interface DocumentInput {
  id: string;
  title?: string | null;
  text?: string;
  metadata?: Metadata;
}

/** Document summary (SPEC §5). `pages` is null for documents without pages. */
export interface DocumentSummary {
  id: string;
  title: string | null;
  format: string;
  pages: number | null;
  bytes: number;
  metadata: Metadata;
  indexed_at: string;
}

/** The stored document, as `GET …/documents/{id}` returns it. */
export interface StoredDocumentView extends DocumentSummary {
  text: string;
  /** Page numbers and labels of a paged document, or null. */
  page_list: { number: number; label: string | null }[] | null;
}

/** A PATCH: title replaced when present; metadata merged (a null value removes the key). */
export interface DocumentPatch {
  title?: string | null;
  metadata?: Record<string, Metadata[string] | null>;
}

export interface WriteOptions {
  /** `?refresh=wait_for`: resolve only once the change is searchable. */
  waitForRefresh: boolean;
}

export interface Collection {
  readonly name: string;
  /** The collection's directory (its index files, WAL and kept originals). */
  readonly dir: string;
  info(): CollectionInfo;
  /** Upserts documents; resolves once the change is durable (WAL fsynced). All or nothing. */
  upsert(documents: DocumentInput[], options: WriteOptions): Promise<DocumentSummary[]>;
  /** Upserts documents the server built itself (extracted files); their ids must be valid. */
  upsertIndexed(docs: IndexDocument[], options: WriteOptions): Promise<DocumentSummary[]>;
  /** Throws FolioError `document_not_found` when the id is absent. */
  patch(id: string, patch: DocumentPatch, options: WriteOptions): Promise<DocumentSummary>;
  /** Throws FolioError `document_not_found` when the id is absent. */
  deleteDocument(id: string, options: WriteOptions): Promise<void>;
  /**
   * Deletes every live document whose current version (pending writes included) matches the
   * filter, atomically; resolves to the ids deleted (none: nothing is written).
   */
  deleteByFilter(filter: FilterNode, options: WriteOptions): Promise<string[]>;
  /** Realtime: sees acknowledged writes before they are searchable. */
  getDocument(id: string): StoredDocumentView;
  /** Whether a live document has this id (acknowledged writes included). */
  hasDocument(id: string): boolean;
  /** Resolves once every write acknowledged before the call is searchable. */
  refresh(): Promise<void>;
  search(request: SearchRequest): Promise<SearchResult>;
  /** The same search, answered as JSON text ready for the HTTP body (see pools/search-page.ts). */
  searchPage(request: SearchRequest): Promise<SearchPage>;
}

export interface CollectionRegistry {
  /** Throws FolioError `collection_exists`, or `validation_failed` for an unknown language. */
  create(name: string, language: string): Promise<CollectionInfo>;
  list(): CollectionInfo[];
  /** Throws FolioError `collection_not_found`. */
  get(name: string): Collection;
  /** Removes the collection and its files. Throws `collection_not_found`. */
  delete(name: string): Promise<void>;
  /** Stops timers, finishes pending refreshes, closes files. */
  close(): Promise<void>;
}
