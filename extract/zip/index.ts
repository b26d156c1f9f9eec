// The one ZIP reader in extract/, for format detection, office documents and e-books, and zip
// archives. Start here:
//   zip-limits.ts   every limit a ZIP read obeys (entries, name length, compression ratio,
//                   mimetype bytes) and ZipLimitError; the unpack budget and nesting depth
//                   come from ExtractionOptions
//   zip-entries.ts  the central directory (ZIP64), the local-header walk for truncated files,
//                   where an entry's data lies
//   zip-archive.ts  ZipArchive: entries unpacked within a budget, size and CRC checked
//   zip-listing.ts  names and `mimetype` for format detection
//   crc32.ts        the checksum entries are verified with

export { crc32 } from './crc32.ts';
export { isDirectory, isEncrypted, isReadableMethod, type ZipEntry } from './zip-entries.ts';
export { ZipArchive, type ZipArchiveOptions } from './zip-archive.ts';
export { readZipListing, type ZipListing } from './zip-listing.ts';
export {
  MAX_COMPRESSION_RATIO,
  MAX_MIMETYPE_BYTES,
  MAX_ZIP_ENTRIES,
  MAX_ZIP_NAME_BYTES,
  RATIO_MIN_BYTES,
  ZipLimitError,
  type ZipLimit,
} from './zip-limits.ts';
