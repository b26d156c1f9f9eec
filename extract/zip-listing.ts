// The names inside a ZIP file, read from its central directory (archive/zip-reader.ts, the one
// central-directory reader), with a walk over the local headers as a fallback for truncated
// files, plus the stored `mimetype` entry that ODF and EPUB files put first. Only what format
// detection needs: no decompression.

import { decodeName, readZipEntries } from './archive/zip-reader.ts';

export interface ZipListing {
  names: string[];
  /** Contents of a stored (uncompressed) `mimetype` entry, trimmed; null if absent. */
  mimetype: string | null;
}

const LOCAL_SIGNATURE = 0x04034b50;
const MAX_ENTRIES = 100_000;

interface Entry {
  name: string;
  method: number;
  compressedSize: number;
  localOffset: number;
}

/** Lists a ZIP file's entry names; null when the bytes are not a readable ZIP. */
export function readZipListing(bytes: Uint8Array): ZipListing | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const entries = centralDirectory(bytes) ?? walkLocalHeaders(bytes, view);
  if (entries === null) return null;
  let mimetype: string | null = null;
  const mimeEntry = entries.find((e) => e.name === 'mimetype');
  if (mimeEntry && mimeEntry.method === 0) mimetype = readStoredEntry(bytes, view, mimeEntry);
  return { names: entries.map((e) => e.name), mimetype };
}

function u32(view: DataView, at: number): number {
  return view.getUint32(at, true);
}

function u16(view: DataView, at: number): number {
  return view.getUint16(at, true);
}

/** The central directory's entries, or null when it is missing or damaged. */
function centralDirectory(bytes: Uint8Array): Entry[] | null {
  try {
    return readZipEntries(bytes);
  } catch {
    return null;
  }
}

/** For files whose end is missing: follow local headers from the start while sizes are known. */
function walkLocalHeaders(bytes: Uint8Array, view: DataView): Entry[] | null {
  const entries: Entry[] = [];
  let at = 0;
  while (entries.length < MAX_ENTRIES && at + 30 <= bytes.length && u32(view, at) === LOCAL_SIGNATURE) {
    const flags = u16(view, at + 6);
    const compressedSize = u32(view, at + 18);
    const nameLength = u16(view, at + 26);
    const extraLength = u16(view, at + 28);
    if (at + 30 + nameLength > bytes.length) break;
    entries.push({
      name: decodeName(bytes.subarray(at + 30, at + 30 + nameLength), flags),
      method: u16(view, at + 8),
      compressedSize,
      localOffset: at,
    });
    if ((flags & 0x08) !== 0) break; // sizes follow the data: cannot skip it
    at += 30 + nameLength + extraLength + compressedSize;
  }
  return entries.length > 0 ? entries : null;
}

function readStoredEntry(bytes: Uint8Array, view: DataView, entry: Entry): string | null {
  const at = entry.localOffset;
  if (at + 30 > bytes.length || u32(view, at) !== LOCAL_SIGNATURE) return null;
  const start = at + 30 + u16(view, at + 26) + u16(view, at + 28);
  const end = Math.min(start + Math.min(entry.compressedSize, 256), bytes.length);
  if (start >= end) return null;
  return new TextDecoder('latin1').decode(bytes.subarray(start, end)).trim();
}
