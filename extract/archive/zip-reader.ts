// Reads the entries of a ZIP file: the central directory (ZIP64 included) gives each entry's
// name, sizes, CRC and local header offset; an entry's content is stored or raw-deflated
// after its local header. Sizes are the central directory's declared ones; the caller decides
// what to unpack and with what output limit (see archive-family.ts for the zip-bomb rules).

import { inflateRawSync } from 'node:zlib';
import { ExtractionError } from '../extraction.ts';

export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflate; others are not read. */
  method: number;
  flags: number;
  crc32: number;
  compressedSize: number;
  uncompressedSize: number;
  localOffset: number;
}

const EOCD_SIGNATURE = 0x06054b50;
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
const ZIP64_EOCD_SIGNATURE = 0x06064b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const MAX_ENTRIES = 100_000;

/** The entry is stored or deflated, the two methods read here. */
export function isReadableMethod(entry: ZipEntry): boolean {
  return entry.method === 0 || entry.method === 8;
}

export function isDirectory(entry: ZipEntry): boolean {
  return entry.name.endsWith('/') || entry.name.endsWith('\\');
}

export function isEncrypted(entry: ZipEntry): boolean {
  return (entry.flags & 0x01) !== 0;
}

function damaged(why: string): ExtractionError {
  return new ExtractionError('extraction_failed', `the zip file is damaged: ${why}`);
}

function findEndOfCentralDirectory(bytes: Uint8Array, view: DataView): number {
  const lowest = Math.max(0, bytes.length - 22 - 0xffff);
  for (let at = bytes.length - 22; at >= lowest; at--) {
    if (bytes[at] === 0x50 && view.getUint32(at, true) === EOCD_SIGNATURE) return at;
  }
  return -1;
}

/** An entry name: UTF-8 when flagged (or when it decodes as UTF-8), else Latin-1. */
export function decodeName(raw: Uint8Array, flags: number): string {
  // Bit 11 marks UTF-8 names; without it, try UTF-8 anyway (most tools write it), else Latin-1.
  if ((flags & 0x800) !== 0) return new TextDecoder('utf-8').decode(raw);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    return new TextDecoder('latin1').decode(raw);
  }
}

/** Applies a ZIP64 extra field (id 1) to the sizes and offset the central record marked 0xffffffff. */
function applyZip64Extra(entry: ZipEntry, view: DataView, start: number, end: number): void {
  let at = start;
  while (at + 4 <= end) {
    const id = view.getUint16(at, true);
    const size = view.getUint16(at + 2, true);
    if (id === 0x0001) {
      let field = at + 4;
      const next = (): number | null => {
        if (field + 8 > at + 4 + size || field + 8 > end) return null;
        const value = Number(view.getBigUint64(field, true));
        field += 8;
        return value;
      };
      if (entry.uncompressedSize === 0xffffffff) entry.uncompressedSize = next() ?? entry.uncompressedSize;
      if (entry.compressedSize === 0xffffffff) entry.compressedSize = next() ?? entry.compressedSize;
      if (entry.localOffset === 0xffffffff) entry.localOffset = next() ?? entry.localOffset;
      return;
    }
    at += 4 + size;
  }
}

/** Lists a ZIP file's entries from its central directory; throws extraction_failed when unreadable. */
export function readZipEntries(bytes: Uint8Array): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const eocd = findEndOfCentralDirectory(bytes, view);
  if (eocd < 0) throw damaged('its central directory is missing');
  let count = view.getUint16(eocd + 10, true);
  let offset = view.getUint32(eocd + 16, true);
  if ((count === 0xffff || offset === 0xffffffff) && eocd >= 20 && view.getUint32(eocd - 20, true) === ZIP64_LOCATOR_SIGNATURE) {
    const zip64 = Number(view.getBigUint64(eocd - 20 + 8, true));
    if (zip64 + 56 <= bytes.length && view.getUint32(zip64, true) === ZIP64_EOCD_SIGNATURE) {
      count = Number(view.getBigUint64(zip64 + 32, true));
      offset = Number(view.getBigUint64(zip64 + 48, true));
    }
  }
  if (count > MAX_ENTRIES) throw damaged(`it claims ${count} entries`);
  const entries: ZipEntry[] = [];
  let at = offset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== CENTRAL_SIGNATURE) {
      throw damaged(`central directory record ${i + 1} of ${count} is missing`);
    }
    const flags = view.getUint16(at + 8, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const extraStart = at + 46 + nameLength;
    if (extraStart + extraLength > bytes.length) throw damaged('a central directory record is cut short');
    const entry: ZipEntry = {
      name: decodeName(bytes.subarray(at + 46, extraStart), flags),
      method: view.getUint16(at + 10, true),
      flags,
      crc32: view.getUint32(at + 16, true),
      compressedSize: view.getUint32(at + 20, true),
      uncompressedSize: view.getUint32(at + 24, true),
      localOffset: view.getUint32(at + 42, true),
    };
    applyZip64Extra(entry, view, extraStart, extraStart + extraLength);
    entries.push(entry);
    at = extraStart + extraLength + commentLength;
  }
  return entries;
}

/** The entry's still-compressed bytes, located through its local header. */
function compressedData(bytes: Uint8Array, entry: ZipEntry): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = entry.localOffset;
  if (at + 30 > bytes.length || view.getUint32(at, true) !== LOCAL_SIGNATURE) {
    throw damaged(`the local header of ${entry.name} is missing`);
  }
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  const end = start + entry.compressedSize;
  if (end > bytes.length) throw damaged(`${entry.name} is cut short`);
  return bytes.subarray(start, end);
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = (c & 1) !== 0 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** The CRC-32 (ZIP, gzip) of some bytes. */
export function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) crc = CRC_TABLE[(crc ^ bytes[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** Thrown when an entry inflates to more than the output limit it was given. */
export class ZipOutputLimitError extends Error {
  constructor(name: string) {
    super(`${name} unpacks to more than allowed`);
    this.name = 'ZipOutputLimitError';
  }
}

/**
 * An entry's content. Never produces more than `maxOutput` bytes (ZipOutputLimitError);
 * throws extraction_failed when the data is damaged or does not match the declared size/CRC.
 */
export function readZipEntry(bytes: Uint8Array, entry: ZipEntry, maxOutput: number): Uint8Array {
  const data = compressedData(bytes, entry);
  let content: Uint8Array;
  if (entry.method === 0) {
    if (data.length > maxOutput) throw new ZipOutputLimitError(entry.name);
    content = data;
  } else if (entry.method === 8) {
    try {
      content = inflateRawSync(data, { maxOutputLength: Math.max(1, maxOutput) });
    } catch (error) {
      if (error instanceof RangeError || (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
        throw new ZipOutputLimitError(entry.name);
      }
      throw damaged(`${entry.name} cannot be inflated (${error instanceof Error ? error.message : String(error)})`);
    }
    if (content.length > maxOutput) throw new ZipOutputLimitError(entry.name);
  } else {
    throw new ExtractionError('extraction_failed', `${entry.name} uses compression method ${entry.method}`);
  }
  if (content.length !== entry.uncompressedSize) throw damaged(`${entry.name} does not have its declared size`);
  if (crc32(content) !== entry.crc32) throw damaged(`${entry.name} fails its CRC check`);
  return content;
}
