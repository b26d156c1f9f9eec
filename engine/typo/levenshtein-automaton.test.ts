// The Levenshtein automaton and the dictionary walk with it, against a naive oracle: for random
// dictionaries and query terms, TermDictionary.intersect must find exactly the terms whose
// brute-force Damerau–Levenshtein (optimal string alignment) distance, plus one when the first
// character differs, is within the allowed typos, each with that count — while reading only a
// small part of a large dictionary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TERM_INFO_WORDS } from '../segment/segment-format.ts';
import { TermDictionary } from '../segment/term-dictionary.ts';
import { encodeTerms, termOrder } from '../segment/term-dictionary-writer.ts';
import { seededRandom } from '../../test/helpers/seeded-random.ts';
import { naiveTypos } from '../../test/helpers/typo-distance.ts';
import { LevenshteinAutomaton } from './levenshtein-automaton.ts';

function dictionaryOf(terms: string[]): TermDictionary {
  const unique = [...new Set(terms)];
  const { bytes, offsets } = encodeTerms(unique, termOrder(unique));
  const offsetBytes = new Uint8Array(offsets.buffer, offsets.byteOffset, offsets.byteLength);
  return new TermDictionary(bytes, offsetBytes, new Uint8Array(unique.length * TERM_INFO_WORDS * 4));
}

function matches(dictionary: TermDictionary, query: string, maxTypos: number, maxTermsRead = Infinity): { found: Map<string, number>; complete: boolean } {
  const automaton = new LevenshteinAutomaton(query, maxTypos);
  const found = new Map<string, number>();
  const complete = dictionary.intersect(automaton, (index, state) => {
    found.set(dictionary.term(index), automaton.typos(state));
  }, maxTermsRead);
  return { found, complete };
}

function oracle(terms: string[], query: string, maxTypos: number): Map<string, number> {
  const found = new Map<string, number>();
  for (const term of new Set(terms)) {
    const typos = naiveTypos(query, term);
    if (typos <= maxTypos) found.set(term, typos);
  }
  return found;
}

const sorted = (map: Map<string, number>): [string, number][] => [...map].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));

test('the examples: a swap, a missing letter, the first letter counting twice', () => {
  const dictionary = dictionaryOf(['receive', 'histogram', 'saturday', 'caturday', 'sunday', 'saturdays', 'aturday']);
  assert.deepEqual(sorted(matches(dictionary, 'recieve', 1).found), [['receive', 1]]);
  assert.deepEqual(sorted(matches(dictionary, 'histgram', 1).found), [['histogram', 1]]);
  // "caturday": with one typo only terms starting with "c"; with two, "saturday" at 2.
  assert.deepEqual(sorted(matches(dictionary, 'caturday', 1).found), [['caturday', 0]]);
  assert.deepEqual(sorted(matches(dictionary, 'caturday', 2).found), [['aturday', 2], ['caturday', 0], ['saturday', 2]]);
  assert.deepEqual(sorted(matches(dictionary, 'saturday', 1).found), [['saturday', 0], ['saturdays', 1]]);
});

test('property: the walk finds exactly what brute force finds, with the same typo counts', () => {
  const random = seededRandom(1414);
  // A small alphabet makes many near neighbours; a few non-ASCII letters (2, 3 and 4 UTF-8
  // bytes) check code-point order and decoding.
  const alphabet = ['a', 'b', 'c', 'd', 'e', 'é', 'ß', '東', '𝔸'];
  const word = (min: number, max: number): string =>
    Array.from({ length: min + Math.floor(random() * (max - min + 1)) }, () => alphabet[Math.floor(random() ** 1.5 * alphabet.length)]).join('');
  /** A copy of `w` with `edits` random edits, so queries have near matches. */
  const mutate = (w: string, edits: number): string => {
    const chars = [...w];
    for (let e = 0; e < edits; e++) {
      const at = Math.floor(random() * (chars.length + 1));
      const kind = Math.floor(random() * 4);
      if (kind === 0) chars.splice(at, 0, alphabet[Math.floor(random() * alphabet.length)]);
      else if (kind === 1 && chars.length > 1) chars.splice(Math.min(at, chars.length - 1), 1);
      else if (kind === 2 && chars.length > 0) chars[Math.min(at, chars.length - 1)] = alphabet[Math.floor(random() * alphabet.length)];
      else if (at + 1 < chars.length) [chars[at], chars[at + 1]] = [chars[at + 1], chars[at]];
    }
    return chars.join('');
  };
  for (let round = 0; round < 300; round++) {
    const terms = Array.from({ length: 1 + Math.floor(random() * 300) }, () => word(1, 9));
    const dictionary = dictionaryOf(terms);
    for (let q = 0; q < 4; q++) {
      const base = random() < 0.7 ? terms[Math.floor(random() * terms.length)] : word(1, 9);
      const query = mutate(base, Math.floor(random() * 3)) || 'a';
      for (const maxTypos of [1, 2]) {
        assert.deepEqual(sorted(matches(dictionary, query, maxTypos).found), sorted(oracle(terms, query, maxTypos)), `round ${round}: ${query} ~${maxTypos}`);
      }
    }
  }
});

test('a large dictionary is walked by seeking: a small fraction of its terms is read', () => {
  const random = seededRandom(7);
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const terms = Array.from({ length: 60_000 }, () =>
    Array.from({ length: 3 + Math.floor(random() * 9) }, () => letters[Math.floor(random() * letters.length)]).join(''),
  );
  terms.push('histogram', 'histograms', 'histogrammed', 'hystogram', 'receive', 'receiver', 'deceive');
  const dictionary = dictionaryOf(terms);
  for (const [query, maxTypos] of [['histgram', 1], ['histogramm', 2], ['recieve', 1], ['receive', 2]] as const) {
    const { found, complete } = matches(dictionary, query, maxTypos, 3_000);
    assert.equal(complete, true, `${query}: the walk needed more than 3000 of ${dictionary.size} terms`);
    assert.deepEqual(sorted(found), sorted(oracle(terms, query, maxTypos)), query);
  }
  // The bound is honoured: a walk cut short says so.
  assert.equal(matches(dictionary, 'histogramm', 2, 5).complete, false);
});

test('the automaton stays small: a long term with two typos makes a bounded number of states', () => {
  const automaton = new LevenshteinAutomaton('internationalization', 2);
  const dictionary = dictionaryOf(['internationalisation', 'internationalization', 'internationalizations', 'nationalization']);
  const found: string[] = [];
  dictionary.intersect(automaton, (index) => {
    found.push(dictionary.term(index));
  }, Infinity);
  assert.deepEqual(found, ['internationalisation', 'internationalization', 'internationalizations']);
  assert.ok(automaton.stateCount < 500, `${automaton.stateCount} states`);
});
