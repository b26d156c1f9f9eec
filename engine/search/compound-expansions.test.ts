// Compound expansions: which words reach into longer ones (katakana and hangul runs of 2+
// characters), found across segments with their document frequencies summed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Analyzer } from '../analysis/index.ts';
import type { IndexDocument } from '../document.ts';
import { SegmentReader } from '../segment/segment-reader.ts';
import { writeSegment } from '../segment/segment-writer.ts';
import { compoundScript, compoundsContaining } from './compound-expansions.ts';

const doc = (id: string, text: string): IndexDocument => ({ id, title: null, text, pages: null, metadata: {}, format: 'text', bytes: 1, indexedAt: 'now' });

test('only katakana or hangul words of two or more characters, all in one script, reach into compounds', () => {
  assert.notEqual(compoundScript('パッケージ'), null);
  assert.notEqual(compoundScript('패키지'), null);
  assert.equal(compoundScript('パ'), null);
  assert.equal(compoundScript('東京'), null);
  assert.equal(compoundScript('package'), null);
  assert.equal(compoundScript('パッケ패키'), null);
});

test('the longer words containing the word, over every segment, most documents first', () => {
  const dir = mkdtempSync(join(tmpdir(), 'folio-compounds-'));
  try {
    const analyzer = Analyzer.for('none');
    const segments = [
      [doc('a', 'パッケージ パッケージング'), doc('b', 'ソースパッケージ')],
      [doc('c', 'パッケージング'), doc('d', 'パッケ ライブラリ')],
    ];
    const views = segments.map((docs, i) => {
      const path = join(dir, `${i}.fseg`);
      writeSegment(path, docs, analyzer);
      return { reader: SegmentReader.open(path), deleted: null };
    });
    assert.deepEqual(compoundsContaining('パッケージ', views), [
      { term: 'パッケージング', docFreq: 2 },
      { term: 'ソースパッケージ', docFreq: 1 },
    ]);
    assert.deepEqual(compoundsContaining('パッケージ', views, 1), [{ term: 'パッケージング', docFreq: 2 }]);
    assert.deepEqual(compoundsContaining('ライブラリー', views), []);
    assert.deepEqual(compoundsContaining('package', views), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
