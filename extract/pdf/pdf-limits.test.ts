// The PDF reader's bounds for hostile files: indirect objects are counted before pdf.js parses
// anything, and a PDF over `maxPdfObjects` or `maxPages` is refused as extraction_failed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_EXTRACTION_OPTIONS, ExtractionError } from '../extraction.ts';
import { pdfOfRepeatedPage } from '../../test/helpers/pdf-of-repeated-page.ts';
import { countIndirectObjects, readPdf } from './read-pdf.ts';

test('indirect objects are counted from the bytes', () => {
  assert.equal(countIndirectObjects(pdfOfRepeatedPage(3)), 5);
  assert.equal(countIndirectObjects(new TextEncoder().encode('1 0 obj\n<<>>\nendobj 2 0 obj<<>> 3 0 object 4 0 objx')), 2);
});

test('a PDF over the object or page limit is refused before it is read', async () => {
  const pdf = pdfOfRepeatedPage(3);
  assert.equal((await readPdf(pdf)).pages.length, 3);
  const refused = (limits: Partial<typeof DEFAULT_EXTRACTION_OPTIONS>, pattern: RegExp) =>
    assert.rejects(readPdf(pdf, { ...DEFAULT_EXTRACTION_OPTIONS, ...limits }), (error: unknown) => error instanceof ExtractionError && error.code === 'extraction_failed' && pattern.test(error.message));
  await refused({ maxPdfObjects: 4 }, /holds 5 objects; at most 4 are read/);
  await refused({ maxPages: 2 }, /has 3 pages; at most 2 are read/);
});
