// Archives: the text of the documents inside a zip (and a gzip-compressed single file). Each
// readable entry is extracted through the registry by its own detected format and becomes a
// page labelled by its path (entries with several pages: one page each, `path: label`).
// Directories, encrypted entries, unknown compression methods and formats nobody reads are
// skipped. The zip is read by the one ZIP reader (extract/zip/, limits in zip-limits.ts): zip
// bombs are refused before unpacking when the declared sizes exceed the unpack budget
// (limits.maxUnpackedBytes, shared with nested archives) or declare a compression ratio
// deflate cannot reach; lying sizes are caught while inflating, which never outgrows the
// budget. Any of these refusals fails the whole extraction, even from a nested zip. Archives
// nested deeper than limits.maxArchiveDepth are refused.

import { gunzipSync } from 'node:zlib';
import {
  ExtractionError,
  type ExtractedPage,
  type Extraction,
  type ExtractionOptions,
  type FormatFamily,
  type FormatInfo,
} from '../extraction.ts';
import { formatsOf } from './format-rows.ts';
import { formatFromFileName } from '../detect-format.ts';
import { familyFor } from '../format-registry.ts';
import {
  ContainerLimitError,
  enterContainer,
  extractNested,
  remainingUnpacked,
  spendUnpacked,
  unpackedTooMuch,
} from '../nested-extraction.ts';
import { isDirectory, isEncrypted, isReadableMethod, ZipArchive, ZipLimitError, type ZipEntry } from '../zip/index.ts';

const FORMATS: FormatInfo[] = formatsOf('archive', [
  ['application/zip', 'zip'],
  ['application/gzip', 'gz'],
]);

/** Whether an entry is worth unpacking: a file, readable, and not named as a format nobody reads. */
function isCandidate(entry: ZipEntry): boolean {
  if (isDirectory(entry) || isEncrypted(entry) || !isReadableMethod(entry)) return false;
  const byName = formatFromFileName(entry.name);
  return byName === null || familyFor(byName) !== undefined;
}

/**
 * Runs a step of reading the zip; a limit the ZIP reader enforces fails the whole extraction
 * (ContainerLimitError), and running out of the shared budget says so in its usual words.
 */
async function withinLimits<T>(limits: ExtractionOptions, step: () => T | Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (!(error instanceof ZipLimitError)) throw error;
    if (error.limit === 'unpacked') throw unpackedTooMuch(limits);
    throw new ContainerLimitError(error.message);
  }
}

/** The pages an inner document contributes, labelled by its path in the archive. */
function labelledPages(path: string, inner: Extraction): Array<Omit<ExtractedPage, 'number'>> {
  const pages = inner.pages.filter((page) => page.text.trim() !== '');
  if (pages.length === 1 && pages[0].label === null) return [{ label: path, text: pages[0].text }];
  const separator = inner.format === 'zip' || inner.format === 'gz' ? '/' : ': ';
  return pages.map((page, i) => ({ label: `${path}${separator}${page.label ?? `page ${i + 1}`}`, text: page.text }));
}

function numbered(pages: Array<Omit<ExtractedPage, 'number'>>): ExtractedPage[] {
  return pages.map((page, i) => ({ number: i + 1, label: page.label, text: page.text }));
}

async function extractZip(bytes: Uint8Array, limits: ExtractionOptions): Promise<Extraction> {
  const zip = await withinLimits(limits, () => ZipArchive.open(bytes, { maxUnpackedBytes: remainingUnpacked(limits) }));
  const entries = zip.entries.filter(isCandidate);
  await withinLimits(limits, () => zip.checkDeclaredSizes(entries));
  const pages: Array<Omit<ExtractedPage, 'number'>> = [];
  for (const entry of entries) {
    const content = await withinLimits(limits, () => zip.read(entry, remainingUnpacked(limits)));
    spendUnpacked(limits, content.length);
    const inner = await extractNested(content, entry.name, limits);
    if (inner !== null) pages.push(...labelledPages(entry.name, inner));
  }
  return { format: 'zip', title: null, pages: numbered(pages) };
}

/** The file name a gzip header records (FNAME), or null. */
function gzipFileName(bytes: Uint8Array): string | null {
  if (bytes.length < 10 || bytes[0] !== 0x1f || bytes[1] !== 0x8b) return null;
  const flags = bytes[3];
  let at = 10;
  if ((flags & 0x04) !== 0) {
    if (at + 2 > bytes.length) return null;
    at += 2 + (bytes[at] | (bytes[at + 1] << 8));
  }
  if ((flags & 0x08) === 0) return null;
  const end = bytes.indexOf(0, at);
  if (end < 0) return null;
  const name = new TextDecoder('latin1').decode(bytes.subarray(at, end));
  return name === '' ? null : name;
}

async function extractGzip(bytes: Uint8Array, limits: ExtractionOptions): Promise<Extraction> {
  if (bytes.length < 18 || bytes[0] !== 0x1f || bytes[1] !== 0x8b) {
    throw new ExtractionError('extraction_failed', 'the file is not gzip-compressed');
  }
  let content: Uint8Array;
  try {
    content = gunzipSync(bytes, { maxOutputLength: Math.max(1, remainingUnpacked(limits)) });
  } catch (error) {
    if (error instanceof RangeError || (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      throw unpackedTooMuch(limits);
    }
    throw new ExtractionError('extraction_failed', 'the gzip file is damaged');
  }
  spendUnpacked(limits, content.length);
  const name = gzipFileName(bytes);
  const inner = await extractNested(content, name, limits);
  if (inner === null) return { format: 'gz', title: null, pages: [] };
  const pages = name === null ? inner.pages.map(({ label, text }) => ({ label, text })) : labelledPages(name, inner);
  return { format: 'gz', title: inner.title, pages: numbered(pages) };
}

export const archiveFamily: FormatFamily = {
  kind: 'archive',
  formats: FORMATS,
  async extract(bytes: Uint8Array, format: string, limits: ExtractionOptions): Promise<Extraction> {
    const own = enterContainer(limits, 'archive');
    if (format === 'zip') return extractZip(bytes, own);
    if (format === 'gz') return extractGzip(bytes, own);
    throw new Error(`the archive family does not read ${format}`);
  },
};
