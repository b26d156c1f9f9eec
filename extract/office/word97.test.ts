// Legacy Word (.doc/.dot) from the committed fixtures (fixtures/make-word97-fixtures.sh): body,
// header, footer, footnote and endnote text, the summary title, deleted text and field codes
// left out, the characters word-extractor mistranslates (soft hyphen, € in 8-bit text); damaged
// or non-Word OLE2 files fail quickly as extraction_failed; a `.doc` that is really RTF, HTML,
// MHTML or text is read as what it is.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ExtractionError, extractFile } from '../index.ts';
import { CompoundFile } from './compound-file.ts';
import { extractWord97 } from './word97.ts';

const FIXTURES = fileURLToPath(new URL('../../fixtures/files/', import.meta.url));
const sample = (extension: string): Uint8Array => new Uint8Array(readFileSync(`${FIXTURES}sample.${extension}`));

function textOf(pages: Array<{ text: string }>): string {
  return pages.map((page) => page.text).join('\n');
}

/** The file's WordDocument and table streams, and where their bytes lie in the file. */
function streams(bytes: Uint8Array) {
  const file = CompoundFile.open(bytes);
  const word = file.stream('WordDocument')!;
  const wordView = new DataView(word.buffer, word.byteOffset, word.byteLength);
  const tableName = (wordView.getUint16(0x0a, true) & 0x0200) !== 0 ? '1Table' : '0Table';
  const table = file.stream(tableName)!;
  return {
    word,
    wordView,
    table,
    tableView: new DataView(table.buffer, table.byteOffset, table.byteLength),
    inWord: file.fileOffsets('WordDocument')!,
    inTable: file.fileOffsets(tableName)!,
  };
}

/** A copy of the file with one byte of a stream changed. */
function patch(bytes: Uint8Array, locate: (offset: number) => number, edits: Array<[number, number]>): Uint8Array {
  const out = new Uint8Array(bytes);
  for (const [at, value] of edits) {
    const offset = locate(at);
    assert.ok(offset >= 0);
    out[offset] = value;
  }
  return out;
}

function le32(at: number, value: number): Array<[number, number]> {
  return [0, 1, 2, 3].map((i) => [at + i, (value >>> (i * 8)) & 0xff]);
}

const CP1252: Record<number, number> = { 0x20ac: 0x80, 0x201c: 0x93, 0x201d: 0x94, 0x2013: 0x96, 0x2014: 0x97 };

/**
 * The document rewritten as Word writes Western text: 8-bit (cp1252) pieces. The character
 * and paragraph property tables are cut off, since their file positions would no longer match.
 */
function eightBitPieces(bytes: Uint8Array): Uint8Array {
  const { wordView, table, tableView, inWord, inTable } = streams(bytes);
  let pos = wordView.getUint32(0x1a2, true);
  while (table[pos] === 1) pos += 3 + tableView.getUint16(pos + 1, true);
  assert.equal(table[pos], 2);
  const count = (tableView.getUint32(pos + 1, true) - 4) / 12;
  pos += 5;
  const wordEdits: Array<[number, number]> = [...le32(0xfe, 0), ...le32(0x106, 0)];
  const tableEdits: Array<[number, number]> = [];
  for (let x = 0; x < count; x++) {
    const pcd = pos + (count + 1) * 4 + x * 8 + 2;
    const fc = tableView.getUint32(pcd, true);
    assert.equal(fc & 0x40000000, 0, 'LibreOffice writes UTF-16 pieces');
    const chars = tableView.getUint32(pos + (x + 1) * 4, true) - tableView.getUint32(pos + x * 4, true);
    for (let i = 0; i < chars; i++) {
      const code = wordView.getUint16(fc + i * 2, true);
      const byte = code < 0x80 || (code >= 0xa0 && code < 0x100) ? code : CP1252[code];
      assert.ok(byte !== undefined, `U+${code.toString(16)} has no cp1252 byte`);
      wordEdits.push([fc + i, byte]);
    }
    tableEdits.push(...le32(pcd, ((fc * 2) | 0x40000000) >>> 0));
  }
  return patch(patch(bytes, inWord, wordEdits), inTable, tableEdits);
}

async function assertFails(bytes: Uint8Array, message?: RegExp): Promise<void> {
  await assert.rejects(extractWord97(bytes, 'doc'), (error: unknown) => {
    assert.ok(error instanceof ExtractionError, String(error));
    assert.equal(error.code, 'extraction_failed');
    if (message !== undefined) assert.match(error.message, message);
    return true;
  });
}

for (const extension of ['doc', 'dot']) {
  test(`${extension}: body, notes, header and footer text, the summary title; deletions and field codes left out`, async () => {
    const result = await extractFile(sample(extension), `sample.${extension}`);
    assert.equal(result.format, extension);
    assert.equal(result.title, 'Sample folioquokka Document');
    assert.deepEqual(result.pages.map((p) => [p.number, p.label]), [[1, null]]);
    const text = textOf(result.pages);
    assert.match(text, /^Hello folioquokka\n/);
    assert.ok(text.includes(`The ${extension}wombat café & co and more.`), text);
    assert.ok(text.includes('Second line\nafter a break'), text);
    assert.ok(text.includes('cellaardvark cellbandicoot'), text);
    assert.ok(text.includes('hyphenated, 5 € a piece, non-breaking.'), text);
    for (const word of ['headerkoala', 'footerpossum page 1', 'footnotenumbat', 'endnotebilby']) {
      assert.ok(text.includes(`${extension}${word}`), `${extension}${word} not in ${text}`);
    }
    for (const junk of ['deletedjunk', 'PAGE', 'undefined']) assert.ok(!text.includes(junk), `${junk} in ${text}`);
    assert.doesNotMatch(text, /[\u0000-\u0008\u000b-\u001f]/);
  });
}

test('8-bit (cp1252) text: € and soft hyphens read right, never as "undefined"', async () => {
  const result = await extractWord97(eightBitPieces(sample('doc')), 'doc');
  const text = textOf(result.pages);
  assert.ok(text.includes('The docwombat café & co'), text);
  assert.ok(text.includes('hyphenated, 5 € a piece, non-breaking.'), text);
  assert.ok(text.includes('docfootnotenumbat'), text);
  assert.ok(!text.includes('undefined'), text);
});

test('damaged OLE2 files fail quickly as extraction_failed', { timeout: 20_000 }, async () => {
  const bytes = sample('doc');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const started = performance.now();

  await assertFails(bytes.subarray(0, 512));
  await assertFails(bytes.subarray(0, 300), /header is truncated/);
  await assertFails(bytes.subarray(0, bytes.length >> 1));

  // The directory's first sector overwritten: no root entry any more.
  const directory = new Uint8Array(bytes);
  directory.fill(0xff, (view.getUint32(48, true) + 1) * 512, (view.getUint32(48, true) + 2) * 512);
  await assertFails(directory);

  // A loop in the WordDocument stream's sector chain (word-extractor alone grows an array
  // until V8 aborts the whole process).
  const fatSector = view.getUint32(76, true);
  const fat = (n: number): number => view.getUint32((fatSector + 1) * 512 + n * 4, true);
  const looped = new Uint8Array(bytes);
  const { inWord } = streams(bytes);
  const first = inWord(0) / 512 - 1;
  const second = fat(first);
  new DataView(looped.buffer).setUint32((fatSector + 1) * 512 + fat(second) * 4, second, true);
  await assertFails(looped, /"WordDocument" loops/);

  // Random damage: every outcome is text or extraction_failed, never another error or a hang.
  let seed = 7;
  const random = (below: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % below;
  };
  for (let round = 0; round < 300; round++) {
    const damaged = new Uint8Array(bytes);
    for (let i = 0; i < 1 + random(16); i++) damaged[random(damaged.length)] = random(256);
    await extractWord97(damaged, 'doc').catch((error: unknown) => {
      assert.ok(error instanceof ExtractionError && error.code === 'extraction_failed', String(error));
    });
  }
  assert.ok(performance.now() - started < 15_000, 'damaged files are refused quickly');
});

test('non-Word, encrypted and Word 6/95 files are refused with a clear message', async () => {
  const bytes = sample('doc');
  await assertFails(new TextEncoder().encode('just some words'), /not an OLE2 compound file/);

  const { word, wordView, inWord } = streams(bytes);
  assert.equal(wordView.getUint16(0, true), 0xa5ec);
  const flags = wordView.getUint16(0x0a, true);
  await assertFails(patch(bytes, inWord, [[0x0a + 1, (flags | 0x0100) >> 8]]), /password-protected/);
  await assertFails(patch(bytes, inWord, [[2, 104], [3, 0]]), /Word 6\.0\/95/);
  await assertFails(patch(bytes, inWord, [[0, 0x12]]), /not a Word 97–2003 document/);
  assert.ok(word.length > 0x1aa);

  // Another application's OLE2 file: its directory names no WordDocument stream.
  const renamed = new Uint8Array(bytes);
  const name = new Uint8Array(new Uint16Array([...'WordDocument'].map((c) => c.charCodeAt(0))).buffer);
  const at = Buffer.from(renamed).indexOf(Buffer.from(name));
  renamed[at] = 'X'.charCodeAt(0);
  await assertFails(renamed, /not a Word document \(no WordDocument stream\)/);
});

test('a .doc that is really RTF, HTML, MHTML or plain text is read as what it is', async () => {
  const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
  const cases: Array<[string, string, string]> = [
    ['{\\rtf1\\ansi rtfwombat}', 'rtf', 'rtfwombat'],
    ['<html><head><title>Saved as web page</title></head><body><p>htmlwombat</p></body></html>', 'html', 'htmlwombat'],
    [
      'MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary="b"\r\n\r\n--b\r\nContent-Type: text/html; charset="utf-8"\r\n\r\n<html><body><p>mhtwombat</p></body></html>\r\n--b--\r\n',
      'eml',
      'mhtwombat',
    ],
    ['plain txtwombat words', 'txt', 'txtwombat'],
  ];
  for (const [content, format, word] of cases) {
    const result = await extractFile(encode(content), 'letter.doc');
    assert.equal(result.format, format);
    assert.ok(textOf(result.pages).includes(word), `${word} in ${JSON.stringify(result)}`);
  }
  // Binary junk named .doc is not mistaken for text.
  await assert.rejects(extractFile(new Uint8Array([0, 1, 2, 3, 0xff, 0xfe, 0, 0, 9, 8]), 'junk.doc'), /not an OLE2 compound file/);
});
