// The contract between the HTTP routes and the collection services: what a collection can do
// and what the registry of collections offers. Routes depend on these types only; the shapes
// that cross the wire are the API's (server/api), named once there.

import type { DamagedCollection } from './damaged-collections.ts';
import type { IndexDocument } from '../../engine/index.ts';
import type { BatchBody, VectorRules } from '../ingest/index.ts';
import type { CollectionSettingsPatch, SettingsValues, TypoTolerancePatch } from '../settings/index.ts';
import type { EmbeddingCounts } from './collection-embedder.ts';
import type { DocumentChange } from './document-model.ts';
import type { FilterNode } from '../../engine/index.ts';
import type { CorpusStatistics, FacetValueQuery, SearchRequest } from '../../engine/index.ts';
import type { FacetValues, SearchPage } from '../pools/index.ts';
import type { SemanticParams } from './semantic-query.ts';

/** Wire shapes, each declared once as a TypeBox schema in server/api. */
export type { CollectionSettingsPatch, TypoTolerancePatch } from '../settings/index.ts';

/** A collection as indexing knows it; documents/collection-record.ts makes the API's record of it. */
export interface CollectionFacts {
  name: string;
  language: string;
  /** RFC 3339 UTC. */
  createdAt: string;
  /** Live documents, acknowledged writes included. */
  documents: number;
  sizeBytes: number;
  segments: number;
  settings: SettingsValues;
  /** Per embedder: documents embedded, waiting and failed. */
  embedding: Record<string, EmbeddingCounts>;
  /** While the segments are indexed again with other metadata fields: how far it has come. */
  reindexing: ReindexCounts | null;
}

/** A re-index after `searchable_fields` changed the metadata fields: those fields (`metadata.<name>`) and the live documents done and in all. */
export interface ReindexCounts {
  fields: string[];
  documentsDone: number;
  documentsTotal: number;
}

export interface WriteOptions {
  /** `?refresh=wait_for`: resolve only once the change is searchable. */
  waitForRefresh: boolean;
  /** `?refresh=true`: with `waitForRefresh`, start the refresh now instead of at its scheduled time. */
  refreshNow?: boolean;
}

export interface Collection {
  readonly name: string;
  /** The collection's directory (its index files, WAL and kept originals). */
  readonly dir: string;
  info(): CollectionFacts;
  /** The Tesseract languages its uploads are read in unless an upload names its own (`ocr_languages`). */
  readonly ocrLanguages: readonly string[];
  /**
   * Changes settings (what the patch leaves out is kept), durably (collection.json), for every
   * later search. Throws FolioError `validation_failed`.
   */
  updateSettings(patch: CollectionSettingsPatch): Promise<CollectionFacts>;
  /**
   * Resolves once the write buffer has room (at once, unless a bulk load filled it); throws
   * FolioError `overloaded` (503, Retry-After) when a refresh did not make room in time. Asked
   * before a large write is read; every write checks again.
   */
  awaitWriteRoom(): Promise<void>;
  /**
   * Upserts the documents of a parsed batch body (ingest/): the body is logged as its bytes and
   * its documents stay bytes until an index thread builds them. Resolves to their ids, in body order.
   */
  upsertBody(body: BatchBody, options: WriteOptions): Promise<string[]>;
  /**
   * Upserts built documents (a client's, checked and built by the document service; an extracted
   * file's); resolves once the change is durable (WAL fsynced). All or nothing; their ids must be valid.
   */
  upsertIndexed(docs: IndexDocument[], options: WriteOptions): Promise<void>;
  /** Applies the change to the current version; resolves to the new one. Throws FolioError `document_not_found` when the id is absent. */
  patch(id: string, change: DocumentChange, options: WriteOptions): Promise<IndexDocument>;
  /** Throws FolioError `document_not_found` when the id is absent. */
  deleteDocument(id: string, options: WriteOptions): Promise<void>;
  /**
   * Deletes every live document whose current version (pending writes included) matches the
   * filter, atomically; resolves to the ids deleted (none: nothing is written).
   */
  deleteByFilter(filter: FilterNode, options: WriteOptions): Promise<string[]>;
  /** The collection's `user` embedders (name → dimensions): what documents' own `vectors` must fit. */
  vectorRules(): VectorRules;
  /** Realtime: sees acknowledged writes before they are searchable. */
  getDocument(id: string): IndexDocument;
  /** Up to `limit` live documents after id `after` (null: the first), ascending by id; realtime like getDocument. */
  listDocuments(after: string | null, limit: number, filter: FilterNode | null): { documents: IndexDocument[]; more: boolean };
  /** Whether a live document has this id (acknowledged writes included). */
  hasDocument(id: string): boolean;
  /** Resolves once every write acknowledged before the call is searchable. */
  refresh(): Promise<void>;
  /** A search, answered as JSON text ready for the HTTP body (see api/search-wire.ts). */
  searchPage(request: SearchRequest, semantic?: SemanticParams, part?: string): Promise<SearchPage>;
  /** Its part of the statistics of a search over several collections (federated search): give them to each one's search as `corpus`. */
  corpusStatistics(request: SearchRequest, part?: string): Promise<CorpusStatistics>;
  /** The values of a facet matching what was typed, with their counts among the request's matches. */
  facetSearch(request: SearchRequest, facetQuery: FacetValueQuery, part?: string): Promise<FacetValues>;
  /**
   * Gathers the committed index and the WAL into `target` at this instant (collection-snapshot.ts):
   * every write acknowledged before the call is in it. `originalsDirName`: kept originals' folder.
   */
  captureInto(target: string, originalsDirName: string): void;
}

export interface CollectionRegistry {
  /**
   * Throws FolioError `collection_exists`, or `validation_failed` for an unknown language or bad
   * typo tolerance (fields left out take the defaults).
   */
  create(name: string, language: string, settings?: CollectionSettingsPatch): Promise<CollectionFacts>;
  list(): CollectionFacts[];
  /** Collections set aside because a file of theirs is damaged (their requests get 503 `collection_unavailable`). */
  unavailable(): DamagedCollection[];
  /** Throws FolioError `collection_not_found`. */
  get(name: string): Collection;
  /**
   * Keeps a collection from being closed while idle until the returned release is called (a
   * request in flight that uses it); opens nothing, and a name that is not a collection is fine.
   */
  hold(name: string): () => void;
  /** Gathers a collection's files into `target` for a data snapshot; a closed one from its files, without opening it. */
  captureInto(name: string, target: string, originalsDirName: string): void;
  /** Removes the collection and its files. Throws `collection_not_found`. */
  delete(name: string): Promise<void>;
  /** Stops timers, finishes pending refreshes, closes files. */
  close(): Promise<void>;
}
