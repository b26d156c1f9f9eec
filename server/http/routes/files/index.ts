// File routes (SPEC §5): `POST /v1/collections/{name}/files` takes a multipart upload (`file`,
// optional `id`, `title`, `metadata` as a JSON string), streams it to a temporary file, has the
// extraction pool read it (never the main thread), and indexes the pages as one document; and
// `GET /v1/formats` lists every file type the server reads. Unknown type → 415, unreadable →
// 422, over the size limit → 413; in every case nothing is indexed and the temporary file is
// removed. The original file is kept only with `--keep-files`; then
// `GET /v1/collections/{name}/documents/{id}/file` downloads it.

import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { listFormats } from '../../../../extract/index.ts';
import type { Metadata } from '../../../../engine/index.ts';
import { FolioError } from '../../../errors/index.ts';
import type { ExtractionPool } from '../../../pools/index.ts';
import { CollectionParamsSchema } from '../../../api/index.ts';
import { DocumentParamsSchema, DocumentSummarySchema, WriteQuerySchema } from '../../../api/index.ts';
import { problemResponses } from '../../../api/index.ts';
import { validateFileFields } from '../../../indexing/index.ts';
import { buildFileDocument } from '../../../files/index.ts';
import type { KeptOriginal, KeptOriginals } from '../../../files/index.ts';
import type { Collection, DocumentSummary } from '../../../indexing/index.ts';
import type { ErrorCode } from '../../../errors/index.ts';
import { writeOptions } from '../documents/write-options.ts';
import type { WriteQuery } from '../documents/write-options.ts';
import { receiveUpload } from './receive-upload.ts';
import type { ReceivedUpload } from './receive-upload.ts';
import { sendOriginalFile } from './send-original.ts';

/** Default largest upload (SPEC §5: 100 MiB; `--max-file-size`). */
export const DEFAULT_MAX_FILE_BYTES = 100 * 1024 * 1024;
/** Largest text field (`metadata` JSON included). */
const MAX_FIELD_BYTES = 1024 * 1024;

export interface FileRoutesOptions {
  dataDir: string;
  extraction: ExtractionPool;
  originals: KeptOriginals;
  maxFileBytes?: number;
}

/** Refusals of a file that send a `file.failed` webhook event. */
const FILE_FAILURES: ReadonlySet<ErrorCode> = new Set(['unsupported_file_type', 'extraction_failed', 'file_too_large']);

const FormatListSchema = Type.Object(
  {
    formats: Type.Array(
      Type.Object({ extension: Type.String(), mime: Type.String(), kind: Type.String() }, { additionalProperties: false }),
    ),
  },
  { additionalProperties: false },
);

function parseMetadata(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new FolioError('validation_failed', 'metadata is not valid JSON', [{ path: '/body/metadata', message: 'must be a JSON object' }]);
  }
}

const fileRoutes: FastifyPluginAsyncTypebox<FileRoutesOptions> = async (app, options) => {
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  // Uploads go to <data>/tmp; leftovers of a crash are removed at start.
  const tempDir = join(options.dataDir, 'tmp');
  mkdirSync(tempDir, { recursive: true, mode: 0o700 });
  for (const name of readdirSync(tempDir)) rmSync(join(tempDir, name), { force: true, recursive: true });

  await app.register(multipart, {
    limits: { fileSize: maxFileBytes, files: 1, fields: 3, parts: 4, fieldSize: MAX_FIELD_BYTES, headerPairs: 100 },
  });

  app.get(
    '/v1/formats',
    {
      schema: {
        summary: 'List the file types the server reads',
        tags: ['files'],
        response: { 200: FormatListSchema, ...problemResponses(401, 403, 429, 500) },
      },
    },
    async () => ({ formats: listFormats().map(({ extension, mime, kind }) => ({ extension, mime, kind })) }),
  );

  /** Extracts an upload in the extraction pool and indexes it (keeping the original with --keep-files). */
  async function indexUpload(collection: Collection, upload: ReceivedUpload, query: WriteQuery): Promise<DocumentSummary> {
    let summary: DocumentSummary;
    try {
      const metadata = parseMetadata(upload.fields.metadata);
      validateFileFields({ id: upload.fields.id, title: upload.fields.title, metadata });
      const extraction = await options.extraction.extract(upload.path, upload.fileName);
      const document = buildFileDocument(
        {
          id: upload.fields.id,
          sha256: upload.sha256,
          title: upload.fields.title,
          metadata: metadata as Metadata | undefined,
          bytes: upload.bytes,
          indexedAt: new Date().toISOString(),
        },
        extraction,
      );
      const originals = options.originals.of(collection);
      let kept: KeptOriginal | null = null;
      if (options.originals.enabled) {
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
        [summary] = await collection.upsertIndexed([document], writeOptions(query));
      } catch (error) {
        if (kept !== null) await originals.settle(kept, false);
        throw error;
      }
      if (kept !== null) await originals.settle(kept, true);
      // Without --keep-files, an original kept earlier for this id is outdated now.
      else await originals.discard([document.id]);
    } finally {
      // Gone before the answer leaves, whatever the outcome.
      await rm(upload.path, { force: true });
    }
    return summary;
  }

  app.post(
    '/v1/collections/:name/files',
    {
      schema: {
        summary: 'Upload a file: its text is extracted per page and indexed as one document',
        description: 'multipart/form-data: `file` (required), `id`, `title`, `metadata` (a JSON object as a string).',
        tags: ['files'],
        consumes: ['multipart/form-data'],
        params: CollectionParamsSchema,
        querystring: WriteQuerySchema,
        response: { 201: DocumentSummarySchema, ...problemResponses(400, 401, 403, 404, 413, 415, 422, 429, 500) },
      },
    },
    async (request, reply) => {
      const collection = app.collections.get(request.params.name);
      if (!request.isMultipart()) throw new FolioError('unsupported_media_type', 'send the file as multipart/form-data');
      let fileName: string | null = null;
      try {
        const upload = await receiveUpload(request, tempDir, maxFileBytes);
        fileName = upload.fileName;
        const summary = await indexUpload(collection, upload, request.query);
        await app.webhooks.emit('file.indexed', { collection: collection.name, document: summary, file_name: fileName });
        return await reply.code(201).send(summary);
      } catch (error) {
        if (error instanceof FolioError && FILE_FAILURES.has(error.code)) {
          await app.webhooks.emit('file.failed', { collection: collection.name, file_name: fileName, code: error.code, detail: error.message });
        }
        throw error;
      }
    },
  );

  app.get(
    '/v1/collections/:name/documents/:id/file',
    {
      schema: {
        summary: 'Download the original of an uploaded file (kept only with --keep-files)',
        tags: ['files'],
        params: DocumentParamsSchema,
        response: { 200: Type.Unsafe({ type: 'string', format: 'binary' }), ...problemResponses(400, 401, 403, 404, 429, 500) },
      },
    },
    async (request, reply) => {
      const { name, id } = request.params;
      const collection = app.collections.get(name);
      const document = collection.getDocument(id);
      const original = options.originals.of(collection).find(id);
      // The record must belong to this very version of the document.
      if (original === null || original.record.indexed_at !== document.indexed_at) {
        throw new FolioError('not_found', `document '${id}' has no kept original file${options.originals.enabled ? '' : ' (the server runs without --keep-files)'}`);
      }
      return sendOriginalFile(reply, original);
    },
  );
};

export default fileRoutes;
