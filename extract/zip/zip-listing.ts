// What format detection needs from a ZIP file (container-formats.ts): its entry names, from
// the central directory or, for a truncated file, from its local headers, and the contents of
// the stored `mimetype` entry that ODF and EPUB files put first. Never unpacks anything.

import { compressedBytes, readZipEntries, walkLocalHeaders, type ZipEntry } from './zip-entries.ts';
import { MAX_MIMETYPE_BYTES } from './zip-limits.ts';

export interface ZipListing {
  names: string[];
  /** Contents of a stored (uncompressed) `mimetype` entry, trimmed; null if absent. */
  mimetype: string | null;
}

/** Lists a ZIP file's entry names; null when the bytes are not a readable ZIP. */
export function readZipListing(bytes: Uint8Array): ZipListing | null {
  let entries: ZipEntry[];
  try {
    entries = readZipEntries(bytes);
  } catch {
    entries = walkLocalHeaders(bytes);
    if (entries.length === 0) return null;
  }
  const mimeEntry = entries.find((entry) => entry.name === 'mimetype');
  return { names: entries.map((entry) => entry.name), mimetype: mimeEntry === undefined ? null : storedText(bytes, mimeEntry) };
}

/** A stored entry's first bytes as Latin-1 text, trimmed; null when compressed or unreadable. */
function storedText(bytes: Uint8Array, entry: ZipEntry): string | null {
  if (entry.method !== 0) return null;
  let data: Uint8Array;
  try {
    data = compressedBytes(bytes, entry);
  } catch {
    return null;
  }
  if (data.length === 0) return null;
  return new TextDecoder('latin1').decode(data.subarray(0, MAX_MIMETYPE_BYTES)).trim();
}
