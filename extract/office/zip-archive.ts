// Random access to the parts of a ZIP-based document held in memory (yauzl over the Buffer),
// with a budget: all parts read together may not unpack to more than limits.maxUnpackedBytes.
// The budget is counted while inflating, so a zip bomb is stopped early, whatever its headers
// claim. Damaged archives and encrypted parts fail as ExtractionError('extraction_failed').

import yauzl from 'yauzl';
import type { Entry, ZipFile } from 'yauzl';
import { ExtractionError, type ExtractionLimits } from '../extraction.ts';

/** Most entries an archive may list before it is refused. */
const MAX_ENTRIES = 100_000;

function failed(message: string): ExtractionError {
  return new ExtractionError('extraction_failed', message);
}

function tooLarge(limit: number): ExtractionError {
  return failed(`the file unpacks to more than ${limit} bytes`);
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Decodes an XML/HTML part: UTF-16 by its byte order mark, else UTF-8 (BOM dropped). */
export function decodePart(bytes: Uint8Array): string {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  return new TextDecoder('utf-8').decode(bytes);
}

export class ZipArchive {
  private readonly entries = new Map<string, Entry>();
  private readonly lowerCase = new Map<string, string>();
  private unpacked = 0;

  private constructor(
    private readonly zip: ZipFile,
    private readonly limit: number,
  ) {}

  /** Opens an archive; throws extraction_failed when the bytes are not a readable ZIP. */
  static async open(bytes: Uint8Array, limits: ExtractionLimits): Promise<ZipArchive> {
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let zip: ZipFile;
    try {
      zip = await new Promise<ZipFile>((resolve, reject) => {
        yauzl.fromBuffer(buffer, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false }, (error, file) => {
          if (error !== null || file === undefined) reject(error ?? new Error('no archive'));
          else resolve(file);
        });
      });
    } catch (error) {
      throw failed(`the file is not a readable zip archive: ${reason(error)}`);
    }
    const archive = new ZipArchive(zip, limits.maxUnpackedBytes);
    try {
      await archive.list();
    } catch (error) {
      zip.close();
      if (error instanceof ExtractionError) throw error;
      throw failed(`the file is not a readable zip archive: ${reason(error)}`);
    }
    return archive;
  }

  private list(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.zip.on('entry', (entry: Entry) => {
        if (this.entries.size >= MAX_ENTRIES) {
          reject(failed(`the archive lists more than ${MAX_ENTRIES} entries`));
          return;
        }
        if (!entry.fileName.endsWith('/')) {
          this.entries.set(entry.fileName, entry);
          const lower = entry.fileName.toLowerCase();
          if (!this.lowerCase.has(lower)) this.lowerCase.set(lower, entry.fileName);
        }
        this.zip.readEntry();
      });
      this.zip.once('end', () => resolve());
      this.zip.once('error', reject);
      this.zip.readEntry();
    });
  }

  /** Every file name in the archive, in directory order. */
  get names(): string[] {
    return [...this.entries.keys()];
  }

  /** The stored name for a part name (exact, else case-insensitive, as OOXML part names are). */
  private resolve(name: string): string | undefined {
    const clean = name.replace(/^\/+/, '');
    if (this.entries.has(clean)) return clean;
    return this.lowerCase.get(clean.toLowerCase());
  }

  has(name: string): boolean {
    return this.resolve(name) !== undefined;
  }

  /** A part's bytes, or null when the archive has no such part. */
  async readBytes(name: string): Promise<Uint8Array | null> {
    const stored = this.resolve(name);
    if (stored === undefined) return null;
    const entry = this.entries.get(stored)!;
    if (entry.isEncrypted()) throw failed('the file is encrypted');
    if (this.unpacked + entry.uncompressedSize > this.limit) throw tooLarge(this.limit);
    return new Promise<Uint8Array>((resolve, reject) => {
      this.zip.openReadStream(entry, (error, stream) => {
        if (error !== null || stream === undefined) {
          reject(failed(`a part of the file cannot be read (${stored}): ${reason(error)}`));
          return;
        }
        const chunks: Buffer[] = [];
        let settled = false;
        stream.on('data', (chunk: Buffer) => {
          if (settled) return;
          this.unpacked += chunk.length;
          if (this.unpacked > this.limit) {
            settled = true;
            stream.destroy();
            reject(tooLarge(this.limit));
            return;
          }
          chunks.push(chunk);
        });
        stream.once('error', (streamError: unknown) => {
          if (settled) return;
          settled = true;
          reject(failed(`a part of the file cannot be read (${stored}): ${reason(streamError)}`));
        });
        stream.once('end', () => {
          if (settled) return;
          settled = true;
          resolve(Buffer.concat(chunks));
        });
      });
    });
  }

  /** A part decoded as text (XML/HTML), or null when absent. */
  async readText(name: string): Promise<string | null> {
    const bytes = await this.readBytes(name);
    return bytes === null ? null : decodePart(bytes);
  }

  close(): void {
    this.zip.close();
  }
}

/** Opens an archive, runs `read` over it and closes it again. */
export async function withZip<T>(bytes: Uint8Array, limits: ExtractionLimits, read: (zip: ZipArchive) => Promise<T>): Promise<T> {
  const zip = await ZipArchive.open(bytes, limits);
  try {
    return await read(zip);
  } finally {
    zip.close();
  }
}
