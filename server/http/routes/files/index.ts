// File routes (docs/api.md, "Files"): `POST /v1/collections/{name}/files` takes a multipart upload (`file`,
// optional `id`, `title`, `metadata` as a JSON string, `ocr_languages`), streams it to a
// temporary file and hands it to the upload service (server/files/file-uploads.ts), which
// extracts and indexes it; `GET /v1/formats` lists every file type the server reads and the OCR
// languages it has. The original file is kept only with
// `--keep-files`; then `GET /v1/collections/{name}/documents/{id}/file` downloads it.

import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { visibleFilter } from '../../../auth/index.ts';
import { Type } from 'typebox';
import { listFormats } from '../../../../extract/index.ts';
import { FolioError } from '../../../errors/index.ts';
import {
  CollectionParamsSchema,
  DEFAULT_PAGE_IMAGE_WIDTH,
  DocumentParamsSchema,
  DocumentSummarySchema,
  PageImageParamsSchema,
  PageImageQuerySchema,
  UploadFileBodySchema,
  WriteQuerySchema,
  problemResponses,
} from '../../../api/index.ts';
import { writeOptions } from '../../validation/write-options.ts';
import { receiveUpload } from './receive-upload.ts';
import { sendOriginalFile } from './send-original.ts';

/** Largest text field (`metadata` JSON included). */
const MAX_FIELD_BYTES = 1024 * 1024;

const FormatListSchema = Type.Object(
  {
    formats: Type.Array(
      Type.Object({ extension: Type.String(), mime: Type.String(), kind: Type.String() }, { additionalProperties: false }),
    ),
    ocr_languages: Type.Array(Type.String(), {
      description: 'The languages images and scanned pages can be read in (Tesseract codes, sorted): `eng` always; others once installed with `folio ocr add <code>`.',
    }),
  },
  { additionalProperties: false },
);

const fileRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { uploads } = app;
  await app.register(multipart, {
    limits: { fileSize: uploads.maxFileBytes, files: 1, fields: 4, parts: 5, fieldSize: MAX_FIELD_BYTES, headerPairs: 100 },
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
    async () => ({ formats: listFormats().map(({ extension, mime, kind }) => ({ extension, mime, kind })), ocr_languages: app.ocrLanguages.list() }),
  );

  app.post(
    '/v1/collections/:name/files',
    {
      // The parts are read as a stream (no body validation); OpenAPI still gets their schema.
      config: { swaggerTransform: ({ schema, url }) => ({ schema: { ...schema, body: UploadFileBodySchema }, url }) },
      schema: {
        summary: 'Upload a file: its text is extracted per page and indexed as one document',
        description: "multipart/form-data: `file` (required), `id`, `title`, `metadata` (a JSON object as a string), `ocr_languages` (`deu+eng`).",
        tags: ['files'],
        consumes: ['multipart/form-data'],
        params: CollectionParamsSchema,
        querystring: WriteQuerySchema,
        response: { 201: DocumentSummarySchema, ...problemResponses(400, 401, 403, 404, 413, 415, 422, 429, 500, 503) },
      },
    },
    async (request, reply) => {
      const collection = app.registry.get(request.params.name);
      if (!request.isMultipart()) throw new FolioError('unsupported_media_type', 'send the file as multipart/form-data');
      const receive = () => receiveUpload(request, uploads.tempDir, uploads.maxFileBytes);
      return reply.code(201).send(await uploads.upload(collection, receive, writeOptions(request.query)));
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
      const collection = app.registry.get(request.params.name);
      // A key with a filter downloads only the originals of documents it sees.
      const visible = visibleFilter(request.principal);
      if (visible !== null) app.documents.get(request.params.name, request.params.id, visible);
      return sendOriginalFile(reply, uploads.original(collection, request.params.id));
    },
  );

  app.get(
    '/v1/collections/:name/documents/:id/pages/:page/image',
    {
      schema: {
        summary: 'A page of the kept original as a picture (PDF pages and images; --keep-files)',
        description:
          'PNG or WebP, `width` pixels wide (16–2048, default 800), drawn from the original kept with `--keep-files` and cached. '
          + '404 `not_found` without a kept original or for a page the file does not have; 409 `preview_unavailable` for a type without page pictures (Word, text…).',
        tags: ['files'],
        params: PageImageParamsSchema,
        querystring: PageImageQuerySchema,
        response: { 200: Type.Unsafe({ type: 'string', format: 'binary' }), 304: Type.Null(), ...problemResponses(400, 401, 403, 404, 409, 429, 500, 503) },
      },
    },
    async (request, reply) => {
      const { name, id, page } = request.params;
      const collection = app.registry.get(name);
      // A key with a filter sees only the pages of documents it sees.
      const visible = visibleFilter(request.principal);
      if (visible !== null) app.documents.get(name, id, visible);
      const picture = await app.previews.image(collection, id, page, request.query.width ?? DEFAULT_PAGE_IMAGE_WIDTH, request.query.format ?? 'webp');
      reply.header('etag', picture.etag).header('cache-control', 'private, no-cache').header('x-content-type-options', 'nosniff');
      if (request.headers['if-none-match'] === picture.etag) return reply.code(304).send(null);
      return reply.header('content-type', picture.contentType).send(Buffer.from(picture.bytes.buffer, picture.bytes.byteOffset, picture.bytes.byteLength));
    },
  );
};

export default fileRoutes;
