// Tests for the RTF reader: skipped destinations, \info\title as title, \'hh escapes in the
// document's code page, \uN with \ucN fallback skipping, escaped braces and backslash, \bin.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { extractFile } from '../index.ts';
import { rtfToText } from './rtf-reader.ts';

const ascii = (s: string): Uint8Array => new Uint8Array([...s].map((c) => c.charCodeAt(0)));

test('destination groups are skipped; \\info\\title is the title', () => {
  const rtf = String.raw`{\rtf1\ansi{\fonttbl{\f0 Arial;}}{\colortbl;\red255\green0\blue0;}{\stylesheet{\s1 Heading;}}` +
    String.raw`{\info{\title My {\i Title}}{\author Someone}{\company Corp}}{\*\generator Word;}{\*\unknown junk}` +
    String.raw`\pard Body text.{\pict\wmetafile8 0a0b0c}\par}`;
  const result = rtfToText(ascii(rtf));
  assert.equal(result.title, 'My Title');
  assert.equal(result.text, 'Body text.');
});

test('hex escapes decode as cp1252 (or the declared code page)', () => {
  assert.equal(rtfToText(ascii(String.raw`{\rtf1\ansi caf\'e9 \'93quoted\'94 \'80}`)).text, 'café “quoted” €');
  assert.equal(rtfToText(ascii(String.raw`{\rtf1\ansi\ansicpg1251 \'cf\'f0\'e8\'e2\'e5\'f2}`)).text, 'Привет');
  assert.equal(rtfToText(ascii(String.raw`{\rtf1\ansi\ansicpg932 \'93\'fa\'96\'7b}`)).text, '日本');
});

test('\\uN escapes skip \\ucN fallback characters, including hex escapes', () => {
  const rtf = String.raw`{\rtf1 A\u8364?B {\uc2\u26085\'93\'fa}C \u-10179?\u-8704? D \uc0\u233 E}`;
  assert.equal(rtfToText(ascii(rtf)).text, 'A€B 日C 😀 D éE');
});

test('escaped braces and backslash, \\par and \\line, tabs, \\bin', () => {
  const rtf = String.raw`{\rtf1 a \{b\} c\\d\par second\line third\tab x{\*\bkmkstart b}\bin3 {}y\~z}`;
  // \bin3 skips `{}y` as raw bytes; tidyText turns the tab and the no-break space into spaces.
  assert.equal(rtfToText(ascii(rtf)).text, 'a {b} c\\d\nsecond\nthird x z');
});

test('an RTF file extracts through the registry', async () => {
  const result = await extractFile(ascii(String.raw`{\rtf1{\info{\title T}}Hello\par}`), 'doc.rtf');
  assert.deepEqual(result, { format: 'rtf', title: 'T', pages: [{ number: 1, label: null, text: 'Hello' }] });
});

test('fixtures/files/sample.rtf: title, escapes, and no table or picture content', async () => {
  const bytes = new Uint8Array(readFileSync(new URL('../../fixtures/files/sample.rtf', import.meta.url)));
  const result = await extractFile(bytes, 'sample.rtf');
  assert.equal(result.title, 'Sample folioquokka RTF');
  assert.equal(
    result.pages[0].text,
    'The rtfwombat folioquokka text.\nCafé and naïve, € euro, 日 kanji.\nBraces { and } and backslash \\ stay.\nNext line tabbed.',
  );
});
