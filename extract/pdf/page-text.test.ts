// Joining pdf.js text items into page text: end-of-line marks, baseline changes and gaps.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { joinTextItems, type PositionedText } from './page-text.ts';

/** A 10-pt item at (x, y), 5 units wide per character. */
function item(str: string, x: number, y: number, hasEOL = false): PositionedText {
  return { str, hasEOL, transform: [10, 0, 0, 10, x, y], width: str.length * 5, height: 10 };
}

test('runs that touch are joined without a space; a gap gets one', () => {
  assert.equal(joinTextItems([item('folio', 0, 100), item('quokka', 25, 100)]), 'folioquokka');
  assert.equal(joinTextItems([item('Hello', 0, 100), item('world', 30, 100)]), 'Hello world');
});

test('an existing space is not doubled', () => {
  assert.equal(joinTextItems([item('Hello ', 0, 100), item('world', 40, 100)]), 'Hello world');
  assert.equal(joinTextItems([item('Hello', 0, 100), item(' ', 25, 100), item('world', 40, 100)]), 'Hello world');
});

test('hasEOL and a change of baseline start a new line', () => {
  assert.equal(joinTextItems([item('one', 0, 100, true), item('two', 0, 88)]), 'one\ntwo');
  assert.equal(joinTextItems([item('one', 0, 100), item('two', 0, 88)]), 'one\ntwo');
  assert.equal(joinTextItems([item('one', 0, 100), item('', 0, 100, true), item('two', 0, 88)]), 'one\ntwo');
});

test('a small baseline shift (superscript) stays on the line', () => {
  assert.equal(joinTextItems([item('x', 0, 100), item('2', 5, 103)]), 'x2');
});

test('no items gives empty text; blank runs and control characters are tidied', () => {
  assert.equal(joinTextItems([]), '');
  assert.equal(
    joinTextItems([item('a\u0000b  ', 0, 100, true), item('', 0, 88, true), item('', 0, 76, true), item('c', 0, 64)]),
    'ab\n\nc',
  );
});
