// Typo tolerance: the API's shape to the engine's and back, patches merged over current
// settings, and the two_typos ≥ one_typo rule.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FolioError } from '../errors/index.ts';
import { applyTypoTolerancePatch, defaultTypoTolerance, typoToleranceFromStored, typoToleranceToWire } from './typo-tolerance.ts';

test('a patch keeps what it leaves out; the stored shape reads back the same', () => {
  const current = defaultTypoTolerance();
  const next = applyTypoTolerancePatch(current, { min_word_size: { two_typos: 12 }, disable_on_fields: ['text', 'text'] }, '/body');
  assert.deepEqual(next, { enabled: true, minWordSize: { oneTypo: 5, twoTypos: 12 }, disableOnNumbers: true, disableOnFields: ['text'] });
  assert.deepEqual(typoToleranceFromStored(JSON.parse(JSON.stringify(typoToleranceToWire(next)))), next);
  assert.deepEqual(applyTypoTolerancePatch(current, undefined, '/body'), current);
});

test('two_typos below one_typo is refused, naming the field', () => {
  assert.throws(
    () => applyTypoTolerancePatch(defaultTypoTolerance(), { min_word_size: { one_typo: 10 } }, '/body/typo_tolerance'),
    (error: unknown) => error instanceof FolioError && error.code === 'validation_failed' && error.errors?.[0].path === '/body/typo_tolerance/min_word_size/two_typos',
  );
});
