// Tests for format detection: magic bytes beat a misleading extension, ZIP containers are
// named by their entries (central directory) and OLE2 files by their streams, extensions are
// case-insensitive, and extension-less text is sniffed.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectFormat, fileExtension } from './detect-format.ts';
import { readZipListing } from './zip/index.ts';

const ascii = (s: string): Uint8Array => new TextEncoder().encode(s);

/** A minimal valid ZIP with stored (uncompressed) entries and a central directory. */
function makeZip(entries: Array<[string, string]>): Uint8Array {
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const [name, content] of entries) {
    const nameBytes = ascii(name);
    const data = ascii(content);
    const local = new Uint8Array(30 + nameBytes.length + data.length);
    const lv = new DataView(local.buffer);
    lv.setUint32(0, 0x04034b50, true);
    lv.setUint16(4, 20, true);
    lv.setUint32(18, data.length, true);
    lv.setUint32(22, data.length, true);
    lv.setUint16(26, nameBytes.length, true);
    local.set(nameBytes, 30);
    local.set(data, 30 + nameBytes.length);
    const central = new Uint8Array(46 + nameBytes.length);
    const cv = new DataView(central.buffer);
    cv.setUint32(0, 0x02014b50, true);
    cv.setUint32(20, data.length, true);
    cv.setUint32(24, data.length, true);
    cv.setUint16(28, nameBytes.length, true);
    cv.setUint32(42, offset, true);
    central.set(nameBytes, 46);
    locals.push(local);
    centrals.push(central);
    offset += local.length;
  }
  const centralSize = centrals.reduce((n, c) => n + c.length, 0);
  const end = new Uint8Array(22);
  const ev = new DataView(end.buffer);
  ev.setUint32(0, 0x06054b50, true);
  ev.setUint16(8, entries.length, true);
  ev.setUint16(10, entries.length, true);
  ev.setUint32(12, centralSize, true);
  ev.setUint32(16, offset, true);
  const out = new Uint8Array(offset + centralSize + 22);
  let at = 0;
  for (const part of [...locals, ...centrals, end]) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

test('magic bytes beat a misleading extension', () => {
  assert.equal(detectFormat(ascii('%PDF-1.7\n...'), 'notes.txt'), 'pdf');
  assert.equal(detectFormat(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]), 'photo.jpg'), 'png');
  assert.equal(detectFormat(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]), 'image.png'), 'jpg');
  assert.equal(detectFormat(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]), 'IMAGE.JPEG'), 'jpeg');
  assert.equal(detectFormat(ascii('GIF89a....'), 'x.bin'), 'gif');
  assert.equal(detectFormat(new Uint8Array([0x49, 0x49, 0x2a, 0, 8, 0, 0, 0]), 'scan.tif'), 'tif');
  assert.equal(detectFormat(new Uint8Array([0x4d, 0x4d, 0, 0x2a, 0, 0, 0, 8]), null), 'tiff');
  assert.equal(detectFormat(ascii('RIFF\x10\x00\x00\x00WEBPVP8 '), 'x.png'), 'webp');
  assert.equal(detectFormat(ascii('P6\n2 2\n255\n'), 'x.txt'), 'ppm');
  assert.equal(detectFormat(ascii('P1\n2 2\n0 1 1 0\n'), null), 'pbm');
  assert.equal(detectFormat(ascii('{\\rtf1\\ansi hello}'), 'letter.txt'), 'rtf');
  const bmp = new Uint8Array(64);
  bmp.set([0x42, 0x4d]);
  new DataView(bmp.buffer).setUint32(10, 54, true);
  new DataView(bmp.buffer).setUint32(14, 40, true);
  assert.equal(detectFormat(bmp, 'x.txt'), 'bmp');
  // "BM" alone is not a bitmap
  assert.equal(detectFormat(ascii('BM is my initials'), 'x.txt'), 'txt');
});

test('ZIP containers are named by the entries in their central directory', () => {
  const docx = makeZip([['[Content_Types].xml', '<Types/>'], ['word/document.xml', '<w:document/>']]);
  assert.deepEqual(readZipListing(docx)?.names, ['[Content_Types].xml', 'word/document.xml']);
  assert.equal(detectFormat(docx, 'report.zip'), 'docx');
  assert.equal(detectFormat(docx, 'report.docm'), 'docm');
  assert.equal(detectFormat(makeZip([['[Content_Types].xml', ''], ['xl/workbook.xml', '']]), null), 'xlsx');
  assert.equal(detectFormat(makeZip([['[Content_Types].xml', ''], ['ppt/presentation.xml', '']]), 'a.docx'), 'pptx');
  const odt = makeZip([['mimetype', 'application/vnd.oasis.opendocument.text'], ['content.xml', '']]);
  assert.equal(readZipListing(odt)?.mimetype, 'application/vnd.oasis.opendocument.text');
  assert.equal(detectFormat(odt, 'x.zip'), 'odt');
  assert.equal(detectFormat(makeZip([['mimetype', 'application/vnd.oasis.opendocument.spreadsheet']]), null), 'ods');
  assert.equal(detectFormat(makeZip([['mimetype', 'application/vnd.oasis.opendocument.presentation']]), null), 'odp');
  assert.equal(detectFormat(makeZip([['mimetype', 'application/epub+zip'], ['META-INF/container.xml', '']]), 'b.zip'), 'epub');
  assert.equal(detectFormat(makeZip([['notes.txt', 'hello']]), 'bundle.docx'), 'zip');
});

test('a truncated ZIP (no central directory) is listed from its local headers', () => {
  const odp = makeZip([['mimetype', 'application/vnd.oasis.opendocument.presentation'], ['content.xml', '<x/>']]);
  const truncated = odp.subarray(0, odp.length - 30);
  assert.equal(detectFormat(truncated, null), 'odp');
});

test('OLE2 files: the extension names the application, streams settle contradictions', () => {
  const ole = new Uint8Array(1024);
  ole.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
  assert.equal(detectFormat(ole, 'old.XLS'), 'xls');
  assert.equal(detectFormat(ole, 'mail.msg'), 'msg');
  const name = 'WordDocument';
  for (let i = 0; i < name.length; i++) ole[512 + i * 2] = name.charCodeAt(i);
  assert.equal(detectFormat(ole, 'letter.bin'), 'doc');
  assert.equal(detectFormat(ole, 'letter.ppt'), 'doc');
  assert.equal(detectFormat(ole, null), 'doc');
});

test('extensions are case-insensitive; special names and extension-less text', () => {
  assert.equal(detectFormat(ascii('# Title\n'), 'README.MD'), 'md');
  assert.equal(detectFormat(ascii('x'), 'dir/sub\\Notes.Txt'), 'txt');
  assert.equal(detectFormat(ascii('FROM node\n'), 'Dockerfile'), 'dockerfile');
  assert.equal(detectFormat(ascii('all:\n'), 'path/Makefile'), 'mk');
  assert.equal(detectFormat(ascii('plain words\n'), 'README'), 'txt');
  assert.equal(detectFormat(ascii('plain words\n'), null), 'txt');
  assert.equal(detectFormat(ascii('<!DOCTYPE html><p>x'), 'page'), 'html');
  assert.equal(detectFormat(ascii('WEBVTT\n\n'), null), 'vtt');
  assert.equal(detectFormat(new Uint8Array([0, 1, 2, 3, 0, 0, 0xff, 0x00, 7, 8]), 'blob'), null);
  assert.equal(detectFormat(ascii('anything'), 'mystery.xyz'), 'xyz');
  assert.equal(fileExtension('.bashrc'), null);
  assert.equal(fileExtension('archive.tar.GZ'), 'gz');
});

test('a suffix that names no readable type does not decide: text is text whatever its name', () => {
  const readable = (format: string) => ['txt', 'md', 'html'].includes(format);
  assert.equal(detectFormat(ascii('Apache License\n'), 'Apache-2.0', readable), 'txt');
  assert.equal(detectFormat(ascii('backup notes\n'), 'notes.bak', readable), 'txt');
  assert.equal(detectFormat(ascii('minutes\n'), 'meeting notes 2024.03.01', readable), 'txt');
  assert.equal(detectFormat(ascii('<html><p>saved page'), 'page.aspx', readable), 'html');
  // Binary under an unknown suffix keeps the suffix, so the refusal names it.
  assert.equal(detectFormat(new Uint8Array([0, 1, 2, 3, 0, 0, 0xff, 0x00, 7, 8]), 'font.ttf', readable), 'ttf');
  // A readable suffix still decides (a .md file is markdown, not sniffed).
  assert.equal(detectFormat(ascii('<html>'), 'notes.md', readable), 'md');
});
