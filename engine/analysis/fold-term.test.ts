// Tests of token folding: what accents, case and special letters become, and which marks are
// kept because they are letters of their script.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { foldTerm } from './fold-term.ts';

describe('foldTerm', () => {
  it('lower-cases ASCII and leaves it otherwise alone', () => {
    assert.equal(foldTerm('HeLLo42'), 'hello42');
  });

  it('removes Latin, Greek and Hebrew diacritics', () => {
    assert.equal(foldTerm('crème brûlée'), 'creme brulee');
    assert.equal(foldTerm('Ἀθῆναι'), 'αθηναι');
    assert.equal(foldTerm('שָׁלוֹם'), 'שלום');
  });

  it('folds letters without a decomposition that people type plainly', () => {
    assert.equal(foldTerm('Æsir'), 'aesir');
    assert.equal(foldTerm('Œuvre'), 'oeuvre');
    assert.equal(foldTerm('Søren'), 'soren');
    assert.equal(foldTerm('Łódź'), 'lodz');
    assert.equal(foldTerm('ΟΔΟΣ'), 'οδοσ');
    assert.equal(foldTerm('ıi'), 'ii');
  });

  it('keeps Cyrillic й but folds ё', () => {
    assert.equal(foldTerm('Новый'), 'новый');
    assert.equal(foldTerm('Ёлка'), 'елка');
  });

  it('keeps vowel signs that are letters of their script', () => {
    assert.equal(foldTerm('தமிழ்'), 'தமிழ்');
    assert.equal(foldTerm('हिन्दी'), 'हिन्दी');
  });

  it('recomposes (NFC) and folds compatibility forms (NFKD)', () => {
    assert.equal(foldTerm('한국어'), '한국어');
    assert.equal(foldTerm('ﬀ'), 'ff');
    assert.equal(foldTerm('①'), '1');
  });

  it('folds a token of only combining marks to nothing', () => {
    assert.equal(foldTerm('\u0301\u0308'), '');
  });
});
