// The phrase matcher finds exactly the starts a naive scan of the token sequence finds, for
// phrases with and without repeated words, and its work stays linear in the words'
// occurrences however often the phrase repeats a word (issue 18's 498-word `"a a … a"`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { seededRandom } from '../../test/helpers/seeded-random.ts';
import { findPhraseStarts, forEachPhraseStart, phraseShape } from './phrase-starts.ts';

/** Positions of each word of `vocabulary` in `tokens` (-1 tokens stand for other words). */
function positionsOf(tokens: number[], word: number): number[] {
  const positions: number[] = [];
  tokens.forEach((token, position) => {
    if (token === word) positions.push(position);
  });
  return positions;
}

function naiveStarts(tokens: number[], phrase: number[]): number[] {
  const starts: number[] = [];
  for (let s = 0; s + phrase.length <= tokens.length; s++) if (phrase.every((word, i) => tokens[s + i] === word)) starts.push(s);
  return starts;
}

test('phrase starts match a naive scan, with and without repeated words', () => {
  const random = seededRandom(18);
  for (let round = 0; round < 400; round++) {
    const words = 1 + Math.floor(random() * 3);
    const tokens = Array.from({ length: 1 + Math.floor(random() * 60) }, () => (random() < 0.15 ? -1 : Math.floor(random() * words)));
    const phrase = Array.from({ length: 1 + Math.floor(random() * 5) }, () => Math.floor(random() * words));
    const lists = new Map<number, number[]>();
    for (const word of new Set(phrase)) lists.set(word, positionsOf(tokens, word));
    // Callers pass the same list for a repeated word.
    assert.deepEqual(findPhraseStarts(phrase.map((word) => lists.get(word)!)), naiveStarts(tokens, phrase), `tokens ${tokens} phrase ${phrase}`);
  }
});

test('overlapping occurrences are all found, and a gap breaks a run', () => {
  const a = [0, 1, 2, 3, 5, 6];
  assert.deepEqual(findPhraseStarts([a, a]), [0, 1, 2, 5]);
  assert.deepEqual(findPhraseStarts([a, a, a]), [0, 1]);
  const b = [1, 3];
  const c = [0, 2, 4];
  assert.deepEqual(findPhraseStarts([c, b, c, b, c]), [0]);
  assert.deepEqual(findPhraseStarts([c, b, c]), [0, 2]);
});

test('a 498-word phrase of one word over 200,000 occurrences costs work linear in the occurrences', () => {
  const occurrences = 200_000;
  const positions = Array.from({ length: occurrences }, (_, i) => i);
  const shape = phraseShape(new Array(498).fill('a'));
  let found = 0;
  const work = forEachPhraseStart(shape, [positions], () => found++);
  assert.equal(found, occurrences - 497);
  // Checking each start word by word would be about 100 million steps.
  assert.ok(work <= 4 * occurrences, `work ${work}`);
});

test('a long phrase of distinct words costs work linear in the occurrences', () => {
  // Every position of a 200,000-token document holds one of 400 words in turn; the phrase is
  // those 400 words in order, so it starts at every 400th position.
  const distinct = 400;
  const length = 200_000;
  const lists = Array.from({ length: distinct }, (_, word) => Array.from({ length: length / distinct }, (_, i) => i * distinct + word));
  const shape = phraseShape(Array.from({ length: distinct }, (_, word) => word));
  const starts: number[] = [];
  const work = forEachPhraseStart(shape, lists, (start) => starts.push(start));
  assert.equal(starts.length, length / distinct);
  assert.equal(starts[1], distinct);
  assert.ok(work <= 3 * length, `work ${work}`);
});

test('an alternating phrase over an alternating document costs work linear in the occurrences', () => {
  const length = 200_000;
  const a = Array.from({ length: length / 2 }, (_, i) => 2 * i);
  const b = Array.from({ length: length / 2 }, (_, i) => 2 * i + 1);
  const keys = Array.from({ length: 498 }, (_, i) => (i % 2 === 0 ? 'a' : 'b'));
  let found = 0;
  const work = forEachPhraseStart(phraseShape(keys), [a, b], () => found++);
  assert.equal(found, length / 2 - 248);
  assert.ok(work <= 4 * length, `work ${work}`);
});
