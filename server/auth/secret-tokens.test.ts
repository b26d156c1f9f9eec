// Unit tests of secret token generation: formats, alphabet and length, no duplicates, a
// chi-square bound on symbol frequencies that a modulo-biased generator fails, and SHA-256.

import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { test } from 'node:test';
import {
  API_KEY_LENGTH,
  BASE62_ALPHABET,
  newApiKeyValue,
  newKeyId,
  newSessionToken,
  randomBase62,
  SESSION_TOKEN_LENGTH,
  sha256Hex,
} from './secret-tokens.ts';

test('the alphabet is the 62 symbols 0-9A-Za-z', () => {
  assert.equal(BASE62_ALPHABET.length, 62);
  assert.equal(new Set(BASE62_ALPHABET).size, 62);
  assert.match(BASE62_ALPHABET, /^[0-9A-Za-z]+$/);
});

test('randomBase62 gives exactly the length asked for, in the alphabet', () => {
  for (const length of [0, 1, 7, 16, 40, 1_000]) {
    const value = randomBase62(length);
    assert.equal(value.length, length);
    assert.match(value, /^[0-9A-Za-z]*$/);
  }
  assert.throws(() => randomBase62(-1), RangeError);
  assert.throws(() => randomBase62(1.5), RangeError);
});

test('API keys, key ids and session tokens have their formats', () => {
  const key = newApiKeyValue();
  assert.match(key, /^folio_[0-9A-Za-z]{40}$/);
  assert.equal(key.length, API_KEY_LENGTH);
  assert.match(newKeyId(), /^key_[0-9A-Za-z]{16}$/);
  const session = newSessionToken();
  assert.match(session, /^folio_sess_[0-9A-Za-z]{40}$/);
  assert.equal(session.length, SESSION_TOKEN_LENGTH);
  assert.notEqual(API_KEY_LENGTH, SESSION_TOKEN_LENGTH, 'the two kinds are told apart by length');
});

test('no duplicates across many values', () => {
  const count = 20_000;
  assert.equal(new Set(Array.from({ length: count }, newApiKeyValue)).size, count);
  assert.equal(new Set(Array.from({ length: count }, newKeyId)).size, count);
  assert.equal(new Set(Array.from({ length: count }, newSessionToken)).size, count);
});

/** Pearson's chi-square statistic of the symbol counts of `sample` against uniform. */
function chiSquare(sample: string): number {
  const counts = new Map<string, number>();
  for (const char of sample) counts.set(char, (counts.get(char) ?? 0) + 1);
  const expected = sample.length / BASE62_ALPHABET.length;
  let statistic = 0;
  for (const char of BASE62_ALPHABET) statistic += ((counts.get(char) ?? 0) - expected) ** 2 / expected;
  return statistic;
}

/** The mistake this module avoids: mapping every byte with `% 62`. */
function biasedBase62(length: number): string {
  let result = '';
  for (const byte of randomBytes(length)) result += BASE62_ALPHABET[byte % 62];
  return result;
}

// 61 degrees of freedom: mean 61, standard deviation ≈ 11; 150 is about 8 deviations out, so an
// unbiased generator fails far less than once in a billion runs. Modulo bias (symbols 0-7 get
// 5/256 instead of 4/256) gives a statistic around 2,000 at this sample size.
const SAMPLE = 62 * 5_000;
const BOUND = 150;

test('symbol frequencies are uniform (chi-square), unlike a modulo-biased generator', () => {
  const fair = chiSquare(randomBase62(SAMPLE));
  assert.ok(fair < BOUND, `chi-square ${fair.toFixed(1)} ≥ ${BOUND}`);
  const biased = chiSquare(biasedBase62(SAMPLE));
  assert.ok(biased > BOUND, `the biased generator's chi-square ${biased.toFixed(1)} should exceed ${BOUND}`);
});

test('every position of a key is uniform too (no bias by position)', () => {
  const keys = Array.from({ length: 6_200 }, () => randomBase62(40));
  for (const position of [0, 20, 39]) {
    const column = keys.map((key) => key[position]).join('');
    assert.ok(chiSquare(column) < BOUND, `position ${position}`);
  }
});

test('sha256Hex is the lower-case hex SHA-256 of the UTF-8 bytes', () => {
  assert.equal(sha256Hex('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  const token = newApiKeyValue();
  assert.equal(sha256Hex(token), createHash('sha256').update(Buffer.from(token, 'utf8')).digest('hex'));
  assert.match(sha256Hex(token), /^[0-9a-f]{64}$/);
});
