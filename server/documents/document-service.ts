// What a client does to a collection's JSON documents, one call each (docs/api.md, "Documents"): the write
// through the collection (durable on return), what it does to kept originals (a JSON
// document has no original file, so one kept for an upload it replaces goes; a PATCH keeps
// it bound to the new version), and its webhook event, sent once the change is durable (one
// event per request: a single document names its id, a batch lists them, docs/api.md, "Webhooks").

import { bothFilters, matchesFilter } from '../../engine/index.ts';
import type { FilterNode } from '../../engine/index.ts';
import { FolioError } from '../errors/index.ts';
import { documentSummary, storedDocument, validateDocumentPatch } from '../api/index.ts';
import type { DocumentInput, DocumentList, DocumentPatch, DocumentSummary, LISTED_DOCUMENT_FIELDS, StoredDocument } from '../api/index.ts';
import type { KeptOriginals } from '../files/index.ts';
import type { CollectionRegistry, WriteOptions } from '../indexing/index.ts';
import type { BatchBody, BatchFormat, VectorRules } from '../ingest/index.ts';
import type { IngestPool } from '../pools/index.ts';
import type { WebhookEvents } from '../webhooks/index.ts';
import { buildJsonDocuments } from './json-documents.ts';
import { decodeListCursor, encodeListCursor } from './list-cursor.ts';

export type ListedField = (typeof LISTED_DOCUMENT_FIELDS)[number];

export interface ListRequest {
  limit: number;
  /** The previous page's next_cursor; null for the first page. */
  cursor: string | null;
  /** Members besides `id`. */
  fields: readonly ListedField[];
  filter: FilterNode | null;
}

export interface DocumentServiceOptions {
  collections: CollectionRegistry;
  originals: KeptOriginals;
  events: WebhookEvents;
  /** Parses batch bodies off the main thread. */
  ingest: IngestPool;
}

export class DocumentService {
  private readonly options: DocumentServiceOptions;

  constructor(options: DocumentServiceOptions) {
    this.options = options;
  }

  /** Creates or replaces document `input.id` (PUT). */
  async put(name: string, input: DocumentInput, options: WriteOptions): Promise<DocumentSummary> {
    const collection = this.options.collections.get(name);
    const [document] = await buildJsonDocuments([input], collection.vectorRules());
    await collection.upsertIndexed([document], options);
    await this.options.originals.of(collection).discard([input.id]);
    await this.options.events.emit('document.indexed', { collection: name, id: input.id });
    return documentSummary(document);
  }

  /** Waits for room in the collection's write buffer, or throws `overloaded` (see Collection.awaitWriteRoom). */
  async awaitWriteRoom(name: string): Promise<void> {
    await this.options.collections.get(name).awaitWriteRoom();
  }

  /**
   * Writes one document or a batch (POST), all or nothing; answers the ids written, each once
   * (an id written twice in one batch is one document: the last version wins).
   */
  async write(name: string, documents: DocumentInput[], batch: boolean, options: WriteOptions): Promise<string[]> {
    const collection = this.options.collections.get(name);
    const built = await buildJsonDocuments(documents, collection.vectorRules());
    await collection.upsertIndexed(built, options);
    const ids = [...new Set(built.map((document) => document.id))];
    await this.options.originals.of(collection).discard(ids);
    await this.options.events.emit('document.indexed', batch ? { collection: name, ids } : { collection: name, id: ids[0] });
    return ids;
  }

  /** The pool that parses batch bodies (its thread starts with the first large one). */
  get ingest(): IngestPool {
    return this.options.ingest;
  }

  /**
   * Parses and checks a batch body (NDJSON or a JSON array) in the ingest thread (a small one
   * here); rejects with the 400 naming the bad documents, or the 413 of a batch over
   * MAX_BATCH_DOCUMENTS.
   */
  parseBody(bytes: Uint8Array, format: BatchFormat, collection?: string): Promise<BatchBody> {
    // Documents' own vectors must fit the collection's user embedders (none when it does not exist: the write is a 404 anyway).
    let rules: VectorRules = {};
    if (collection !== undefined) {
      try {
        rules = this.options.collections.get(collection).vectorRules();
      } catch {
        // No such collection: the write answers 404 after the parse.
      }
    }
    return this.options.ingest.parse(bytes, format, rules);
  }

  /** Writes the documents of a parsed batch body, all or nothing; answers their ids, each once. */
  async writeBody(name: string, body: BatchBody, options: WriteOptions): Promise<string[]> {
    const collection = this.options.collections.get(name);
    const ids = [...new Set(await collection.upsertBody(body, options))];
    await this.options.originals.of(collection).discard(ids);
    await this.options.events.emit('document.indexed', { collection: name, ids });
    return ids;
  }

  /**
   * The stored document, realtime (acknowledged writes included). `visible`: the caller's key
   * filter — a document outside it is absent (404), as if it did not exist.
   */
  get(name: string, id: string, visible: FilterNode | null = null): StoredDocument {
    const document = this.options.collections.get(name).getDocument(id);
    if (visible !== null && !matchesFilter(visible, document.metadata)) {
      throw new FolioError('document_not_found', `document '${id}' does not exist in collection '${name}'`);
    }
    return storedDocument(document);
  }

  /** A page of the collection's documents in id order, realtime like get (GET …/documents); `visible` as for get. */
  list(name: string, request: ListRequest, visible: FilterNode | null = null): DocumentList {
    const after = request.cursor === null ? null : decodeListCursor(request.cursor);
    const page = this.options.collections.get(name).listDocuments(after, request.limit, bothFilters(visible, request.filter));
    const documents = page.documents.map(storedDocument).map((document) => {
      const listed: Record<string, unknown> = { id: document.id };
      for (const field of request.fields) if (document[field] !== undefined) listed[field] = document[field];
      return listed as DocumentList['documents'][number];
    });
    const last = page.documents.at(-1);
    return { documents, next_cursor: page.more && last !== undefined ? encodeListCursor(last.id) : null };
  }

  /** Replaces the title and merges metadata; the text and a kept original stay. */
  async patch(name: string, id: string, patch: DocumentPatch, options: WriteOptions): Promise<DocumentSummary> {
    validateDocumentPatch(patch);
    const collection = this.options.collections.get(name);
    const updated = await collection.patch(id, patch, options);
    this.options.originals.of(collection).follow(id, updated.indexedAt);
    await this.options.events.emit('document.indexed', { collection: name, id });
    return documentSummary(updated);
  }

  async delete(name: string, id: string, options: WriteOptions): Promise<void> {
    const collection = this.options.collections.get(name);
    await collection.deleteDocument(id, options);
    await this.options.originals.of(collection).discard([id]);
    await this.options.events.emit('document.deleted', { collection: name, id });
  }

  /** Deletes every document whose current version matches, atomically; answers how many. */
  async deleteByFilter(name: string, filter: FilterNode, options: WriteOptions): Promise<number> {
    const collection = this.options.collections.get(name);
    const ids = await collection.deleteByFilter(filter, options);
    await this.options.originals.of(collection).discard(ids);
    if (ids.length > 0) await this.options.events.emit('document.deleted', { collection: name, ids });
    return ids.length;
  }

  /** Resolves once every write acknowledged before the call is searchable. */
  async refresh(name: string): Promise<void> {
    await this.options.collections.get(name).refresh();
  }
}
