// Sends a kept original file (`--keep-files`) as a download: streamed from disk with its
// length, its type, and `Content-Disposition: attachment` naming the file. Always an
// attachment and never sniffed, so an uploaded HTML or SVG file cannot run in a browser under
// the server's origin.

import { open } from 'node:fs/promises';
import type { FastifyReply } from 'fastify';
import { FolioError } from '../../../errors/index.ts';
import type { OriginalFile } from '../../../files/index.ts';

/** A file name safe inside a quoted header value: printable ASCII without quotes or slashes. */
function asciiFileName(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\/]/g, '_').trim();
  return ascii === '' ? 'file' : ascii;
}

/** `attachment` with an ASCII `filename` and the exact name as RFC 5987 `filename*`. */
export function contentDisposition(fileName: string): string {
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${asciiFileName(fileName)}"; filename*=UTF-8''${encoded}`;
}

export async function sendOriginalFile(reply: FastifyReply, original: OriginalFile): Promise<FastifyReply> {
  const { record } = original;
  // Opened first: a document replaced meanwhile may unlink the file, never cut the download.
  const handle = await open(original.path, 'r').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') throw new FolioError('not_found', `document '${record.id}' has no kept original file`);
    throw error;
  });
  const baseName = (record.file_name ?? '').split(/[\\/]/).pop() ?? '';
  const fileName = baseName !== '' ? baseName : `${record.id}.${record.format}`;
  return reply
    .header('content-type', record.mime)
    .header('content-length', String(record.bytes))
    .header('content-disposition', contentDisposition(fileName))
    .header('x-content-type-options', 'nosniff')
    .header('etag', `"${record.sha256}"`)
    .send(handle.createReadStream());
}
