// collection.json: a collection's record and settings written and read back; a file written
// before a setting existed reads as its default; a damaged one is a CorruptFileError.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CorruptFileError } from '../../storage/index.ts';
import { readCollectionConfig, writeCollectionConfig } from './collection-config.ts';
import { applyTypoTolerancePatch, defaultTypoTolerance } from '../settings/index.ts';

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
