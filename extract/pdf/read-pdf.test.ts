// PDF extraction against the hand-written fixtures (fixtures/make-pdf-fixtures.py): text per
// page, page labels, titles from document info and from XMP, OCR of a scanned page, and
// damaged files.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ExtractionError, extractFile } from '../index.ts';
import { terminateOcrWorker } from '../ocr/tesseract-worker.ts';
import { ocrScale, rgbaToPgm } from './page-ocr.ts';
import { readPdf } from './read-pdf.ts';

after(() => terminateOcrWorker());

const FIXTURES = fileURLToPath(new URL('../../fixtures/files/', import.meta.url));
const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(FIXTURES + name));

test('sample.pdf: text per page, numbered, without labels, title from the document info', async () => {
  const extraction = await extractFile(fixture('sample.pdf'), 'sample.pdf');
  assert.equal(extraction.format, 'pdf');
  assert.equal(extraction.title, 'Sample folioquokka PDF');
  assert.deepEqual(extraction.pages, [
    { number: 1, label: null, text: 'Sample folioquokka document\nHello world' },
    { number: 2, label: null, text: 'The pdfwombat lives on page two.\nsplitword' },
  ]);
});

test('a PDF is detected by its bytes whatever its name', async () => {
  const extraction = await extractFile(fixture('sample.pdf'), 'upload.bin');
  assert.equal(extraction.format, 'pdf');
  assert.equal(extraction.pages.length, 2);
});

test('labelled.pdf: page labels i, ii, A-1, A-2; title from XMP dc:title; a textless page is empty', async () => {
  const { title, pages } = await readPdf(fixture('labelled.pdf'));
  assert.equal(title, 'Labelled folioquokka');
  assert.deepEqual(
    pages.map((p) => p.label),
    ['i', 'ii', 'A-1', 'A-2'],
  );
  assert.deepEqual(
    pages.map((p) => p.number),
    [1, 2, 3, 4],
  );
  assert.deepEqual(
    pages.map((p) => p.text),
    ['Preface page', '', 'Chapter one begins', 'Chapter one ends'],
  );
});

test('scanned.pdf: the text layer of page 1 is read as is, the image-only page 2 by OCR', async () => {
  const { title, pages } = await readPdf(fixture('scanned.pdf'));
  assert.equal(title, 'Scanned folioquokka');
  assert.equal(pages.length, 2);
  assert.equal(pages[0]!.text, 'The folioquokka page has a text layer.');
  const words = pages[1]!.text.split(/\s+/);
  for (const word of ['scannedwombat', 'folioquokka', 'optical', 'recognition']) assert.ok(words.includes(word), `${word} in ${JSON.stringify(pages[1]!.text)}`);
});

test('pages are rendered at 300 dpi for OCR, less when that would pass 9 million pixels', () => {
  assert.equal(ocrScale(612, 792), 300 / 72, 'US Letter at 300 dpi: 8.4 Mpx');
  const a3 = ocrScale(842, 1191);
  assert.ok(a3 < 300 / 72);
  assert.ok(Math.abs(842 * a3 * 1191 * a3 - 9_000_000) < 1, 'A3 is scaled down to the pixel budget');
});

test('rgbaToPgm writes a binary greyscale PGM with luma values', () => {
  const rgba = new Uint8Array([255, 255, 255, 255, 0, 0, 0, 255, 255, 0, 0, 255]);
  const pgm = rgbaToPgm(rgba, 3, 1);
  const header = 'P5\n3 1\n255\n';
  assert.equal(Buffer.from(pgm.subarray(0, header.length)).toString('latin1'), header);
  assert.deepEqual([...pgm.subarray(header.length)], [255, 0, 76]);
});

test('the caller’s bytes are left intact, and documents can be read concurrently', async () => {
  const bytes = fixture('sample.pdf');
  const copy = bytes.slice();
  const [a, b, c] = await Promise.all([readPdf(bytes), readPdf(fixture('labelled.pdf')), readPdf(bytes)]);
  assert.deepEqual(bytes, copy);
  assert.equal(a.pages.length, 2);
  assert.equal(b.pages.length, 4);
  assert.deepEqual(c, a);
});

test('a damaged (truncated) PDF fails with extraction_failed', async () => {
  const bytes = fixture('sample.pdf');
  for (const truncated of [bytes.subarray(0, bytes.length >> 1), bytes.subarray(0, 40)]) {
    await assert.rejects(
      extractFile(new Uint8Array(truncated), 'broken.pdf'),
      (error: unknown) => error instanceof ExtractionError && error.code === 'extraction_failed',
    );
  }
});

test('something that only starts like a PDF fails with extraction_failed', async () => {
  await assert.rejects(
    readPdf(new TextEncoder().encode('%PDF-1.7\nthis is not a PDF at all\n')),
    (error: unknown) => error instanceof ExtractionError && error.code === 'extraction_failed',
  );
});
