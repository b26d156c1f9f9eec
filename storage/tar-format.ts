// The tar archives of snapshots (`POST /v1/snapshots`, `folio snapshot`, `folio restore`):
// POSIX ustar, with a pax extended header for a path over 100 bytes or a size over 8 GiB, the
// way GNU tar and bsdtar read them. Writing yields the archive in chunks, a file's bytes read
// as they are sent; extracting reads a stream and writes regular files and folders under a
// target directory only (no links, no devices, no path that climbs out, files 0600).

import fs from 'node:fs';
import path from 'node:path';

export const TAR_BLOCK = 512;
const USTAR_NAME_BYTES = 100;
/** Largest size the ustar header's 11 octal digits hold. */
const USTAR_MAX_SIZE = 0o77777777777;
const READ_CHUNK = 1 << 20;

/** A regular file to archive: its path in the archive and where its bytes are (or the bytes). */
export type TarEntry = { name: string; mtimeMs?: number } & ({ file: string; size: number } | { bytes: Uint8Array });

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, '0') + '\0';
}

function header(name: string, size: number, type: '0' | 'x', mtimeMs: number): Buffer {
  const block = Buffer.alloc(TAR_BLOCK);
  block.write(name.slice(0, USTAR_NAME_BYTES), 0, USTAR_NAME_BYTES, 'utf8');
  block.write(octal(0o600, 8), 100, 'ascii');
  block.write(octal(0, 8), 108, 'ascii');
  block.write(octal(0, 8), 116, 'ascii');
  block.write(octal(Math.min(size, USTAR_MAX_SIZE), 12), 124, 'ascii');
  block.write(octal(Math.floor(mtimeMs / 1000), 12), 136, 'ascii');
  block.write('        ', 148, 'ascii');
  block.write(type, 156, 'ascii');
  block.write('ustar\u000000', 257, 'ascii');
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(octal(sum, 7) + ' ', 148, 'ascii');
  return block;
}

/** A pax record `"<len> key=value\n"`, its length counting itself. */
function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  let length = Buffer.byteLength(body) + 1;
  while (String(length).length + Buffer.byteLength(body) !== length) length = String(length).length + Buffer.byteLength(body);
  return `${length}${body}`;
}

function padding(size: number): Buffer {
  const rest = size % TAR_BLOCK;
  return Buffer.alloc(rest === 0 ? 0 : TAR_BLOCK - rest);
}

/** The archive of `entries`, chunk by chunk, ending with the two zero blocks. */
export async function* tarChunks(entries: AsyncIterable<TarEntry> | Iterable<TarEntry>): AsyncGenerator<Uint8Array> {
  for await (const entry of entries) {
    const size = 'bytes' in entry ? entry.bytes.length : entry.size;
    const mtimeMs = entry.mtimeMs ?? Date.now();
    if (Buffer.byteLength(entry.name) > USTAR_NAME_BYTES || size > USTAR_MAX_SIZE) {
      const pax = Buffer.from(paxRecord('path', entry.name) + paxRecord('size', String(size)), 'utf8');
      yield header('PaxHeader', pax.length, 'x', mtimeMs);
      yield pax;
      yield padding(pax.length);
    }
    yield header(entry.name, size, '0', mtimeMs);
    if ('bytes' in entry) {
      yield entry.bytes;
    } else {
      const fd = await fs.promises.open(entry.file, 'r');
      try {
        for (let offset = 0; offset < size; ) {
          const chunk = Buffer.allocUnsafe(Math.min(READ_CHUNK, size - offset));
          const { bytesRead } = await fd.read(chunk, 0, chunk.length, offset);
          if (bytesRead === 0) throw new Error(`${entry.file} shrank while it was archived`);
          yield chunk.subarray(0, bytesRead);
          offset += bytesRead;
        }
      } finally {
        await fd.close();
      }
    }
    yield padding(size);
  }
  yield Buffer.alloc(2 * TAR_BLOCK);
}

export class TarFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TarFormatError';
  }
}

/** `name` as a path under `root`, or a TarFormatError for one that would leave it. */
function safeTarget(root: string, name: string): string {
  const normal = path.posix.normalize(name.replace(/\\/g, '/'));
  if (normal.startsWith('/') || normal === '..' || normal.startsWith('../') || normal.includes('\0')) throw new TarFormatError(`unsafe path in archive: ${name}`);
  return path.join(root, normal);
}

function parseOctal(block: Buffer, offset: number, width: number): number {
  const text = block.toString('ascii', offset, offset + width).replace(/\0.*$/s, '').trim();
  if (text === '') return 0;
  if (!/^[0-7]+$/.test(text)) throw new TarFormatError(`bad number in tar header: ${JSON.stringify(text)}`);
  return parseInt(text, 8);
}

function parsePax(bytes: Buffer): Record<string, string> {
  const values: Record<string, string> = {};
  let offset = 0;
  while (offset < bytes.length) {
    const space = bytes.indexOf(0x20, offset);
    const length = Number(bytes.toString('ascii', offset, space));
    if (space < 0 || !Number.isSafeInteger(length) || length <= 0) throw new TarFormatError('bad pax header');
    const record = bytes.toString('utf8', space + 1, offset + length - 1);
    const equals = record.indexOf('=');
    values[record.slice(0, equals)] = record.slice(equals + 1);
    offset += length;
  }
  return values;
}

/**
 * Writes the regular files of the tar read from `source` under `root` (created 0700; files
 * 0600). Returns the files written, relative to `root`.
 */
export async function extractTar(source: AsyncIterable<Uint8Array>, root: string): Promise<string[]> {
  fs.mkdirSync(root, { recursive: true, mode: 0o700 });
  const written: string[] = [];
  let buffer = Buffer.alloc(0);
  let pax: Record<string, string> = {};
  /** The entry whose bytes are being read: where they go and how many remain. */
  let current: { fd: number | null; remaining: number; padding: number; kind: 'file' | 'pax' | 'skip'; bytes: Buffer[] } | null = null;
  let ended = false;
  for await (const chunk of source) {
    buffer = buffer.length === 0 ? Buffer.from(chunk) : Buffer.concat([buffer, chunk]);
    for (;;) {
      if (ended) break;
      if (current !== null) {
        const take = Math.min(current.remaining, buffer.length);
        if (take > 0) {
          const piece = buffer.subarray(0, take);
          if (current.kind === 'file') fs.writeSync(current.fd!, piece);
          else if (current.kind === 'pax') current.bytes.push(Buffer.from(piece));
          buffer = buffer.subarray(take);
          current.remaining -= take;
        }
        if (current.remaining > 0) break;
        if (buffer.length < current.padding) break;
        buffer = buffer.subarray(current.padding);
        if (current.kind === 'file') fs.closeSync(current.fd!);
        if (current.kind === 'pax') pax = parsePax(Buffer.concat(current.bytes));
        current = null;
        continue;
      }
      if (buffer.length < TAR_BLOCK) break;
      const block = buffer.subarray(0, TAR_BLOCK);
      buffer = buffer.subarray(TAR_BLOCK);
      if (block.every((byte) => byte === 0)) {
        ended = true;
        break;
      }
      const type = String.fromCharCode(block[156] || 0x30);
      const name = pax.path ?? block.toString('utf8', 0, USTAR_NAME_BYTES).replace(/\0.*$/s, '');
      const size = pax.size !== undefined ? Number(pax.size) : parseOctal(block, 124, 12);
      const pad = (TAR_BLOCK - (size % TAR_BLOCK)) % TAR_BLOCK;
      if (type === 'x') {
        current = { fd: null, remaining: size, padding: pad, kind: 'pax', bytes: [] };
        continue;
      }
      pax = {};
      if (type === '5') {
        fs.mkdirSync(safeTarget(root, name), { recursive: true, mode: 0o700 });
        continue;
      }
      if (type !== '0') {
        current = { fd: null, remaining: size, padding: pad, kind: 'skip', bytes: [] };
        continue;
      }
      const target = safeTarget(root, name);
      fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
      current = { fd: fs.openSync(target, 'wx', 0o600), remaining: size, padding: pad, kind: 'file', bytes: [] };
      written.push(path.relative(root, target));
    }
  }
  if (current !== null) {
    if (current.fd !== null) fs.closeSync(current.fd);
    throw new TarFormatError('the archive ends in the middle of a file');
  }
  if (!ended) throw new TarFormatError('the archive has no end (it was cut short)');
  return written;
}
