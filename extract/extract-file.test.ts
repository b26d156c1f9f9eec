// Tests for extractFile: encodings of real files (Latin-1, UTF-16), form-feed pages, HTML
// without script/style, subtitles without timestamps, and the two error codes.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ExtractionError, extractFile, familyFor } from './index.ts';

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

function utf16le(text: string, bom: boolean): Uint8Array {
  const out = new Uint8Array((text.length + (bom ? 1 : 0)) * 2);
  const view = new DataView(out.buffer);
  if (bom) view.setUint16(0, 0xfeff, true);
  for (let i = 0; i < text.length; i++) view.setUint16((i + (bom ? 1 : 0)) * 2, text.charCodeAt(i), true);
  return out;
}

test('a Latin-1 text file decodes as windows-1252', async () => {
  const bytes = new Uint8Array([...utf8('Fa'), 0xe7, ...utf8('ade na'), 0xef, ...utf8('ve '), 0x80]);
  const { pages } = await extractFile(bytes, 'latin1.txt');
  assert.equal(pages[0].text, 'Façade naïve €');
});

test('UTF-16 files (with BOM, and BOM-less) decode', async () => {
  const csv = await extractFile(utf16le('name,city\nZoë,Zürich\n', true), 'people.csv');
  assert.equal(csv.pages[0].text, 'name city\nZoë Zürich');
  assert.equal(csv.pages[0].label, null);
  const md = await extractFile(utf16le('# Überschrift\n\nText\n', false), 'doc.md');
  assert.equal(md.title, 'Überschrift');
});

test('form feeds split plain text into numbered pages', async () => {
  const { pages } = await extractFile(utf8('page one\fpage two\n\fpage three\f'), 'book.txt');
  assert.deepEqual(pages, [
    { number: 1, label: null, text: 'page one' },
    { number: 2, label: null, text: 'page two' },
    { number: 3, label: null, text: 'page three' },
  ]);
});

test('HTML: no script or style text, entities decoded, title from <title>', async () => {
  const html = '<html><head><title>T &amp; C</title><style>p{}</style></head><body>'
    + '<script type="module">alert("x")</script><p>Fish &amp; chips&nbsp;&#x263A;</p><!-- hidden --><p>B</p></body></html>';
  const result = await extractFile(utf8(html), 'page.html');
  assert.equal(result.title, 'T & C');
  assert.equal(result.pages[0].text, 'Fish & chips ☺\nB');
});

test('HTML in a declared legacy charset', async () => {
  const head = utf8('<meta charset="iso-8859-2"><p>');
  const bytes = new Uint8Array([...head, 0xb1, ...utf8('</p>')]); // ą in ISO-8859-2
  const result = await extractFile(bytes, 'pl.htm');
  assert.equal(result.pages[0].text, 'ą');
});

test('SubRip: cue text only, no numbers or timestamps', async () => {
  const srt = '1\r\n00:00:01,000 --> 00:00:02,000\r\nFirst <b>line</b>\r\n\r\n2\r\n00:00:03,000 --> 00:00:04,000\r\nSecond\r\nline\r\n';
  const { pages } = await extractFile(utf8(srt), 'movie.srt');
  assert.equal(pages[0].text, 'First line\n\nSecond\nline');
});

test('source code is one page, title null', async () => {
  const result = await extractFile(utf8('// hello\nconst x = 1;\n'), 'x.ts');
  assert.deepEqual(result, { format: 'ts', title: null, pages: [{ number: 1, label: null, text: '// hello\nconst x = 1;' }] });
});

test('an unknown type is unsupported_file_type (text under an unknown suffix is text); a type without a family too', async () => {
  await assert.rejects(extractFile(new Uint8Array([0, 1, 2, 0, 0, 0, 0xfe]), 'thing.xyz'), (e: unknown) => e instanceof ExtractionError && e.code === 'unsupported_file_type' && /xyz/.test(e.message));
  assert.equal((await extractFile(utf8('plain words'), 'thing.xyz')).format, 'txt');
  await assert.rejects(extractFile(new Uint8Array([0, 1, 2, 0, 0, 0, 0xfe]), null), (e: unknown) => e instanceof ExtractionError && e.code === 'unsupported_file_type');
  if (familyFor('pdf') === undefined) {
    await assert.rejects(extractFile(utf8('%PDF-1.4\n'), 'a.txt'), (e: unknown) => e instanceof ExtractionError && e.code === 'unsupported_file_type');
  }
});

test('damaged input is extraction_failed', async () => {
  await assert.rejects(extractFile(utf8('{"a": [1, 2'), 'broken.json'), (e: unknown) => e instanceof ExtractionError && e.code === 'extraction_failed');
  await assert.rejects(extractFile(utf8('{"a":1}\nnot json\n'), 'rows.ndjson'), (e: unknown) => e instanceof ExtractionError && e.code === 'extraction_failed' && /line 2/.test(e.message));
  const binary = new Uint8Array(256).map((_, i) => (i * 31) % 32);
  await assert.rejects(extractFile(binary, 'notes.txt'), (e: unknown) => e instanceof ExtractionError && e.code === 'extraction_failed');
});

test('an empty text file is one empty page', async () => {
  const result = await extractFile(new Uint8Array(0), 'empty.txt');
  assert.deepEqual(result.pages, [{ number: 1, label: null, text: '' }]);
});
