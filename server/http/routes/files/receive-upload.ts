// Receives a multipart upload (docs/api.md, "Files"): the `file` part is streamed to a temporary file while
// its SHA-256 and size are computed (it is never held in memory), and the small text fields
// (`id`, `title`, `metadata`, `ocr_languages`) are collected. A file over the size limit stops the upload with
// 413 `file_too_large`; anything else malformed is 400 `validation_failed` naming the body: no
// boundary, the wrong one, a body cut off before its closing boundary, a broken part header,
// more parts or files than an upload has. Only a failure of the server itself (the disk) stays
// a 500. On any failure the temporary file is removed before the error leaves here.

import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { FolioError } from '../../../errors/index.ts';
import type { UploadedFile } from '../../../files/index.ts';

/** The text fields an upload may carry besides `file`. */
const FIELD_NAMES = new Set(['id', 'title', 'metadata', 'ocr_languages']);

type ReceivedUpload = UploadedFile;

function isFileTooLarge(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'FST_REQ_FILE_TOO_LARGE';
}

/**
 * Whether `error` says the body is not a well-formed upload: @fastify/multipart's own refusals
 * (`FST_…`: too many parts, files or fields, a bad content type) and the parser's (busboy throws
 * plain errors: "Unexpected end of form", "Boundary not found", "Malformed part header").
 * System errors (with a `syscall`, like a full disk) are the server's, not the client's.
 */
function isMalformedBody(error: unknown): boolean {
  if (!(error instanceof Error) || error instanceof FolioError) return false;
  const { code, syscall } = error as { code?: unknown; syscall?: unknown };
  if (syscall !== undefined) return false;
  if (typeof code === 'string') return code.startsWith('FST_');
  return true;
}

function malformed(error: Error): FolioError {
  const { code } = error as { code?: unknown };
  const limit = code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT';
  const message = limit ? 'an upload has one file part named "file" and at most the fields id, title, metadata and ocr_languages' : `not a well-formed multipart/form-data body: ${error.message}`;
  return new FolioError('validation_failed', `the upload is malformed: ${message}`, [{ path: '/body', message }]);
}

export async function receiveUpload(request: FastifyRequest, tempDir: string, maxFileBytes: number): Promise<ReceivedUpload> {
  const path = join(tempDir, `upload-${randomBytes(12).toString('hex')}`);
  const fields: ReceivedUpload['fields'] = {};
  let received: { fileName: string | null; bytes: number; sha256: string } | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (!FIELD_NAMES.has(part.fieldname)) {
          throw new FolioError('validation_failed', `unknown form field '${part.fieldname}'`, [
            { path: `/body/${part.fieldname}`, message: 'is not an allowed field (file, id, title, metadata, ocr_languages)' },
          ]);
        }
        fields[part.fieldname as keyof ReceivedUpload['fields']] = String(part.value);
        continue;
      }
      if (part.fieldname !== 'file' || received !== null) {
        throw new FolioError('validation_failed', 'send exactly one file, in the form field named "file"', [
          { path: `/body/${part.fieldname}`, message: 'only one file part, named "file", is accepted' },
        ]);
      }
      const hash = createHash('sha256');
      let bytes = 0;
      const measure = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          hash.update(chunk);
          bytes += chunk.length;
          callback(null, chunk);
        },
      });
      await pipeline(part.file, measure, createWriteStream(path, { flags: 'wx', mode: 0o600 }));
      if (part.file.truncated) throw fileTooLarge(maxFileBytes);
      received = { fileName: part.filename === '' ? null : part.filename, bytes, sha256: hash.digest('hex') };
    }
    if (received === null) {
      throw new FolioError('validation_failed', 'the upload has no file', [{ path: '/body/file', message: 'is required' }]);
    }
    return { path, ...received, fields };
  } catch (error) {
    await rm(path, { force: true });
    if (isFileTooLarge(error)) throw fileTooLarge(maxFileBytes);
    if (isMalformedBody(error)) throw malformed(error as Error);
    throw error;
  }
}

function fileTooLarge(maxFileBytes: number): FolioError {
  return new FolioError('file_too_large', `the file is larger than the limit of ${maxFileBytes} bytes`);
}
