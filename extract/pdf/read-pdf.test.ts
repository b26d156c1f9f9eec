// PDF extraction against the hand-written fixtures (fixtures/make-pdf-fixtures.py): text per
// page, page labels, titles from document info and from XMP, and damaged files.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ExtractionError, extractFile } from '../index.ts';
import { readPdf } from './read-pdf.ts';

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
