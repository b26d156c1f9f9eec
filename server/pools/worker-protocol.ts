// What crosses the thread boundary between the main thread and the pools: plain,
// structured-cloneable values only. A worker never throws across the boundary on purpose; it
// answers with a reply that carries either the value or a portable error, which the main thread
// turns back into the error class callers know (FolioError with its stable code). A worker that
// dies instead (a crash) rejects the task, which the pools report as a 500 `internal`.

import type { FacetValueQuery, IndexDocument, SearchRequest } from '../../engine/index.ts';
import type { ExtractionOptions, PageImageRequest } from '../../extract/index.ts';
import { FolioError } from '../errors/index.ts';
import type { BatchFormat, BodyDocumentsSlice, VectorRules } from '../ingest/index.ts';
import type { ErrorCode, FieldError } from '../errors/index.ts';
import type { EmbedderRuntime } from '../embedders/index.ts';

/** A segment of a snapshot, as the manifest lists it. */
export interface SegmentRef {
  name: string;
  /** The deletes bitmap file of this snapshot's version of the segment, if any. */
  deletes: string | null;
  /** Its vector files by embedder name (search by meaning), when it has any. */
  vectors?: Record<string, string>;
}

/** One committed snapshot of a collection, enough for a worker to open it itself. */
export interface SnapshotRef {
  /** Unique per opened collection (a re-created collection of the same name differs). */
  collectionId: string;
  dir: string;
  language: string;
  /** Manifest generation: a worker keeps the readers of the newest one it has seen. */
  generation: number;
  segments: SegmentRef[];
}

export interface SearchTask {
  snapshot: SnapshotRef;
  request: SearchRequest;
  /** When the search must answer with what it has (ms since the epoch); null: no limit. */
  deadline: number | null;
  /** A facet value search (the worker's `facetSearch`): the field and what was typed; the request gives the matches. */
  facetQuery?: FacetValueQuery;
}

/** A facet value search's answer: the values with their counts, best first. */
export interface FacetValues {
  values: { value: string | number | boolean; count: number }[];
  /** The search ran out of time: the counts are of the matches found by then. */
  timedOut: boolean;
}

/** Builds one segment file from buffered documents: built ones, and batch-body documents still as bytes. */
export interface WriteSegmentTask {
  kind: 'write-segment';
  filePath: string;
  language: string;
  /** The metadata fields whose words the segment indexes (the collection's searchable ones). */
  searchFields: string[];
  docs: IndexDocument[];
  bodies: BodyDocumentsSlice[];
  /**
   * The collection's `user` embedders: the documents' own vectors are written beside the segment
   * in these files (in the segment's directory), so they are searchable with it.
   */
  ownVectors: OwnVectorsFile[];
}

/** A user embedder's vector file for a segment being built. */
export interface OwnVectorsFile {
  embedder: string;
  dims: number;
  fileName: string;
}

/** Rewrites the live documents of several segments as one new segment file. */
export interface MergeSegmentsTask {
  kind: 'merge-segments';
  filePath: string;
  dir: string;
  language: string;
  /** The metadata fields whose words the merged segment indexes (sources indexing others are analysed again). */
  searchFields: string[];
  sources: SegmentRef[];
  /** Embedders every source has vectors for: their vectors are merged into these files (in `dir`). */
  vectors: { embedder: string; fileName: string }[];
}

export type IndexTask = WriteSegmentTask | MergeSegmentsTask;

export interface SegmentWritten {
  docCount: number;
  byteLength: number;
  /** Vector files written with the segment (a merge's, a refresh's own vectors), by embedder (file names in the collection directory). */
  vectors?: Record<string, string>;
}

/** Embeds a query's text with an embedder (builtin model, or an OpenAI-compatible endpoint). */
export interface EmbedQueryTask {
  kind: 'embed-query';
  runtime: EmbedderRuntime;
  text: string;
  /** An endpoint's request is abandoned after this long (the caller stops waiting then). */
  timeoutMs: number;
}

/** What the embedding pool is asked to do for one segment: embed its live documents, write the file. */
export interface SegmentEmbedding {
  runtime: EmbedderRuntime;
  embedder: string;
  documentTemplate: string;
  segmentPath: string;
  docCount: number;
  /** Docs deleted in the snapshot the task was made from (not embedded). */
  deletedDocs: number[];
  outPath: string;
}

/** Embeds the passages of the live documents in [fromDoc, toDoc) of a segment. */
export interface EmbedDocsTask {
  kind: 'embed-docs';
  runtime: EmbedderRuntime;
  /** The embedder's name (a `user` embedder's vectors are the documents' own, under this name). */
  embedder: string;
  documentTemplate: string;
  segmentPath: string;
  fromDoc: number;
  toDoc: number;
  deletedDocs: number[];
}

/** The passages of a range, in doc order, with their vectors (`dims` each, row after row). */
export interface EmbeddedRange {
  liveDocs: number;
  docs: Uint32Array;
  pages: Int32Array;
  /** start, end per passage. */
  spans: Uint32Array;
  vectors: Float32Array;
  dims: number;
}

/** Writes a segment's vector file from its embedded ranges, in doc order. */
export interface WriteVectorsTask {
  kind: 'write-vectors';
  outPath: string;
  embedder: string;
  model: string;
  docCount: number;
  ranges: EmbeddedRange[];
}

export type EmbeddingTask = EmbedQueryTask | EmbedDocsTask | WriteVectorsTask;
export type EmbeddingResult = number[] | EmbeddedRange | SegmentEmbedded;

export interface SegmentEmbedded {
  /** Live docs embedded, passages embedded, bytes of the vector file. */
  docs: number;
  passages: number;
  byteLength: number;
}

/** Parses and checks one batch body (its bytes are copied to the ingest thread). */
export interface IngestTask {
  bytes: Uint8Array;
  format: BatchFormat;
  /** The collection's `user` embedders (name → dimensions), which documents' own vectors must fit. */
  rules: VectorRules;
}

/** What the ingest thread found in a valid body: each document's id, canonical size and byte span. */
export interface ParsedBody {
  ids: string[];
  sizes: number[];
  spans: Uint32Array;
}

/** Reads one uploaded file (a temporary file the main thread wrote) into pages. */
export interface ExtractionTask {
  /** The pool's own number for this task, echoed in its `ExtractionStarted` message. */
  taskId: number;
  filePath: string;
  /** The name the client gave the file (helps detect its type), or null. */
  fileName: string | null;
  limits: ExtractionOptions;
}

/** A task of the extraction pool asking for page `request.page` of a kept file as a picture. */
export interface PageImageTask {
  kind: 'page-image';
  taskId: number;
  filePath: string;
  /** The file's format, as the registry names it (`pdf`, `png`…). */
  format: string;
  request: PageImageRequest;
  limits: ExtractionOptions;
}

/** What the extraction pool's threads are given. */
export type ExtractionPoolTask = ExtractionTask | PageImageTask;

/** Posted by an extraction worker when it begins a task: the per-file time limit starts then. */
export interface ExtractionStarted {
  kind: 'extraction-started';
  taskId: number;
}

export function isExtractionStarted(message: unknown): message is ExtractionStarted {
  return typeof message === 'object' && message !== null && (message as { kind?: unknown }).kind === 'extraction-started';
}

/** An error as a worker reports it. */
export interface PortableError {
  name: string;
  code: string | null;
  message: string;
  errors?: FieldError[];
  stack?: string;
}

export type WorkerReply<T> = { ok: true; value: T } | { ok: false; error: PortableError };

/** Codes an engine, extraction or server error may carry back to become a FolioError of the same code. */
const CLIENT_ERROR_CODES: ReadonlySet<string> = new Set<ErrorCode>([
  'invalid_query',
  'invalid_filter',
  'invalid_sort',
  'validation_failed',
  'payload_too_large',
  'unsupported_file_type',
  'extraction_failed',
  'embedder_failed',
  'not_found',
  'preview_unavailable',
]);

/** Runs `work` and packs its outcome as a reply (used inside workers). */
export function replyOf<T>(work: () => T): WorkerReply<T> {
  try {
    return { ok: true, value: work() };
  } catch (error) {
    return { ok: false, error: toPortableError(error) };
  }
}

/** `replyOf` for asynchronous work. */
export async function replyOfAsync<T>(work: () => Promise<T>): Promise<WorkerReply<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    return { ok: false, error: toPortableError(error) };
  }
}

export function toPortableError(error: unknown): PortableError {
  if (!(error instanceof Error)) return { name: 'Error', code: null, message: String(error) };
  const code = (error as { code?: unknown }).code;
  const errors = (error as { errors?: unknown }).errors;
  return {
    name: error.name,
    code: typeof code === 'string' ? code : null,
    message: error.message,
    ...(Array.isArray(errors) && { errors: errors as FieldError[] }),
    ...(error.stack !== undefined && { stack: error.stack }),
  };
}

/** The value of a reply, or the error it carries rethrown on this thread. */
export function unwrapReply<T>(reply: WorkerReply<T>): T {
  if (reply.ok) return reply.value;
  const { error } = reply;
  if (error.code !== null && CLIENT_ERROR_CODES.has(error.code)) {
    throw new FolioError(error.code as ErrorCode, error.message, error.errors);
  }
  const rethrown = new Error(error.message);
  rethrown.name = error.name;
  if (error.code !== null) Object.assign(rethrown, { code: error.code });
  if (error.stack !== undefined) rethrown.stack = error.stack;
  throw rethrown;
}

/** The error a request gets when the worker running it died. */
export function workerCrashed(cause: unknown): FolioError {
  const error = new FolioError('internal', 'a worker thread stopped while handling the request; it has been replaced');
  (error as { cause?: unknown }).cause = cause;
  return error;
}
