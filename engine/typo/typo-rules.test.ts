// The typo budget of a query word (Meilisearch's rules, docs/api.md, "Typo tolerance"): by its length as typed, never
// on numbers, capped by a search's `typos`, none when the collection disables typos or keeps
// both fields exact.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_TYPO_TOLERANCE, TYPO_TOLERANCE_OFF, typoBudget, typoBudgetRule } from './typo-rules.ts';

const auto = typoBudgetRule(DEFAULT_TYPO_TOLERANCE, 'auto');

test('0 typos under 5 characters, 1 from 5, 2 from 9', () => {
  assert.deepEqual(['four', 'fives', 'eightchr', 'ninechars', 'muchlongerword'].map((w) => typoBudget(w, auto)), [0, 1, 1, 2, 2]);
});

test('characters are counted as typed, composed: "naïve" is 5 whichever way it is encoded', () => {
  assert.equal(typoBudget('naïve', auto), 1);
  assert.equal(typoBudget('nai\u0308ve', auto), 1);
  assert.equal(typoBudget('東京大学', auto), 0);
});

test('numbers and words with digits (codes) get no typos unless the collection allows them', () => {
  assert.equal(typoBudget('1234567890', auto), 0);
  assert.equal(typoBudget('v1234567', auto), 0);
  assert.equal(typoBudget('arrmark1234', auto), 0);
  const allowed = typoBudgetRule({ ...DEFAULT_TYPO_TOLERANCE, disableOnNumbers: false }, 'auto');
  assert.equal(typoBudget('1234567890', allowed), 2);
  assert.equal(typoBudget('v1234567', allowed), 1);
  assert.equal(typoBudget('arrmarker', auto), 2);
});

test('the search caps and overrides; the collection sets sizes and fields', () => {
  assert.equal(typoBudget('ninechars', typoBudgetRule(DEFAULT_TYPO_TOLERANCE, 1)), 1);
  assert.equal(typoBudget('ninechars', typoBudgetRule(DEFAULT_TYPO_TOLERANCE, 0)), 0);
  assert.equal(typoBudget('ninechars', typoBudgetRule(TYPO_TOLERANCE_OFF, 'auto')), 0);
  assert.equal(typoBudget('ninechars', typoBudgetRule(TYPO_TOLERANCE_OFF, 2)), 2);
  const sizes = { ...DEFAULT_TYPO_TOLERANCE, minWordSize: { oneTypo: 3, twoTypos: 6 } };
  assert.deepEqual(['ab', 'abc', 'abcdef'].map((w) => typoBudget(w, typoBudgetRule(sizes, 'auto'))), [0, 1, 2]);
  assert.equal(typoBudget('ninechars', typoBudgetRule({ ...DEFAULT_TYPO_TOLERANCE, disableOnFields: ['title', 'text'] }, 2)), 0);
  assert.equal(typoBudget('ninechars', typoBudgetRule({ ...DEFAULT_TYPO_TOLERANCE, disableOnFields: ['title'] }, 2)), 2);
});
