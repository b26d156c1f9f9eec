// The container every immutable index file uses: a versioned header, named sections at 8-byte
// aligned offsets (so roaring frozen views and memory maps can point into them), and a footer
// with the section table and a CRC-32 over everything before it. A damaged or foreign file is
// reported as a CorruptFileError naming its path; it is never served.
//
// Layout (little-endian):
//   header   "FOLIOSEG" | u32 format version | u32 reserved (0)
//   sections each starts at a multiple of SECTION_ALIGNMENT, zero padding between
//   table    u32 count | per section: u8 name length, UTF-8 name, u64 offset, u64 length
//   trailer  u32 crc32(all bytes before it) | u32 table length | "FOLIOEND"

import fs from 'node:fs';
import { crc32 } from './crc32.ts';
import { writeFileAtomicWith } from './atomic-file.ts';
import { CorruptFileError } from './errors.ts';
import { mapFileReadOnly, releaseResidentPages } from './mapped-file.ts';
import type { FilePiece } from './spill-file.ts';

/** Version of the container layout written by this code; newer files are refused. */
export const SEGMENT_FORMAT_VERSION = 1;
/** Every section starts at a multiple of this many bytes from the start of the file. */
export const SECTION_ALIGNMENT = 8;

const START_MAGIC = 'FOLIOSEG';
const END_MAGIC = 'FOLIOEND';
const MAGIC_BYTES = 8;
const HEADER_BYTES = MAGIC_BYTES + 4 + 4;
const TRAILER_BYTES = 4 + 4 + MAGIC_BYTES;
const MAX_SECTION_NAME_BYTES = 255;
const SECTION_ENTRY_FIXED_BYTES = 1 + 8 + 8;

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });
const START_MAGIC_BYTES = encoder.encode(START_MAGIC);
const END_MAGIC_BYTES = encoder.encode(END_MAGIC);

/**
 * A section: its name and its bytes, whole or as consecutive pieces written one after the other,
 * never joined in memory; a piece may be the start of a file (a merge's spilled postings), copied
 * in chunks.
 */
export type SegmentSection = readonly [name: string, bytes: Uint8Array | readonly (Uint8Array | FilePiece)[]];

/** An opened container file. Section views share memory with the file's buffer. */
export interface SegmentFile {
  readonly path: string;
  readonly byteLength: number;
  /** The section's bytes (zero-copy view); throws CorruptFileError if there is none. */
  section(name: string): Uint8Array;
  has(name: string): boolean;
  /** Section names in file order. */
  names(): string[];
  /**
   * A mapped file: drops its pages from the process's resident set (see releaseResidentPages);
   * its views stay valid. A file read into memory: nothing.
   */
  releaseResidentPages(): void;
}

function padding(offset: number): number {
  const rest = offset % SECTION_ALIGNMENT;
  return rest === 0 ? 0 : SECTION_ALIGNMENT - rest;
}

function encodeTable(entries: ReadonlyArray<{ name: Uint8Array; offset: number; length: number }>): Uint8Array {
  let size = 4;
  for (const entry of entries) size += SECTION_ENTRY_FIXED_BYTES + entry.name.length;
  const bytes = new Uint8Array(size);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, entries.length, true);
  let pos = 4;
  for (const entry of entries) {
    bytes[pos++] = entry.name.length;
    bytes.set(entry.name, pos);
    pos += entry.name.length;
    view.setBigUint64(pos, BigInt(entry.offset), true);
    view.setBigUint64(pos + 8, BigInt(entry.length), true);
    pos += 16;
  }
  return bytes;
}

/** Writes a container file atomically and durably; returns its length in bytes. */
export function writeSegmentFile(path: string, sections: ReadonlyArray<SegmentSection>): number {
  const seen = new Set<string>();
  const names: Uint8Array[] = [];
  for (const [name] of sections) {
    const encoded = encoder.encode(name);
    if (encoded.length === 0 || encoded.length > MAX_SECTION_NAME_BYTES) {
      throw new RangeError(`section name must be 1-${MAX_SECTION_NAME_BYTES} bytes: '${name}'`);
    }
    if (seen.has(name)) throw new RangeError(`duplicate section name '${name}'`);
    seen.add(name);
    names.push(encoded);
  }

  let total = 0;
  writeFileAtomicWith(path, (fd) => {
    let checksum = 0;
    let offset = 0;
    const put = (bytes: Uint8Array): void => {
      let written = 0;
      while (written < bytes.length) {
        written += fs.writeSync(fd, bytes, written, bytes.length - written);
      }
      checksum = crc32(bytes, checksum);
      offset += bytes.length;
    };

    const header = new Uint8Array(HEADER_BYTES);
    header.set(START_MAGIC_BYTES, 0);
    new DataView(header.buffer).setUint32(MAGIC_BYTES, SEGMENT_FORMAT_VERSION, true);
    put(header);

    const entries: { name: Uint8Array; offset: number; length: number }[] = [];
    sections.forEach(([, bytes], i) => {
      const pad = padding(offset);
      if (pad > 0) put(new Uint8Array(pad));
      const start = offset;
      if (bytes instanceof Uint8Array) put(bytes);
      else for (const piece of bytes) if (piece instanceof Uint8Array) put(piece);
      else copyFilePiece(piece, put);
      entries.push({ name: names[i], offset: start, length: offset - start });
    });

    const table = encodeTable(entries);
    put(table);
    const trailer = new Uint8Array(TRAILER_BYTES);
    const trailerView = new DataView(trailer.buffer);
    trailerView.setUint32(0, checksum, true);
    trailerView.setUint32(4, table.length, true);
    trailer.set(END_MAGIC_BYTES, 8);
    let written = 0;
    while (written < trailer.length) written += fs.writeSync(fd, trailer, written, trailer.length - written);
    total = offset + trailer.length;
  });
  return total;
}

const COPY_CHUNK_BYTES = 1024 * 1024;

/** Hands the bytes of a file piece to `put`, a chunk at a time. */
function copyFilePiece(piece: FilePiece, put: (bytes: Uint8Array) => void): void {
  const fd = fs.openSync(piece.path, 'r');
  try {
    const chunk = new Uint8Array(Math.min(COPY_CHUNK_BYTES, Math.max(1, piece.length)));
    for (let position = 0; position < piece.length; ) {
      const read = fs.readSync(fd, chunk, 0, Math.min(chunk.length, piece.length - position), position);
      if (read === 0) throw new Error(`${piece.path} is shorter than the ${piece.length} bytes spilled to it`);
      put(chunk.subarray(0, read));
      position += read;
    }
  } finally {
    fs.closeSync(fd);
  }
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Reads the whole file (a memory map can replace the buffer later) and returns a view. */
function loadAligned(path: string): Uint8Array {
  const buffer = fs.readFileSync(path);
  if (buffer.byteOffset % SECTION_ALIGNMENT === 0) return buffer;
  const copy = new Uint8Array(buffer.length);
  copy.set(buffer);
  return copy;
}

/** How a container's checksum is computed over its first `end` bytes, or null not to check it. */
export type ChecksumSource = ((end: number) => number) | null;

/** Parses and verifies a container held in memory; `path` is only used in errors. */
export function parseSegmentFile(
  path: string,
  data: Uint8Array,
  checksum: ChecksumSource = (end) => crc32(data.subarray(0, end)),
  release: () => void = () => {},
): SegmentFile {
  const fail = (reason: string): never => {
    throw new CorruptFileError(path, reason);
  };
  if (data.length < HEADER_BYTES + TRAILER_BYTES) fail(`too short (${data.length} bytes)`);
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (!bytesEqual(data.subarray(0, MAGIC_BYTES), START_MAGIC_BYTES)) fail('not a Folio segment file (bad magic)');
  const version = view.getUint32(MAGIC_BYTES, true);
  if (version > SEGMENT_FORMAT_VERSION) {
    fail(`unsupported version ${version} (this build reads up to ${SEGMENT_FORMAT_VERSION})`);
  }
  if (version === 0) fail('invalid format version 0');
  const trailerStart = data.length - TRAILER_BYTES;
  if (!bytesEqual(data.subarray(trailerStart + 8), END_MAGIC_BYTES)) fail('truncated or damaged footer (bad end magic)');
  const storedChecksum = view.getUint32(trailerStart, true);
  const tableLength = view.getUint32(trailerStart + 4, true);
  const tableStart = trailerStart - tableLength;
  if (tableLength < 4 || tableStart < HEADER_BYTES) fail(`footer length ${tableLength} out of bounds`);
  const actualChecksum = checksum === null ? storedChecksum : checksum(trailerStart);
  if (actualChecksum !== storedChecksum) {
    fail(`checksum mismatch (stored ${storedChecksum.toString(16)}, computed ${actualChecksum.toString(16)})`);
  }

  const sections = new Map<string, Uint8Array>();
  const count = view.getUint32(tableStart, true);
  let pos = tableStart + 4;
  for (let i = 0; i < count; i++) {
    if (pos + 1 > trailerStart) fail('section table overruns the footer');
    const nameLength = data[pos++];
    if (pos + nameLength + 16 > trailerStart) fail('section table overruns the footer');
    let name = '';
    try {
      name = decoder.decode(data.subarray(pos, pos + nameLength));
    } catch {
      fail('section name is not valid UTF-8');
    }
    pos += nameLength;
    const offset = Number(view.getBigUint64(pos, true));
    const length = Number(view.getBigUint64(pos + 8, true));
    pos += 16;
    if (offset < HEADER_BYTES || offset % SECTION_ALIGNMENT !== 0 || offset + length > tableStart) {
      fail(`section '${name}' out of bounds`);
    }
    if (sections.has(name)) fail(`duplicate section '${name}'`);
    sections.set(name, data.subarray(offset, offset + length));
  }
  if (pos !== trailerStart) fail('section table length does not match its entries');

  return {
    path,
    byteLength: data.length,
    section(name: string): Uint8Array {
      const bytes = sections.get(name);
      if (bytes === undefined) throw new CorruptFileError(path, `missing section '${name}'`);
      return bytes;
    },
    has(name: string): boolean {
      return sections.has(name);
    },
    names(): string[] {
      return [...sections.keys()];
    },
    releaseResidentPages: release,
  };
}

/** Opens and verifies a container file; throws CorruptFileError naming the path if damaged. */
export function readSegmentFile(path: string): SegmentFile {
  return parseSegmentFile(path, loadAligned(path));
}

const CHECKSUM_CHUNK_BYTES = 1024 * 1024;

/** CRC-32 of the file's first `end` bytes, read with plain reads (a map's pages stay untouched). */
function checksumFilePrefix(path: string, end: number): number {
  const fd = fs.openSync(path, 'r');
  try {
    const chunk = new Uint8Array(Math.min(CHECKSUM_CHUNK_BYTES, end));
    let crc = 0;
    for (let position = 0; position < end; ) {
      const read = fs.readSync(fd, chunk, 0, Math.min(chunk.length, end - position), position);
      if (read === 0) throw new CorruptFileError(path, 'file shrank while being verified');
      crc = crc32(chunk.subarray(0, read), crc);
      position += read;
    }
    return crc;
  } finally {
    fs.closeSync(fd);
  }
}

export interface MapSegmentFileOptions {
  /**
   * Verify the checksum over the whole file (default true). The check reads the file once with
   * plain reads, so the mapping's pages are only loaded when searches touch them. Skip it only
   * where this process already verified or wrote the file.
   */
  verifyChecksum?: boolean;
}

/**
 * Opens a container file as a read-only memory map: section views point into the page cache,
 * not the heap. The structure is always checked; see `verifyChecksum` for the bytes.
 */
export function mapSegmentFile(path: string, options: MapSegmentFileOptions = {}): SegmentFile {
  const data = mapFileReadOnly(path);
  const checksum: ChecksumSource = options.verifyChecksum === false ? null : (end) => checksumFilePrefix(path, end);
  return parseSegmentFile(path, data, checksum, () => releaseResidentPages(data));
}
