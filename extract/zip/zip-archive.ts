// A ZIP file held in memory, unpacked within limits: the one way office documents, e-books
// (office/office-package.ts) and zip archives (families/archive-family.ts) read ZIP entries.
// Opening reads the central directory (zip-entries.ts). Reading an entry inflates it off the
// calling thread and checks its declared size and CRC. All reads together may not unpack to
// more than the archive's budget (`maxUnpackedBytes`): an entry whose declared size does not
// fit is refused before unpacking, and inflating stops once the budget is reached, whatever
// the headers claim. Encrypted entries and methods other than stored/deflate are refused.

import { constants as bufferConstants } from 'node:buffer';
import { inflateRaw } from 'node:zlib';
import { ExtractionError } from '../extraction.ts';
import { crc32 } from './crc32.ts';
import {
  compressedBytes,
  damaged,
  isDirectory,
  isEncrypted,
  isReadableMethod,
  readZipEntries,
  type ZipEntry,
} from './zip-entries.ts';
import { MAX_COMPRESSION_RATIO, RATIO_MIN_BYTES, ZipLimitError } from './zip-limits.ts';

export interface ZipArchiveOptions {
  /** Most bytes all entries read from this archive may unpack to together. */
  maxUnpackedBytes: number;
}

/** Inflates raw deflate data on the thread pool, never producing more than `maxBytes`. */
function inflate(data: Uint8Array, maxBytes: number): Promise<Buffer> {
  const maxOutputLength = Math.max(1, Math.min(maxBytes, bufferConstants.MAX_LENGTH));
  return new Promise((resolve, reject) => {
    inflateRaw(data, { maxOutputLength }, (error, result) => (error === null ? resolve(result) : reject(error)));
  });
}

function isOutputLimit(error: unknown): boolean {
  return error instanceof RangeError || (error as { code?: string } | null)?.code === 'ERR_BUFFER_TOO_LARGE';
}

/** Refuses an entry whose declared sizes give a compression ratio no real file has. */
function checkRatio(entry: ZipEntry): void {
  const ratio = entry.uncompressedSize / Math.max(1, entry.compressedSize);
  if (entry.uncompressedSize >= RATIO_MIN_BYTES && ratio > MAX_COMPRESSION_RATIO) {
    throw new ZipLimitError(
      'ratio',
      `the zip entry ${entry.name} declares a compression ratio of ${Math.round(ratio)}:1, which no real file has`,
    );
  }
}

export class ZipArchive {
  private unpacked = 0;

  private constructor(
    private readonly bytes: Uint8Array,
    /** Every entry, directories included, in central directory order. */
    readonly entries: readonly ZipEntry[],
    private readonly maxUnpackedBytes: number,
  ) {}

  /** Reads the central directory; throws extraction_failed (or ZipLimitError) when it cannot. */
  static open(bytes: Uint8Array, options: ZipArchiveOptions): ZipArchive {
    return new ZipArchive(bytes, readZipEntries(bytes), options.maxUnpackedBytes);
  }

  /** The entries that are files (not directories), in central directory order. */
  get files(): ZipEntry[] {
    return this.entries.filter((entry) => !isDirectory(entry));
  }

  /** Bytes the budget still allows. */
  get remaining(): number {
    return this.maxUnpackedBytes - this.unpacked;
  }

  private tooLarge(): ZipLimitError {
    return new ZipLimitError('unpacked', `the file unpacks to more than ${this.maxUnpackedBytes} bytes`);
  }

  /**
   * Refuses, before anything is unpacked, entries that say themselves they are a zip bomb:
   * together declared larger than `maxBytes` (default: what the budget still allows), or one
   * declaring a compression ratio deflate cannot reach.
   */
  checkDeclaredSizes(entries: readonly ZipEntry[], maxBytes = this.remaining): void {
    let total = 0;
    for (const entry of entries) {
      checkRatio(entry);
      total += entry.uncompressedSize;
    }
    if (total > Math.min(maxBytes, this.remaining)) throw this.tooLarge();
  }

  /**
   * An entry's content, taken from the budget. `maxBytes` lowers the limit for this read (a
   * budget shared with other archives). Throws ZipLimitError('unpacked') past the limit,
   * extraction_failed when the entry is encrypted, uses another method, is damaged, or does
   * not match its declared size and CRC.
   */
  async read(entry: ZipEntry, maxBytes = Number.POSITIVE_INFINITY): Promise<Uint8Array> {
    if (isEncrypted(entry)) throw new ExtractionError('extraction_failed', `the file is encrypted (${entry.name})`);
    if (!isReadableMethod(entry)) {
      throw new ExtractionError('extraction_failed', `${entry.name} uses compression method ${entry.method}, which is not read`);
    }
    const allowed = Math.min(maxBytes, this.remaining);
    if (entry.uncompressedSize > allowed) throw this.tooLarge();
    checkRatio(entry);
    const data = compressedBytes(this.bytes, entry);
    let content: Uint8Array;
    if (entry.method === 0) {
      content = data;
    } else {
      try {
        content = await inflate(data, allowed);
      } catch (error) {
        if (isOutputLimit(error)) throw this.tooLarge();
        throw damaged(`${entry.name} cannot be inflated (${error instanceof Error ? error.message : String(error)})`);
      }
    }
    if (content.length > allowed) throw this.tooLarge();
    if (content.length !== entry.uncompressedSize) throw damaged(`${entry.name} does not have its declared size`);
    if (crc32(content) !== entry.crc32) throw damaged(`${entry.name} fails its CRC check`);
    this.unpacked += content.length;
    return content;
  }
}
