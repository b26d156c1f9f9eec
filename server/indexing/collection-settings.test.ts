// Collection settings: the API's typo tolerance shape to the engine's and back, patches merged
// over current settings, the two_typos ≥ one_typo rule, and collection.json's stored form.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CorruptFileError } from '../../storage/index.ts';
import { FolioError } from '../errors/index.ts';
import { readCollectionConfig, writeCollectionConfig } from './collection-config.ts';
import { applyTypoTolerancePatch, defaultTypoTolerance, typoToleranceFromStored, typoToleranceToWire } from './collection-settings.ts';

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

test('collection.json: settings written and read; absent means the defaults; damaged is a CorruptFileError', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-settings-'));
  try {
    const typoTolerance = applyTypoTolerancePatch(defaultTypoTolerance(), { enabled: false }, '');
    writeCollectionConfig(dir, { name: 'c', language: 'english', created_at: '2026-01-01T00:00:00.000Z', typoTolerance, embedders: {}, synonyms: [], ranking: { boost: [] }, searchableFields: [{ field: 'title', weight: 3 }, { field: 'text', weight: 1 }], ocrLanguages: ['deu', 'eng'] });
    assert.deepEqual(readCollectionConfig(dir).typoTolerance, typoTolerance);
    assert.deepEqual(readCollectionConfig(dir).ocrLanguages, ['deu', 'eng']);
    const file = path.join(dir, 'collection.json');
    fs.writeFileSync(file, JSON.stringify({ name: 'c', language: 'english', created_at: '2026-01-01T00:00:00.000Z' }));
    assert.deepEqual(readCollectionConfig(dir).typoTolerance, defaultTypoTolerance());
    assert.deepEqual(readCollectionConfig(dir).ocrLanguages, ['eng'], 'a file from before the setting: English');
    writeCollectionConfig(dir, { ...readCollectionConfig(dir), ocrLanguages: ['fra'] });
    const written = JSON.parse(fs.readFileSync(file, 'utf8'));
    assert.deepEqual(written.settings.ocr_languages, ['fra']);
    fs.writeFileSync(file, JSON.stringify({ ...written, settings: { ...written.settings, ocr_languages: ['../etc'] } }));
    assert.throws(() => readCollectionConfig(dir), /settings\.ocr_languages/);
    fs.writeFileSync(file, JSON.stringify({ name: 'c', language: 'english', created_at: 'x', settings: { typo_tolerance: { enabled: 'no' } } }));
    assert.throws(() => readCollectionConfig(dir), CorruptFileError);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
