// The upload flow (docs/api.md, "Files"), behind `POST /v1/collections/{name}/files`: the route receives
// the multipart body into a temporary file, and this service does the rest — checks the
// fields, has the extraction pool read the file (never the main thread; images and scanned
// pages in the upload's or the collection's OCR languages, ocr-languages.ts), adds the file's facts
// to its metadata (file-facts.ts: format, extension, size), keeps the original
// with --keep-files (durably, before the document is written), writes the document, and sends
// the `file.indexed` or `file.failed` webhook event. Unknown type → 415, unreadable → 422,
// over the size limit → 413; in every case nothing is indexed and the temporary file is gone
// before the answer leaves. It also finds the kept original of a document for download.

import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Metadata } from '../../engine/index.ts';
import { listFormats } from '../../extract/index.ts';
import { FolioError } from '../errors/index.ts';
import type { ErrorCode } from '../errors/index.ts';
import { documentSummary, validateFileFields } from '../api/index.ts';
import type { DocumentSummary } from '../api/index.ts';
import type { Collection, WriteOptions } from '../indexing/index.ts';
import type { ExtractionPool } from '../pools/index.ts';
import type { WebhookEvents } from '../webhooks/index.ts';
import { buildFileDocument } from './file-document.ts';
import { fileFacts, withFileFacts } from './file-facts.ts';
import type { OcrLanguages } from './ocr-languages.ts';
import type { KeptOriginal, KeptOriginals, OriginalFile } from './original-files.ts';

/** Default largest upload (docs/api.md, "Files": 100 MiB; `--max-file-size`). */
export const DEFAULT_MAX_FILE_BYTES = 100 * 1024 * 1024;

/** Refusals of a file that send a `file.failed` webhook event. */
const FILE_FAILURES: ReadonlySet<ErrorCode> = new Set(['unsupported_file_type', 'extraction_failed', 'file_too_large']);

/** An upload received into the temporary directory, with its text fields. */
export interface UploadedFile {
  /** Where the bytes are, in `FileUploads.tempDir`; the service removes it. */
  path: string;
  /** The client's name for the file (used for its extension), or null. */
  fileName: string | null;
  bytes: number;
  sha256: string;
  fields: { id?: string; title?: string; metadata?: string; ocr_languages?: string };
}

export interface FileUploadsOptions {
  dataDir: string;
  extraction: ExtractionPool;
  originals: KeptOriginals;
  events: WebhookEvents;
  /** The OCR languages the server has. */
  ocrLanguages: OcrLanguages;
  /** Largest upload in bytes (default 100 MiB). */
  maxFileBytes?: number;
}

function parseMetadata(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new FolioError('validation_failed', 'metadata is not valid JSON', [{ path: '/body/metadata', message: 'must be a JSON object' }]);
  }
}

export class FileUploads {
  /** Where uploads are received: `<data>/tmp`, emptied of a crash's leftovers at start. */
  readonly tempDir: string;
  readonly maxFileBytes: number;
  private readonly options: FileUploadsOptions;

  constructor(options: FileUploadsOptions) {
    this.options = options;
    this.maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    this.tempDir = join(options.dataDir, 'tmp');
    mkdirSync(this.tempDir, { recursive: true, mode: 0o700 });
    for (const name of readdirSync(this.tempDir)) rmSync(join(this.tempDir, name), { force: true, recursive: true });
  }

  /**
   * Receives an upload with `receive`, indexes it in `collection`, and sends the webhook event
   * of the outcome. The temporary file is removed whatever happens.
   */
  async upload(collection: Collection, receive: () => Promise<UploadedFile>, options: WriteOptions): Promise<DocumentSummary> {
    const { events } = this.options;
    let fileName: string | null = null;
    // Every thread busy and the line full: refused before the body is read (503, Retry-After).
    this.options.extraction.assertRoom();
    try {
      const upload = await receive();
      fileName = upload.fileName;
      const summary = await this.index(collection, upload, options);
      await events.emit('file.indexed', { collection: collection.name, document: summary, file_name: fileName });
      return summary;
    } catch (error) {
      if (error instanceof FolioError && FILE_FAILURES.has(error.code)) {
        await events.emit('file.failed', { collection: collection.name, file_name: fileName, code: error.code, detail: error.message });
      }
      throw error;
    }
  }

  /** The kept original of the current version of document `id`; FolioError `not_found` if none. */
  original(collection: Collection, id: string): OriginalFile {
    const document = collection.getDocument(id);
    const { originals } = this.options;
    const original = originals.of(collection).find(id);
    // The record must belong to this very version of the document.
    if (original === null || original.record.indexed_at !== document.indexedAt) {
      throw new FolioError('not_found', `document '${id}' has no kept original file${originals.enabled ? '' : ' (the server runs without --keep-files)'}`);
    }
    return original;
  }

  /** Extracts an upload in the extraction pool and indexes it (keeping the original with --keep-files). */
  private async index(collection: Collection, upload: UploadedFile, options: WriteOptions): Promise<DocumentSummary> {
    try {
      const metadata = parseMetadata(upload.fields.metadata);
      validateFileFields({ id: upload.fields.id, title: upload.fields.title, metadata });
      const ocr = this.options.ocrLanguages.forUpload(collection.ocrLanguages, upload.fields.ocr_languages);
      const extraction = await this.options.extraction.extract(upload.path, upload.fileName, undefined, ocr);
      const document = buildFileDocument(
        {
          id: upload.fields.id,
          sha256: upload.sha256,
          title: upload.fields.title,
          metadata: withFileFacts(metadata as Metadata | undefined, fileFacts(upload.fileName, extraction.format, upload.bytes)),
          bytes: upload.bytes,
          indexedAt: new Date().toISOString(),
        },
        extraction,
      );
      const enabled = this.options.originals.enabled;
      const originals = this.options.originals.of(collection);
      let kept: KeptOriginal | null = null;
      if (enabled) {
        // Kept (durably) before the document is written, so an acknowledged upload has it.
        const format = listFormats().find((f) => f.extension === extraction.format);
        kept = await originals.keep(upload.path, {
          id: document.id,
          file_name: upload.fileName,
          mime: format?.mime ?? 'application/octet-stream',
          format: extraction.format,
          bytes: upload.bytes,
          sha256: upload.sha256,
          indexed_at: document.indexedAt,
        });
      }
      try {
        await collection.upsertIndexed([document], options);
      } catch (error) {
        if (kept !== null) await originals.settle(kept, false);
        throw error;
      }
      if (kept !== null) await originals.settle(kept, true);
      // Without --keep-files, an original kept earlier for this id is outdated now.
      else await originals.discard([document.id]);
      return documentSummary(document);
    } finally {
      // Gone before the answer leaves, whatever the outcome.
      await rm(upload.path, { force: true });
    }
  }
}
