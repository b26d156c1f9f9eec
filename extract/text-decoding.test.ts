// Tests for text-decoding.ts: BOMs, strict UTF-8, BOM-less UTF-16, the windows-1252 fallback
// and the text/binary sniff.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeText, detectTextEncoding, isProbablyText, looksLikeText } from './text-decoding.ts';

function utf16(text: string, bigEndian: boolean, bom: boolean): Uint8Array {
  const out = new Uint8Array((text.length + (bom ? 1 : 0)) * 2);
  const view = new DataView(out.buffer);
  let at = 0;
  if (bom) {
    view.setUint16(0, 0xfeff, !bigEndian);
    at = 2;
  }
  for (let i = 0; i < text.length; i++) view.setUint16(at + i * 2, text.charCodeAt(i), !bigEndian);
  return out;
}

test('UTF-8 with and without BOM', () => {
  const plain = new TextEncoder().encode('café naïve');
  assert.deepEqual(decodeText(plain), { text: 'café naïve', encoding: 'utf-8', bom: false });
  const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...plain]);
  assert.deepEqual(decodeText(withBom), { text: 'café naïve', encoding: 'utf-8', bom: true });
});

test('UTF-16 LE and BE with BOM', () => {
  assert.deepEqual(decodeText(utf16('Grüße', false, true)), { text: 'Grüße', encoding: 'utf-16le', bom: true });
  assert.deepEqual(decodeText(utf16('Grüße', true, true)), { text: 'Grüße', encoding: 'utf-16be', bom: true });
});

test('BOM-less UTF-16 is recognised by its zero bytes', () => {
  assert.equal(detectTextEncoding(utf16('plain ascii words', false, false)).encoding, 'utf-16le');
  assert.equal(detectTextEncoding(utf16('plain ascii words', true, false)).encoding, 'utf-16be');
  assert.equal(decodeText(utf16('plain ascii words', true, false)).text, 'plain ascii words');
});

test('invalid UTF-8 falls back to windows-1252', () => {
  const latin1 = new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x20, 0x80, 0x35]); // "café €5"
  const decoded = decodeText(latin1);
  assert.equal(decoded.encoding, 'windows-1252');
  assert.equal(decoded.text, 'café €5');
});

test('empty input decodes to an empty string', () => {
  assert.deepEqual(decodeText(new Uint8Array(0)), { text: '', encoding: 'utf-8', bom: false });
});

test('text versus binary', () => {
  assert.equal(looksLikeText('hello\tworld\r\n\fpage two'), true);
  assert.equal(isProbablyText(new TextEncoder().encode('just words\n')), true);
  const binary = new Uint8Array(512);
  for (let i = 0; i < binary.length; i++) binary[i] = (i * 37) % 256;
  assert.equal(isProbablyText(binary), false);
  assert.equal(isProbablyText(utf16('wide text', false, true)), true);
});
