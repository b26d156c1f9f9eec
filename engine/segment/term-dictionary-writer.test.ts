// The term dictionary's order: termOrder gives the code-point (UTF-8 byte) order that
// term-dictionary.ts binary-searches, whichever way it sorts — by packed leading characters
// with runs of a shared prefix sorted in full, or by the strings where those are not ASCII.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareCodePoints } from './term-order.ts';
import { termOrder } from './term-dictionary-writer.ts';

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function expectedOrder(terms: readonly string[]): number[] {
  return terms.map((_, i) => i).sort((a, b) => compareCodePoints(terms[a], terms[b]));
}

function distinct(words: Iterable<string>): string[] {
  return [...new Set(words)];
}

test('terms of shared prefixes, prefixes of each other and of every length come out in code-point order', () => {
  const next = random(7);
  const letters = 'abcz09';
  const words = distinct(Array.from({ length: 5_000 }, () => Array.from({ length: 1 + Math.floor(next() * 9) }, () => letters[Math.floor(next() * letters.length)]).join('')));
  // A metadata field's terms (segment-format.ts fieldTerm) start with a control character.
  words.push('\u0001author\u0001ada', '\u0001author\u0001a', 'a', 'ab', 'abcde', 'abcdez', 'abcdea');
  const terms = distinct(words);
  assert.deepEqual([...termOrder(terms)], expectedOrder(terms));
});

test('non-ASCII leading characters and surrogates past a shared prefix keep code-point order', () => {
  // U+FF5E sorts before U+1F600 by code point, after its surrogates by UTF-16 code unit.
  const terms = ['abcde\u{1F600}', 'abcde\uFF5E', 'abcdd', 'zz', 'été', 'eta', '\u{1F600}x', '東京', 'abcde'];
  assert.deepEqual([...termOrder(terms)], expectedOrder(terms));
  const ascii = ['abcdeffx', 'abcdef\u{1F600}', 'abcdef\uFF5E', 'b'];
  assert.deepEqual([...termOrder(ascii)], expectedOrder(ascii));
});

test('more terms than the packed key can index still sort', () => {
  const terms = Array.from({ length: 2 ** 18 + 3 }, (_, i) => `t${(i * 7919) % (2 ** 18 + 3)}`);
  assert.deepEqual([...termOrder(terms)], expectedOrder(terms));
});
