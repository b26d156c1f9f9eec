// The names inside a ZIP file, read from its central directory (with a walk over the local
// headers as a fallback for truncated files), plus the stored `mimetype` entry that ODF and
// EPUB files put first. Only what format detection needs: no decompression.

export interface ZipListing {
  names: string[];
  /** Contents of a stored (uncompressed) `mimetype` entry, trimmed; null if absent. */
  mimetype: string | null;
}

const EOCD_SIGNATURE = 0x06054b50;
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
const ZIP64_EOCD_SIGNATURE = 0x06064b50;
const CENTRAL_SIGNATURE = 0x02014b50;
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
  const entries = readCentralDirectory(bytes, view) ?? walkLocalHeaders(bytes, view);
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

function findEndOfCentralDirectory(bytes: Uint8Array, view: DataView): number {
  const lowest = Math.max(0, bytes.length - 22 - 0xffff);
  for (let at = bytes.length - 22; at >= lowest; at--) {
    if (bytes[at] === 0x50 && u32(view, at) === EOCD_SIGNATURE) return at;
  }
  return -1;
}

function readCentralDirectory(bytes: Uint8Array, view: DataView): Entry[] | null {
  const eocd = findEndOfCentralDirectory(bytes, view);
  if (eocd < 0) return null;
  let count = u16(view, eocd + 10);
  let offset = u32(view, eocd + 16);
  if ((count === 0xffff || offset === 0xffffffff) && eocd >= 20 && u32(view, eocd - 20) === ZIP64_LOCATOR_SIGNATURE) {
    const zip64 = Number(view.getBigUint64(eocd - 20 + 8, true));
    if (zip64 + 56 <= bytes.length && u32(view, zip64) === ZIP64_EOCD_SIGNATURE) {
      count = Number(view.getBigUint64(zip64 + 32, true));
      offset = Number(view.getBigUint64(zip64 + 48, true));
    }
  }
  const entries: Entry[] = [];
  let at = offset;
  for (let i = 0; i < count && i < MAX_ENTRIES; i++) {
    if (at + 46 > bytes.length || u32(view, at) !== CENTRAL_SIGNATURE) break;
    const flags = u16(view, at + 8);
    const nameLength = u16(view, at + 28);
    const extraLength = u16(view, at + 30);
    const commentLength = u16(view, at + 32);
    if (at + 46 + nameLength > bytes.length) break;
    entries.push({
      name: decodeName(bytes.subarray(at + 46, at + 46 + nameLength), flags),
      method: u16(view, at + 10),
      compressedSize: u32(view, at + 20),
      localOffset: u32(view, at + 42),
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries.length > 0 || count === 0 ? entries : null;
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

function decodeName(raw: Uint8Array, flags: number): string {
  // Bit 11 marks UTF-8 names; older tools wrote CP437, whose ASCII part is all detection needs.
  return new TextDecoder((flags & 0x800) !== 0 ? 'utf-8' : 'latin1').decode(raw);
}
