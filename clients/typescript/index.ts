// The TypeScript client of the Folio HTTP API (README.md, "Use it from code"): `FolioClient` has one async method
// per route, typed with the types generated from the OpenAPI description (api-types.ts).
// Non-2xx answers and network failures throw `FolioError`; a 429 is retried after its
// `Retry-After`. See clients/typescript/README.md.

import type {
  Collection,
  CreateCollectionBody,
  CreateKeyBody,
  CreateWebhookBody,
  CreatedApiKey,
  CreatedWebhook,
  DeleteByFilterBody,
  DeletedResponse,
  DocumentInput,
  DocumentList,
  DocumentSummary,
  FacetSearchBody,
  FacetSearchResponse,
  FederatedSearchResponse,
  Federation,
  GetOpenApiResponse,
  Health,
  ListCollectionsResponse,
  ListDeliveriesResponse,
  ListFormatsResponse,
  ListKeysResponse,
  ListedDocument,
  ListWebhooksResponse,
  MultiSearchQuery,
  MultiSearchResults,
  PatchDocumentBody,
  RefreshResponse,
  SearchBody,
  SearchHit,
  SearchResponse,
  Session,
  Stats,
  StoredDocument,
  UpdateCollectionBody,
  UpsertDocumentBody,
  Webhook,
  WriteDocumentsResponse,
} from './api-types.ts';
import { Transport, apiPath, jsonBody } from './transport.ts';
import type { FolioClientOptions, RequestSpec } from './transport.ts';
import { uploadBody } from './upload.ts';
import type { UploadFields, UploadSource } from './upload.ts';

export type * from './api-types.ts';
export { FolioError } from './errors.ts';
export type { FieldError } from './errors.ts';
export type { FolioClientOptions } from './transport.ts';
export type { UploadFields, UploadSource } from './upload.ts';

export interface WriteOptions {
  /** Answer only once the change is searchable (`?refresh=wait_for`). */
  refresh?: boolean;
}

/** Search parameters (docs/api.md, "Search") besides `q`, with the API's names. */
export interface SearchOptions extends Omit<SearchBody, 'q'> {
  /** Shorthand for `highlight_tag` (the element wrapped round matched terms). */
  highlight?: string;
}

export type UploadOptions = UploadFields & WriteOptions;

/** Options of a document listing (`GET …/documents`). */
export interface ListDocumentsOptions {
  /** Documents per page, 1–1000 (default 20). */
  limit?: number;
  /** The `next_cursor` of the previous page. */
  cursor?: string;
  /** Members besides `id` (default: the summary); `['id']` gives ids only. */
  fields?: string[];
  /** A metadata filter object, as in search. */
  filter?: Record<string, unknown>;
}

export interface DownloadedFile {
  bytes: Uint8Array;
  contentType: string;
  /** The uploaded file's name, from `Content-Disposition`; null when the server sent none. */
  fileName: string | null;
}

/** Largest `offset + limit` of a search (docs/api.md, "Search"). */
const SEARCH_WINDOW = 10_000;
/** Hits per request of `searchAll` when `limit` is not given. */
const SEARCH_ALL_PAGE_SIZE = 100;

function writeQuery(options: WriteOptions | undefined): RequestSpec['query'] {
  return options?.refresh === true ? { refresh: 'wait_for' } : undefined;
}

function searchBody(q: string, options: SearchOptions = {}): SearchBody {
  const { highlight, ...rest } = options;
  return { q, ...(highlight !== undefined && { highlight_tag: highlight }), ...rest };
}

/** The file name of a `Content-Disposition` header: `filename*` (UTF-8) first, then `filename`. */
export function fileNameOf(disposition: string | null): string | null {
  if (disposition === null) return null;
  const extended = /filename\*\s*=\s*UTF-8''([^;\s]+)/i.exec(disposition);
  if (extended !== null) {
    try {
      return decodeURIComponent(extended[1]);
    } catch {
      // Malformed percent-encoding: fall back to the plain parameter.
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/i.exec(disposition);
  if (plain === null) return null;
  return plain[1] !== undefined ? plain[1].replace(/\\(.)/g, '$1') : plain[2];
}

export class FolioClient {
  private readonly http: Transport;

  constructor(options: FolioClientOptions) {
    this.http = new Transport(options);
  }

  // Server ---------------------------------------------------------------------------------

  health(): Promise<Health> {
    return this.http.json({ method: 'GET', path: '/v1/health' });
  }

  /** The server's OpenAPI 3.1 description. */
  openApi(): Promise<GetOpenApiResponse> {
    return this.http.json({ method: 'GET', path: '/v1/openapi.json' });
  }

  /** The file types the server reads. */
  formats(): Promise<ListFormatsResponse> {
    return this.http.json({ method: 'GET', path: '/v1/formats' });
  }

  /** Server and collection statistics (admin). */
  stats(): Promise<Stats> {
    return this.http.json({ method: 'GET', path: '/v1/stats' });
  }

  /**
   * A consistent copy of the server's data directory as a tar stream (admin): every write
   * acknowledged before the call is in it. `folio restore FILE --data DIR` starts a server from it.
   */
  async snapshot(): Promise<ReadableStream<Uint8Array>> {
    const response = await this.http.send({ method: 'POST', path: '/v1/snapshots' });
    if (response.body === null) throw new Error('the server sent no snapshot');
    return response.body;
  }

  // Collections ----------------------------------------------------------------------------

  createCollection(name: string, options: Omit<CreateCollectionBody, 'name'> = {}): Promise<Collection> {
    return this.http.json({ method: 'POST', path: '/v1/collections', body: jsonBody({ name, ...options }) });
  }

  listCollections(): Promise<ListCollectionsResponse> {
    return this.http.json({ method: 'GET', path: '/v1/collections' });
  }

  getCollection(name: string): Promise<Collection> {
    return this.http.json({ method: 'GET', path: apiPath`/v1/collections/${name}` });
  }

  /** Changes a collection's settings (`typo_tolerance`); what `settings` leaves out is kept. */
  updateCollection(name: string, settings: UpdateCollectionBody): Promise<Collection> {
    return this.http.json({ method: 'PATCH', path: apiPath`/v1/collections/${name}`, body: jsonBody(settings) });
  }

  deleteCollection(name: string): Promise<void> {
    return this.http.empty({ method: 'DELETE', path: apiPath`/v1/collections/${name}` });
  }

  // Documents ------------------------------------------------------------------------------

  /** Creates or replaces the document `id` (PUT): fields left out become empty. */
  upsert(collection: string, id: string, doc: UpsertDocumentBody, options?: WriteOptions): Promise<DocumentSummary> {
    const path = apiPath`/v1/collections/${collection}/documents/${id}`;
    return this.http.json({ method: 'PUT', path, query: writeQuery(options), body: jsonBody(doc) });
  }

  /** Writes a batch (1–10,000 documents) as one all-or-nothing request. */
  upsertMany(collection: string, docs: DocumentInput[], options?: WriteOptions): Promise<WriteDocumentsResponse> {
    const path = apiPath`/v1/collections/${collection}/documents`;
    return this.http.json({ method: 'POST', path, query: writeQuery(options), body: jsonBody(docs) });
  }

  /** The stored document; realtime (sees writes that are not searchable yet). */
  getDocument(collection: string, id: string): Promise<StoredDocument> {
    return this.http.json({ method: 'GET', path: apiPath`/v1/collections/${collection}/documents/${id}` });
  }

  /** One page of documents in id order; pass its `next_cursor` as `cursor` for the next. */
  listDocuments(collection: string, options: ListDocumentsOptions = {}): Promise<DocumentList> {
    const query = {
      limit: options.limit === undefined ? undefined : String(options.limit),
      cursor: options.cursor,
      fields: options.fields === undefined ? undefined : options.fields.join(','),
      filter: options.filter === undefined ? undefined : JSON.stringify(options.filter),
    };
    return this.http.json({ method: 'GET', path: apiPath`/v1/collections/${collection}/documents`, query });
  }

  /** Every document (or every one `filter` matches), page by page of `limit` (default 100), in id order. */
  async *allDocuments(collection: string, options: Omit<ListDocumentsOptions, 'cursor'> = {}): AsyncIterable<ListedDocument> {
    let cursor: string | undefined;
    do {
      const page = await this.listDocuments(collection, { limit: 100, ...options, cursor });
      yield* page.documents;
      cursor = page.next_cursor ?? undefined;
    } while (cursor !== undefined);
  }

  /** Replaces `title` if given and merges `metadata` (a null value removes a field); keeps the text. */
  patchDocument(collection: string, id: string, patch: PatchDocumentBody, options?: WriteOptions): Promise<DocumentSummary> {
    const path = apiPath`/v1/collections/${collection}/documents/${id}`;
    return this.http.json({ method: 'PATCH', path, query: writeQuery(options), body: jsonBody(patch) });
  }

  deleteDocument(collection: string, id: string, options?: WriteOptions): Promise<void> {
    const path = apiPath`/v1/collections/${collection}/documents/${id}`;
    return this.http.empty({ method: 'DELETE', path, query: writeQuery(options) });
  }

  /** Deletes every document whose current version matches `filter` (which may not be `{}`). */
  deleteByFilter(collection: string, filter: DeleteByFilterBody['filter'], options?: WriteOptions): Promise<DeletedResponse> {
    const path = apiPath`/v1/collections/${collection}/documents/delete`;
    return this.http.json({ method: 'POST', path, query: writeQuery(options), body: jsonBody({ filter }) });
  }

  /** Answers once every write acknowledged before the call is searchable. */
  refresh(collection: string): Promise<RefreshResponse> {
    return this.http.json({ method: 'POST', path: apiPath`/v1/collections/${collection}/refresh` });
  }

  // Files ----------------------------------------------------------------------------------

  /**
   * Uploads a file (a path, bytes, a Blob or a readable stream) to be extracted and indexed as
   * one document. Paths and Blobs are streamed from their source and retried on 429; a stream
   * is sent as it is read (never buffered), so a 429 on it is thrown, not retried.
   */
  async upload(collection: string, file: UploadSource, options: UploadOptions = {}): Promise<DocumentSummary> {
    const { refresh, ...fields } = options;
    const body = await uploadBody(file, fields);
    const path = apiPath`/v1/collections/${collection}/files`;
    return this.http.json({ method: 'POST', path, query: writeQuery({ refresh }), body });
  }

  /** The original of an uploaded file (the server must run with `--keep-files`). */
  async downloadFile(collection: string, id: string): Promise<DownloadedFile> {
    const response = await this.http.send({ method: 'GET', path: apiPath`/v1/collections/${collection}/documents/${id}/file` });
    return {
      bytes: new Uint8Array(await response.arrayBuffer()),
      contentType: response.headers.get('content-type') ?? 'application/octet-stream',
      fileName: fileNameOf(response.headers.get('content-disposition')),
    };
  }

  /**
   * Page `page` of a document's kept original as a picture (`GET …/pages/{page}/image`; the
   * server must run with `--keep-files`): a PDF page or an image, `width` pixels wide (16–2048,
   * default 800), WebP unless `format: 'png'`.
   */
  async pageImage(collection: string, id: string, page: number, options: { width?: number; format?: 'webp' | 'png' } = {}): Promise<{ bytes: Uint8Array; contentType: string }> {
    const query = { ...(options.width !== undefined && { width: String(options.width) }), ...(options.format !== undefined && { format: options.format }) };
    const response = await this.http.send({ method: 'GET', path: apiPath`/v1/collections/${collection}/documents/${id}/pages/${String(page)}/image`, query });
    return { bytes: new Uint8Array(await response.arrayBuffer()), contentType: response.headers.get('content-type') ?? 'application/octet-stream' };
  }

  // Search ---------------------------------------------------------------------------------

  /** One page of hits (`POST …/search`); `q` may be empty to match every document. */
  search(collection: string, q: string, options?: SearchOptions): Promise<SearchResponse> {
    const path = apiPath`/v1/collections/${collection}/search`;
    return this.http.json({ method: 'POST', path, body: jsonBody(searchBody(q, options)) });
  }

  /**
   * Every hit, page by page (`limit` per request, default 100, from `offset`), until `has_more`
   * is false or the search window of 10,000 hits ends.
   */
  async *searchAll(collection: string, q: string, options: SearchOptions = {}): AsyncIterable<SearchHit> {
    const pageSize = options.limit ?? SEARCH_ALL_PAGE_SIZE;
    let offset = options.offset ?? 0;
    while (offset < SEARCH_WINDOW) {
      const limit = Math.min(pageSize, SEARCH_WINDOW - offset);
      const page = await this.search(collection, q, { ...options, offset, limit });
      yield* page.hits;
      if (!page.has_more || page.hits.length === 0) return;
      offset += page.hits.length;
    }
  }

  /**
   * The values of a facet with a word starting with `q` (typo-tolerant), each with its count among
   * the documents `options.query` and `options.filter` match (`POST …/facet-search`).
   */
  facetSearch(collection: string, facet: string, q = '', options: Omit<FacetSearchBody, 'facet' | 'q'> = {}): Promise<FacetSearchResponse> {
    const path = apiPath`/v1/collections/${collection}/facet-search`;
    return this.http.json({ method: 'POST', path, body: jsonBody({ facet, q, ...options }) });
  }

  /** Several searches in one request (`POST /v1/multi-search`), each of one collection: each query's answer, in order. */
  multiSearch(queries: MultiSearchQuery[]): Promise<MultiSearchResults> {
    return this.http.json({ method: 'POST', path: '/v1/multi-search', body: jsonBody({ queries }) });
  }

  /**
   * One list of hits from several collections (`POST /v1/multi-search` with `federation`),
   * merged by score as one collection holding them all would rank them; `federation` pages it.
   */
  federatedSearch(queries: MultiSearchQuery[], federation: Federation = {}): Promise<FederatedSearchResponse> {
    return this.http.json({ method: 'POST', path: '/v1/multi-search', body: jsonBody({ queries, federation }) });
  }

  // API keys and sessions --------------------------------------------------------------------

  /** Creates an API key; the returned `key` is shown this once. */
  createKey(input: CreateKeyBody = {}): Promise<CreatedApiKey> {
    return this.http.json({ method: 'POST', path: '/v1/api-keys', body: jsonBody(input) });
  }

  listKeys(): Promise<ListKeysResponse> {
    return this.http.json({ method: 'GET', path: '/v1/api-keys' });
  }

  deleteKey(id: string): Promise<void> {
    return this.http.empty({ method: 'DELETE', path: apiPath`/v1/api-keys/${id}` });
  }

  /** Opens a 12-hour session; use its `token` as `apiKey` of a client. */
  createSession(masterKey: string): Promise<Session> {
    return this.http.json({ method: 'POST', path: '/v1/sessions', body: jsonBody({ master_key: masterKey }) });
  }

  /** Ends the session whose token this client uses (logs out). */
  deleteSession(): Promise<void> {
    return this.http.empty({ method: 'DELETE', path: '/v1/sessions/current' });
  }

  // Webhooks -------------------------------------------------------------------------------

  /** Registers a webhook; the returned `secret` (`whsec_…`) is shown this once. */
  createWebhook(input: CreateWebhookBody): Promise<CreatedWebhook> {
    return this.http.json({ method: 'POST', path: '/v1/webhooks', body: jsonBody(input) });
  }

  listWebhooks(): Promise<ListWebhooksResponse> {
    return this.http.json({ method: 'GET', path: '/v1/webhooks' });
  }

  getWebhook(id: string): Promise<Webhook> {
    return this.http.json({ method: 'GET', path: apiPath`/v1/webhooks/${id}` });
  }

  deleteWebhook(id: string): Promise<void> {
    return this.http.empty({ method: 'DELETE', path: apiPath`/v1/webhooks/${id}` });
  }

  /** Recent deliveries of a webhook, newest first, with their attempts. */
  listDeliveries(id: string): Promise<ListDeliveriesResponse> {
    return this.http.json({ method: 'GET', path: apiPath`/v1/webhooks/${id}/deliveries` });
  }
}
