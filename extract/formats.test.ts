// Every registered format is proven by a real fixture: for each entry of listFormats() there
// must be fixtures/files/sample.<extension>, and extracting it must yield the known words.
// Formats whose family is not registered yet are not listed, so they are not required here.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { extractFile, listFormats } from './index.ts';

const FIXTURES = fileURLToPath(new URL('../fixtures/files/', import.meta.url));
const KNOWN_WORD = 'folioquokka';

/** Words a fixture must yield beyond the defaults (`folioquokka` and `<extension>wombat`). */
const EXTRA_WORDS: Record<string, string[]> = {
  md: ['link text', 'code'],
  html: ['Café & htmlwombat —'],
  json: ['deepkey', 'value'],
  csv: ['csvwombat, quoted'],
  ics: ['folded here', 'Room 4'],
  vcf: ['Research', 'folio@example.com', 'Met at the conference'],
  doc: ['docheaderkoala', 'docfooterpossum', 'docfootnotenumbat', 'docendnotebilby'],
  dot: ['dotheaderkoala', 'dotfooterpossum', 'dotfootnotenumbat', 'dotendnotebilby'],
};

/** Text a fixture's extraction must not contain (markup, timestamps, scripts). */
const ABSENT: Record<string, string[]> = {
  md: ['**', '](', 'layout'],
  rst: ['====', '``', '_target'],
  adoc: [':author:', '----', 'link:'],
  org: ['#+', '[[', 'TODO', ':tag:'],
  tex: ['\\', 'amsmath', 'comment', 'x^2'],
  latex: ['\\emph'],
  html: ['scriptjunk', 'stylejunk', '&eacute;', '<p>'],
  xml: ['CDATA', 'comment', '<'],
  srt: ['-->', '00:00', '<i>'],
  vtt: ['WEBVTT', 'NOTE', '-->', 'cue-1', '<v'],
  sbv: ['0:00'],
  ass: ['Dialogue', '\\N', '{\\i1}'],
  ics: ['BEGIN', 'DTSTART', 'UID'],
  vcf: ['+1-555', 'BEGIN'],
  yaml: ['# comment', '|'],
  toml: ['"""', '# comment'],
  doc: ['deletedjunk', 'PAGE', 'undefined'],
  dot: ['deletedjunk', 'PAGE', 'undefined'],
};

/** Titles the fixtures declare. */
const TITLES: Record<string, string | null> = {
  md: 'Sample folioquokka heading',
  markdown: 'Setext folioquokka title',
  rst: 'Sample folioquokka',
  adoc: 'Sample folioquokka Document',
  org: 'Sample folioquokka',
  tex: 'Sample folioquokka Paper',
  latex: 'folioquokka',
  html: 'Sample folioquokka Page',
  xml: 'folioquokka',
  svg: 'folioquokka',
  json: 'Sample folioquokka',
  yaml: 'Sample folioquokka',
  toml: 'Sample folioquokka',
  ics: 'Meeting about folioquokka',
  vcf: 'Folio folioquokka',
  doc: 'Sample folioquokka Document',
  dot: 'Sample folioquokka Document',
  txt: null,
  js: null,
};

const formats = listFormats();

test('the registry lists formats sorted by extension, each with a MIME type and kind', () => {
  assert.ok(formats.length >= 75, `only ${formats.length} formats registered`);
  const names = formats.map((f) => f.extension);
  assert.deepEqual(names, [...names].sort());
  assert.equal(new Set(names).size, names.length);
  for (const f of formats) {
    assert.match(f.mime, /^[a-z]+\/[\w.+-]+$/, f.extension);
    assert.ok(f.kind.length > 0, f.extension);
  }
});

for (const { extension } of formats) {
  test(`sample.${extension} is extracted with its known words`, async () => {
    const path = `${FIXTURES}sample.${extension}`;
    assert.ok(existsSync(path), `missing fixture fixtures/files/sample.${extension}`);
    const extraction = await extractFile(new Uint8Array(readFileSync(path)), `sample.${extension}`);
    assert.equal(extraction.format, extension);
    assert.ok(extraction.pages.length >= 1);
    extraction.pages.forEach((page, i) => assert.equal(page.number, i + 1));
    const text = extraction.pages.map((p) => p.text).join('\n');
    for (const word of [KNOWN_WORD, `${extension}wombat`, ...(EXTRA_WORDS[extension] ?? [])]) {
      assert.ok(text.includes(word), `sample.${extension}: "${word}" not in ${JSON.stringify(text)}`);
    }
    for (const absent of ABSENT[extension] ?? []) {
      assert.ok(!text.includes(absent), `sample.${extension}: "${absent}" should be gone from ${JSON.stringify(text)}`);
    }
    if (extension in TITLES) assert.equal(extraction.title, TITLES[extension]);
  });
}
