// The parts of a ZIP-based office document or e-book (docx/xlsx/pptx and their variants,
// odt/ods/odp, epub), read through the ZIP reader (extract/zip/) within one budget: all parts
// read together may not unpack to more than limits.maxUnpackedBytes. Parts are found by name
// as OOXML names them (leading slash optional, case-insensitive when no exact match) and
// decoded as XML/HTML text. Failures are ExtractionError('extraction_failed').

import type { ExtractionOptions } from '../extraction.ts';
import { isDirectory, ZipArchive, type ZipEntry } from '../zip/index.ts';

/** Decodes an XML/HTML part: UTF-16 by its byte order mark, else UTF-8 (BOM dropped). */
export function decodePart(bytes: Uint8Array): string {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  return new TextDecoder('utf-8').decode(bytes);
}

export class OfficePackage {
  private readonly parts = new Map<string, ZipEntry>();
  private readonly lowerCase = new Map<string, string>();

  private constructor(private readonly zip: ZipArchive) {
    for (const entry of zip.entries) {
      if (isDirectory(entry)) continue;
      this.parts.set(entry.name, entry);
      const lower = entry.name.toLowerCase();
      if (!this.lowerCase.has(lower)) this.lowerCase.set(lower, entry.name);
    }
  }

  /** Opens a document; throws extraction_failed when the bytes are not a readable ZIP. */
  static open(bytes: Uint8Array, limits: ExtractionOptions): OfficePackage {
    return new OfficePackage(ZipArchive.open(bytes, { maxUnpackedBytes: limits.maxUnpackedBytes }));
  }

  /** Every part name, in directory order. */
  get names(): string[] {
    return [...this.parts.keys()];
  }

  /** The stored name for a part name (exact, else case-insensitive, as OOXML part names are). */
  private resolve(name: string): string | undefined {
    const clean = name.replace(/^\/+/, '');
    if (this.parts.has(clean)) return clean;
    return this.lowerCase.get(clean.toLowerCase());
  }

  has(name: string): boolean {
    return this.resolve(name) !== undefined;
  }

  /** A part's bytes, or null when the document has no such part. */
  async readBytes(name: string): Promise<Uint8Array | null> {
    const stored = this.resolve(name);
    return stored === undefined ? null : this.zip.read(this.parts.get(stored)!);
  }

  /** A part decoded as text (XML/HTML), or null when absent. */
  async readText(name: string): Promise<string | null> {
    const bytes = await this.readBytes(name);
    return bytes === null ? null : decodePart(bytes);
  }
}
