// Builds the multipart/form-data body of a file upload (`POST …/files`) without holding the file
// in memory: a path becomes a file-backed Blob (fs.openAsBlob, read while it is sent), a Blob is
// sent as it is, bytes are wrapped in a Blob, and a Node stream is sent chunk by chunk as it is
// read. Blob bodies can be sent again, so a 429 is retried; a stream is read once, so it is not.

import { randomBytes } from 'node:crypto';
import { openAsBlob } from 'node:fs';
import { basename } from 'node:path';
import type { DocumentInput } from './api-types.ts';
import type { BodySource } from './transport.ts';

/** A file to upload: a path on disk, its bytes, a Blob (or File), or a readable Node stream. */
export type UploadSource = string | Uint8Array | NodeJS.ReadableStream | Blob;

export interface UploadFields {
  /** Document id; default: the hex SHA-256 of the file's bytes (chosen by the server). */
  id?: string;
  /** Default: the file's own title (a Markdown heading, an HTML `<title>`…). */
  title?: string;
  metadata?: DocumentInput['metadata'];
  /** The languages its images and scanned pages are read in (`['deu', 'eng']`); default: the collection's `ocr_languages`. */
  ocrLanguages?: readonly string[];
  /**
   * The name the server sees, which helps it tell the type (`notes.md`). Default: the path's
   * base name, a File's or fs.ReadStream's name, else `file`.
   */
  fileName?: string;
}

const CRLF = '\r\n';
const DEFAULT_FILE_NAME = 'file';

/** A quoted header parameter value as browsers write it: `"`, CR and LF percent-encoded. */
function quoted(value: string): string {
  return `"${value.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}"`;
}

function defaultFileName(file: UploadSource): string {
  if (typeof file === 'string') return basename(file);
  const named = file as { name?: unknown; path?: unknown };
  if (file instanceof Blob && typeof named.name === 'string' && named.name !== '') return named.name;
  if (typeof named.path === 'string') return basename(named.path);
  return DEFAULT_FILE_NAME;
}

/** The parts before and after the file's bytes. */
function envelope(boundary: string, fields: UploadFields, fileName: string, fileType: string): { head: string; tail: string } {
  const textFields: [string, string | undefined][] = [
    ['id', fields.id],
    ['title', fields.title],
    ['metadata', fields.metadata === undefined ? undefined : JSON.stringify(fields.metadata)],
    ['ocr_languages', fields.ocrLanguages === undefined ? undefined : fields.ocrLanguages.join('+')],
  ];
  let head = '';
  for (const [name, value] of textFields) {
    if (value === undefined) continue;
    head += `--${boundary}${CRLF}Content-Disposition: form-data; name="${name}"${CRLF}${CRLF}${value}${CRLF}`;
  }
  head += `--${boundary}${CRLF}Content-Disposition: form-data; name="file"; filename=${quoted(fileName)}${CRLF}`;
  head += `Content-Type: ${fileType}${CRLF}${CRLF}`;
  return { head, tail: `${CRLF}--${boundary}--${CRLF}` };
}

async function* streamed(head: string, file: NodeJS.ReadableStream, tail: string): AsyncIterable<Uint8Array> {
  const encoder = new TextEncoder();
  yield encoder.encode(head);
  for await (const chunk of file) yield typeof chunk === 'string' ? encoder.encode(chunk) : (chunk as Uint8Array);
  yield encoder.encode(tail);
}

/** The multipart body of an upload of `file` with `fields`. */
export async function uploadBody(file: UploadSource, fields: UploadFields): Promise<BodySource> {
  const boundary = `----FolioUpload${randomBytes(16).toString('hex')}`;
  const contentType = `multipart/form-data; boundary=${boundary}`;
  const fileName = fields.fileName ?? defaultFileName(file);
  let blob: Blob | null = null;
  if (typeof file === 'string') blob = await openAsBlob(file);
  else if (file instanceof Uint8Array) blob = new Blob([file]);
  else if (file instanceof Blob) blob = file;
  const fileType = blob !== null && blob.type !== '' ? blob.type : 'application/octet-stream';
  const { head, tail } = envelope(boundary, fields, fileName, fileType);
  if (blob !== null) {
    // Blob parts are referenced, not copied: a file-backed Blob is still read only while sending.
    const body = new Blob([head, blob, tail]);
    return { contentType, replayable: true, make: () => body };
  }
  const stream = file as NodeJS.ReadableStream;
  return { contentType, replayable: false, make: () => streamed(head, stream, tail) };
}
