// Tests for a search worker's reader cache: it opens what a snapshot names, keeps only what the
// newest snapshot it has seen uses, still serves an older snapshot (the main thread keeps its
// files), and forgets a deleted collection.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Analyzer, searchSegments, writeSegment } from '../../engine/index.ts';
import type { IndexDocument } from '../../engine/index.ts';
import { ReaderCache } from './reader-cache.ts';
import type { SnapshotRef } from './worker-protocol.ts';

function doc(id: string, text: string): IndexDocument {
  return { id, title: null, text, pages: null, metadata: {}, format: 'text', bytes: text.length, indexedAt: '2026-11-21T00:00:00.000Z' };
}

test('the cache follows the newest snapshot and drops retired segments', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-readers-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const analyzer = Analyzer.for('english');
  writeSegment(path.join(dir, 'seg-1.fseg'), [doc('a', 'apple pie')], analyzer);
  writeSegment(path.join(dir, 'seg-2.fseg'), [doc('b', 'apple tart')], analyzer);
  const snapshot = (generation: number, names: string[]): SnapshotRef => ({
    collectionId: 'c1',
    dir,
    language: 'english',
    generation,
    segments: names.map((name) => ({ name, deletes: null })),
  });
  const request = { q: 'apple', match: 'any' as const, offset: 0, limit: 10, highlightTag: 'mark' };
  const cache = new ReaderCache();
  const run = (ref: SnapshotRef): string[] => {
    const { analyzer: opened, views } = cache.open(ref);
    try {
      return searchSegments(views, opened, request).hits.map((hit) => hit.id).sort();
    } finally {
      cache.release(ref);
    }
  };

  assert.deepEqual(run(snapshot(1, ['seg-1.fseg'])), ['a']);
  assert.equal(cache.openReaderCount(), 1);
  assert.deepEqual(run(snapshot(2, ['seg-1.fseg', 'seg-2.fseg'])), ['a', 'b']);
  assert.equal(cache.openReaderCount(), 2);
  assert.deepEqual(run(snapshot(3, ['seg-2.fseg'])), ['b']);
  assert.equal(cache.openReaderCount(), 1, 'the retired segment was dropped');
  // A search of an older snapshot that was queued behind still runs, then its extra reader goes.
  assert.deepEqual(run(snapshot(2, ['seg-1.fseg', 'seg-2.fseg'])), ['a', 'b']);
  assert.equal(cache.openReaderCount(), 1);
  cache.forget('c1');
  assert.equal(cache.openReaderCount(), 0);
});
