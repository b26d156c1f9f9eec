// What the office family reads from the committed fixtures (fixtures/make-office-fixtures.py):
// sheet labels for xlsx/ods, slide labels and order for pptx/odp, titles, EPUB chapters in
// spine order, and the text that must be left out (deleted revisions, notes, phonetics).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { extractFile, type Extraction } from '../index.ts';

const FIXTURES = fileURLToPath(new URL('../../fixtures/files/', import.meta.url));

async function extract(extension: string): Promise<Extraction> {
  return extractFile(new Uint8Array(readFileSync(`${FIXTURES}sample.${extension}`)), `sample.${extension}`);
}

function allText(extraction: Extraction): string {
  return extraction.pages.map((page) => page.text).join('\n');
}

for (const extension of ['docx', 'docm', 'dotx']) {
  test(`${extension}: paragraphs joined across runs, title from core.xml, deleted text and field codes left out`, async () => {
    const result = await extract(extension);
    assert.equal(result.format, extension);
    assert.equal(result.title, 'Sample folioquokka Document');
    assert.equal(result.pages.length, 1);
    assert.equal(result.pages[0].label, null);
    const text = allText(result);
    assert.match(text, /^Hello folioquokka\n/);
    assert.ok(text.includes(`The ${extension}wombat café & co`), text);
    assert.ok(text.includes('Second line\nafter a break'), text);
    for (const junk of ['deletedjunk', 'instrjunk', 'PAGE']) assert.ok(!text.includes(junk), `${junk} in ${text}`);
  });
}

for (const extension of ['xlsx', 'xlsm']) {
  test(`${extension}: each sheet a page labelled by its name, in workbook order`, async () => {
    const result = await extract(extension);
    assert.equal(result.title, 'Sample folioquokka Workbook');
    assert.deepEqual(result.pages.map((p) => [p.number, p.label]), [[1, 'Summary'], [2, 'Data & Notes']]);
    assert.equal(result.pages[0].text, 'folioquokka\t42.5\nTotal\t85\tTRUE');
    assert.equal(result.pages[1].text, `${extension}wombat\tinlinewombat\nformulawombat`);
    assert.ok(!allText(result).includes('phoneticjunk'));
    assert.ok(!allText(result).includes('#DIV/0!'));
  });
}

for (const extension of ['pptx', 'pptm']) {
  test(`${extension}: each slide a page labelled "slide N", in the presentation's order`, async () => {
    const result = await extract(extension);
    assert.equal(result.title, 'Sample folioquokka Deck');
    assert.deepEqual(
      result.pages.map((p) => [p.number, p.label, p.text]),
      [
        [1, 'slide 1', 'First slide\nfolioquokka opening'],
        [2, 'slide 2', `Second slide ${extension}wombat`],
        [3, 'slide 3', 'Third slide closing'],
      ],
    );
  });
}

for (const [extension, suffix] of [['odt', ''], ['fodt', ' Flat']]) {
  test(`${extension}: headings and paragraphs, spaces and tabs, title from the metadata`, async () => {
    const result = await extract(extension);
    assert.equal(result.title, `Sample folioquokka Text${suffix}`);
    assert.equal(result.pages.length, 1);
    assert.equal(
      result.pages[0].text,
      `Heading folioquokka\nThe ${extension}wombat spaced tabbed\ncafé & co\nAnother spanned paragraph`,
    );
  });
}

for (const [extension, suffix] of [['ods', ''], ['fods', ' Flat']]) {
  test(`${extension}: each table a page labelled by its name`, async () => {
    const result = await extract(extension);
    assert.equal(result.title, `Sample folioquokka Sheets${suffix}`);
    assert.deepEqual(
      result.pages.map((p) => [p.number, p.label, p.text]),
      [
        [1, 'Budget', 'folioquokka\t12.5'],
        [2, 'Notes Sheet', `${extension}wombat\ttwo lines`],
      ],
    );
  });
}

for (const [extension, suffix] of [['odp', ''], ['fodp', ' Flat']]) {
  test(`${extension}: each draw:page a page labelled "slide N", speaker notes left out`, async () => {
    const result = await extract(extension);
    assert.equal(result.title, `Sample folioquokka Slides${suffix}`);
    assert.deepEqual(
      result.pages.map((p) => [p.number, p.label, p.text]),
      [
        [1, 'slide 1', 'First slide folioquokka'],
        [2, 'slide 2', `Second slide ${extension}wombat`],
      ],
    );
  });
}

test('epub: chapters in spine order, labelled by their titles; the book title from the OPF', async () => {
  const result = await extract('epub');
  assert.equal(result.title, 'Sample folioquokka Book');
  assert.deepEqual(
    result.pages.map((p) => [p.number, p.label]),
    [[1, 'The Beginning'], [2, 'Second Chapter']],
  );
  assert.ok(result.pages[0].text.includes('It starts with folioquokka.'));
  assert.ok(result.pages[1].text.includes('It ends with the epubwombat & friends.'));
  const text = allText(result);
  for (const junk of ['navjunk', 'margin', 'color']) assert.ok(!text.includes(junk), `${junk} in ${text}`);
});
