// The structure of a ZIP file held in memory, without unpacking anything: its entries as the
// central directory lists them (ZIP64 included), the same read from the local headers for a
// file whose end is missing, and where an entry's still-compressed data lies. Sizes are the
// central directory's, so entries whose sizes follow their data (data descriptors) read fine.
// Damage throws ExtractionError('extraction_failed'); too many entries or too long a name
// throws ZipLimitError (zip-limits.ts). Unpacking is zip-archive.ts's.

import { ExtractionError } from '../extraction.ts';
import { crc32 } from './crc32.ts';
import { MAX_ZIP_ENTRIES, MAX_ZIP_NAME_BYTES, ZipLimitError } from './zip-limits.ts';

export interface ZipEntry {
  /** The path inside the archive, `\` written as `/`; a directory's ends with `/`. */
  name: string;
  /** Compression method: 0 stored, 8 deflate; others are not read. */
  method: number;
  /** General purpose flags (bit 0 encrypted, bit 3 data descriptor, bit 11 UTF-8 name). */
  flags: number;
  crc32: number;
  compressedSize: number;
  uncompressedSize: number;
  /** Where the entry's local header starts. */
  localOffset: number;
}

/** The signatures that open each record (PKWARE APPNOTE 4.3). */
const SIGNATURE = { endOfCentralDirectory: 0x06054b50, zip64Locator: 0x07064b50, zip64End: 0x06064b50, central: 0x02014b50, local: 0x04034b50 } as const;
/** The fixed part of each record, in bytes. */
const SIZE = { endOfCentralDirectory: 22, zip64Locator: 20, zip64End: 56, central: 46, local: 30 } as const;
/** Longest archive comment: where the end record can start, counted back from the end. */
const MAX_COMMENT = 0xffff;
/** Extra field ids read: the ZIP64 sizes and offsets, and Info-ZIP's Unicode path. */
const EXTRA = { zip64: 0x0001, unicodePath: 0x7075 } as const;
/** General purpose flags read. */
const FLAG = { encrypted: 0x0001, dataDescriptor: 0x0008, utf8: 0x0800 } as const;
/** A 32-bit field with this value defers to the ZIP64 extra field. */
const ZIP64_MARK = 0xffffffff;

export function isDirectory(entry: ZipEntry): boolean {
  return entry.name.endsWith('/');
}

export function isEncrypted(entry: ZipEntry): boolean {
  return (entry.flags & FLAG.encrypted) !== 0;
}

/** The entry is stored or deflated, the two methods read here. */
export function isReadableMethod(entry: ZipEntry): boolean {
  return entry.method === 0 || entry.method === 8;
}

export function damaged(why: string): ExtractionError {
  return new ExtractionError('extraction_failed', `the zip file is damaged: ${why}`);
}

function viewOf(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The extra field with this id within [start, end), as [dataStart, dataEnd], or null. */
function findExtra(view: DataView, start: number, end: number, id: number): [number, number] | null {
  for (let at = start; at + 4 <= end; ) {
    const size = view.getUint16(at + 2, true);
    if (view.getUint16(at, true) === id) return at + 4 + size <= end ? [at + 4, at + 4 + size] : null;
    at += 4 + size;
  }
  return null;
}

/** Applies a ZIP64 extra field to the sizes and offset a header marked 0xffffffff (in the spec's order). */
function applyZip64Extra(entry: ZipEntry, view: DataView, start: number, end: number): void {
  const field = findExtra(view, start, end, EXTRA.zip64);
  if (field === null) return;
  let at = field[0];
  const next = (current: number): number => {
    if (current !== ZIP64_MARK || at + 8 > field[1]) return current;
    const value = Number(view.getBigUint64(at, true));
    at += 8;
    return value;
  };
  entry.uncompressedSize = next(entry.uncompressedSize);
  entry.compressedSize = next(entry.compressedSize);
  entry.localOffset = next(entry.localOffset);
}

/**
 * An entry name: UTF-8 when flagged, else the Info-ZIP Unicode path (0x7075) when it matches
 * the name, else UTF-8 when the bytes decode as such (most tools write it), else Latin-1.
 * Backslashes (written by some Windows tools) become slashes.
 */
function entryName(bytes: Uint8Array, view: DataView, nameStart: number, extraStart: number, extraEnd: number, flags: number): string {
  const raw = bytes.subarray(nameStart, extraStart);
  if (raw.length > MAX_ZIP_NAME_BYTES) {
    throw new ZipLimitError('name', `the zip file has an entry name longer than ${MAX_ZIP_NAME_BYTES} bytes`);
  }
  let name: string | null = null;
  if ((flags & FLAG.utf8) !== 0) {
    name = new TextDecoder('utf-8').decode(raw);
  } else {
    const unicode = findExtra(view, extraStart, extraEnd, EXTRA.unicodePath);
    if (unicode !== null && unicode[1] - unicode[0] >= 5 && bytes[unicode[0]] === 1 && view.getUint32(unicode[0] + 1, true) === crc32(raw)) {
      name = new TextDecoder('utf-8').decode(bytes.subarray(unicode[0] + 5, unicode[1]));
    }
  }
  if (name === null) {
    try {
      name = new TextDecoder('utf-8', { fatal: true }).decode(raw);
    } catch {
      name = new TextDecoder('latin1').decode(raw);
    }
  }
  return name.replaceAll('\\', '/');
}

function findEndOfCentralDirectory(bytes: Uint8Array, view: DataView): number {
  const lowest = Math.max(0, bytes.length - SIZE.endOfCentralDirectory - MAX_COMMENT);
  for (let at = bytes.length - SIZE.endOfCentralDirectory; at >= lowest; at--) {
    if (bytes[at] === 0x50 && view.getUint32(at, true) === SIGNATURE.endOfCentralDirectory) return at;
  }
  return -1;
}

/** The entry count and central directory offset, from the end record (or its ZIP64 one). */
function centralDirectoryPosition(bytes: Uint8Array, view: DataView): { count: number; offset: number } {
  const eocd = findEndOfCentralDirectory(bytes, view);
  if (eocd < 0) throw damaged('its central directory is missing');
  let count = view.getUint16(eocd + 10, true);
  let offset = view.getUint32(eocd + 16, true);
  const locator = eocd - SIZE.zip64Locator;
  if ((count === 0xffff || offset === ZIP64_MARK) && locator >= 0 && view.getUint32(locator, true) === SIGNATURE.zip64Locator) {
    const zip64 = Number(view.getBigUint64(locator + 8, true));
    if (zip64 + SIZE.zip64End > bytes.length || view.getUint32(zip64, true) !== SIGNATURE.zip64End) {
      throw damaged('its ZIP64 end record is missing');
    }
    count = Number(view.getBigUint64(zip64 + 32, true));
    offset = Number(view.getBigUint64(zip64 + 48, true));
  }
  if (count > MAX_ZIP_ENTRIES) {
    throw new ZipLimitError('entries', `the zip file lists ${count} entries, more than the ${MAX_ZIP_ENTRIES} allowed`);
  }
  return { count, offset };
}

/** A ZIP file's entries (directories included) from its central directory, in its order. */
export function readZipEntries(bytes: Uint8Array): ZipEntry[] {
  const view = viewOf(bytes);
  const { count, offset } = centralDirectoryPosition(bytes, view);
  const entries: ZipEntry[] = [];
  let at = offset;
  for (let i = 0; i < count; i++) {
    if (at + SIZE.central > bytes.length || view.getUint32(at, true) !== SIGNATURE.central) {
      throw damaged(`central directory record ${i + 1} of ${count} is missing`);
    }
    const flags = view.getUint16(at + 8, true);
    const extraStart = at + SIZE.central + view.getUint16(at + 28, true);
    const extraEnd = extraStart + view.getUint16(at + 30, true);
    if (extraEnd > bytes.length) throw damaged('a central directory record is cut short');
    const entry: ZipEntry = {
      name: entryName(bytes, view, at + SIZE.central, extraStart, extraEnd, flags),
      method: view.getUint16(at + 10, true),
      flags,
      crc32: view.getUint32(at + 16, true),
      compressedSize: view.getUint32(at + 20, true),
      uncompressedSize: view.getUint32(at + 24, true),
      localOffset: view.getUint32(at + 42, true),
    };
    applyZip64Extra(entry, view, extraStart, extraEnd);
    entries.push(entry);
    at = extraEnd + view.getUint16(at + 32, true);
  }
  return entries;
}

/** Where the data after the local header at `at` starts, or null when there is no such header. */
function localDataStart(bytes: Uint8Array, view: DataView, at: number): number | null {
  if (at < 0 || at + SIZE.local > bytes.length || view.getUint32(at, true) !== SIGNATURE.local) return null;
  const dataStart = at + SIZE.local + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  return dataStart <= bytes.length ? dataStart : null;
}

/** The entry the local header at `at` describes, with where its data starts; null if absent. */
function readLocalHeader(bytes: Uint8Array, view: DataView, at: number): { entry: ZipEntry; dataStart: number } | null {
  const dataStart = localDataStart(bytes, view, at);
  if (dataStart === null) return null;
  const flags = view.getUint16(at + 6, true);
  const extraStart = at + SIZE.local + view.getUint16(at + 26, true);
  const entry: ZipEntry = {
    name: entryName(bytes, view, at + SIZE.local, extraStart, dataStart, flags),
    method: view.getUint16(at + 8, true),
    flags,
    crc32: view.getUint32(at + 14, true),
    compressedSize: view.getUint32(at + 18, true),
    uncompressedSize: view.getUint32(at + 22, true),
    localOffset: at,
  };
  applyZip64Extra(entry, view, extraStart, dataStart);
  return { entry, dataStart };
}

/**
 * For a file whose end (and so its central directory) is missing: the entries found by
 * following local headers from the start, as far as their sizes are known (an entry whose
 * sizes follow its data ends the walk). Never throws; stops at the first thing it cannot read.
 */
export function walkLocalHeaders(bytes: Uint8Array): ZipEntry[] {
  const view = viewOf(bytes);
  const entries: ZipEntry[] = [];
  let at = 0;
  while (entries.length < MAX_ZIP_ENTRIES) {
    let header: ReturnType<typeof readLocalHeader>;
    try {
      header = readLocalHeader(bytes, view, at);
    } catch {
      break; // a name over the limit
    }
    if (header === null) break;
    entries.push(header.entry);
    if ((header.entry.flags & FLAG.dataDescriptor) !== 0) break;
    at = header.dataStart + header.entry.compressedSize;
  }
  return entries;
}

/** An entry's still-compressed bytes, located through its local header. */
export function compressedBytes(bytes: Uint8Array, entry: ZipEntry): Uint8Array {
  const start = localDataStart(bytes, viewOf(bytes), entry.localOffset);
  if (start === null) throw damaged(`the local header of ${entry.name} is missing`);
  const end = start + entry.compressedSize;
  if (end > bytes.length) throw damaged(`${entry.name} is cut short`);
  return bytes.subarray(start, end);
}
