// Reads a PDF into { title, pages }: the text of each page (1…n), each page's label from the
// document's /PageLabels (null when it has none) and the title from the document info or the
// XMP metadata (dc:title). Any failure to open the file is an `extraction_failed` error.
// A page without a text layer that paints an image (a scan) is read by OCR (page-ocr.ts).
// Bounded for hostile files (issue 18: 200,000 references to one page ran to the 120 s limit):
// a PDF with more than `maxPdfObjects` indirect objects is refused before pdf.js parses it,
// one with more than `maxPages` pages before any page is read, and a page that takes longer
// than `pageTimeMs` is kept empty.

import { DEFAULT_EXTRACTION_OPTIONS, ExtractionError, type ExtractedPage, type ExtractionOptions, type OcrOptions } from '../extraction.ts';
import { cleanTitle } from '../text-formats/tidy.ts';
import { ocrPage } from './page-ocr.ts';
import { joinTextItems, type PositionedText } from './page-text.ts';
import { openPdf, type PdfDocument } from './pdfjs.ts';

export interface PdfContent {
  title: string | null;
  pages: ExtractedPage[];
}

function reasonOf(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === 'PasswordException') return 'the PDF is protected by a password';
    return error.message;
  }
  return String(error);
}

/** The document's own title: info /Title first, then XMP dc:title; null when neither says. */
async function documentTitle(document: PdfDocument): Promise<string | null> {
  try {
    const { info, metadata } = await document.getMetadata();
    const infoTitle = (info as Record<string, unknown> | null)?.Title;
    const title = cleanTitle(typeof infoTitle === 'string' ? infoTitle : null);
    if (title !== null) return title;
    const xmpTitle: unknown = metadata?.get('dc:title');
    return cleanTitle(typeof xmpTitle === 'string' ? xmpTitle : null);
  } catch {
    return null; // broken metadata costs the title, not the text
  }
}

/** Page labels from /PageLabels, or null; an unreadable label tree counts as none. */
async function pageLabels(document: PdfDocument): Promise<(string | null)[] | null> {
  try {
    const labels = await document.getPageLabels();
    return labels === null ? null : labels.map((label) => (label === '' ? null : label));
  } catch {
    return null;
  }
}

/** `work`, or a rejection once `ms` have passed (the work itself ends when the document is destroyed). */
export async function within<T>(ms: number, work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The text of page `number` (1-based): its text layer, else what OCR reads on it in `ocr`'s languages. */
async function pageText(document: PdfDocument, number: number, ocr: OcrOptions): Promise<string> {
  const page = await document.getPage(number);
  try {
    const content = await page.getTextContent();
    // Marked-content markers (no `str`) carry no text.
    const items = content.items.filter((item): item is PositionedText & typeof item => 'str' in item);
    const text = joinTextItems(items);
    // A page with no text layer (a scan) yields no items: OCR reads it instead.
    return text.trim() !== '' ? text : await ocrPage(page, ocr);
  } finally {
    page.cleanup();
  }
}

/** Extracts a PDF's title and pages. Throws ExtractionError `extraction_failed` on damage. */
/** Indirect objects written out in the file (`12 0 obj`): digits, a space, `obj`, then not a letter. */
export function countIndirectObjects(bytes: Uint8Array): number {
  let count = 0;
  for (let at = bytes.indexOf(0x6f); at >= 0; at = bytes.indexOf(0x6f, at + 1)) {
    if (bytes[at + 1] !== 0x62 || bytes[at + 2] !== 0x6a || bytes[at - 1] !== 0x20) continue;
    const before = bytes[at - 2];
    const after = bytes[at + 3];
    const isDigit = before >= 0x30 && before <= 0x39;
    const endsWord = after === undefined || !((after >= 0x41 && after <= 0x5a) || (after >= 0x61 && after <= 0x7a));
    if (isDigit && endsWord) count++;
  }
  return count;
}

export async function readPdf(bytes: Uint8Array, limits: ExtractionOptions = DEFAULT_EXTRACTION_OPTIONS): Promise<PdfContent> {
  const objects = countIndirectObjects(bytes);
  if (objects > limits.maxPdfObjects) {
    throw new ExtractionError('extraction_failed', `the PDF holds ${objects.toLocaleString('en')} objects; at most ${limits.maxPdfObjects.toLocaleString('en')} are read`);
  }
  let document: PdfDocument;
  try {
    document = await openPdf(bytes);
  } catch (error) {
    throw new ExtractionError('extraction_failed', `could not read the PDF: ${reasonOf(error)}`);
  }
  try {
    if (document.numPages > limits.maxPages) {
      throw new ExtractionError('extraction_failed', `the PDF has ${document.numPages.toLocaleString('en')} pages; at most ${limits.maxPages.toLocaleString('en')} are read`);
    }
    const title = await documentTitle(document);
    const labels = await pageLabels(document);
    const pages: ExtractedPage[] = [];
    let failures = 0;
    let firstFailure: unknown = null;
    for (let number = 1; number <= document.numPages; number++) {
      let text = '';
      try {
        text = await within(limits.pageTimeMs, pageText(document, number, limits.ocr), `page ${number}`);
      } catch (error) {
        // One damaged page should not cost the others; it is kept, empty.
        failures++;
        firstFailure ??= error;
      }
      pages.push({ number, label: labels?.[number - 1] ?? null, text });
    }
    if (document.numPages === 0 || failures === document.numPages) {
      const reason = firstFailure === null ? 'the PDF has no pages' : reasonOf(firstFailure);
      throw new ExtractionError('extraction_failed', `could not read the PDF: ${reason}`);
    }
    return { title, pages };
  } finally {
    await document.destroy().catch(() => undefined);
  }
}
