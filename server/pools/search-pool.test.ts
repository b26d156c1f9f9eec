// Tests for where the search pool runs a search (issue 32): a search answered on the calling
// thread (inline-search.ts) is the same page, to the byte, as the one a search thread answers;
// searches asked together go to the threads unless the pool is told to keep them here under
// load; a snapshot that may not be searched here (`here` answers null) goes to a thread.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Analyzer, DEFAULT_TYPO_TOLERANCE, SegmentReader, writeSegment } from '../../engine/index.ts';
import type { IndexDocument, SearchRequest } from '../../engine/index.ts';
import type { OpenedSnapshot } from './reader-cache.ts';
import { SearchPool } from './search-pool.ts';
import type { SnapshotRef } from './worker-protocol.ts';

function doc(id: string, title: string, text: string, metadata: IndexDocument['metadata']): IndexDocument {
  return { id, title, text, pages: null, metadata, format: 'text', bytes: text.length, indexedAt: '2026-11-27T00:00:00.000Z' };
}

const WORDS = ['apple', 'orange', 'pear', 'plum', 'cherry', 'banana', 'grape', 'lemon', 'melon', 'peach'];

function corpus(count: number, offset: number): IndexDocument[] {
  return Array.from({ length: count }, (_, i) => {
    const n = i + offset;
    const words = Array.from({ length: 12 }, (_, k) => WORDS[(n * 7 + k * k) % WORDS.length]);
    return doc(`d${n}`, `${WORDS[n % WORDS.length]} ${n}`, `${words.join(' ')} crate ${n % 5}`, { shelf: n % 4, tags: [WORDS[n % 3]] });
  });
}

const REQUESTS: SearchRequest[] = [
  { q: 'apple pear', match: 'any', offset: 0, limit: 10, highlightTag: 'mark' },
  { q: 'cherri', match: 'any', offset: 0, limit: 5, highlightTag: 'mark', typoTolerance: DEFAULT_TYPO_TOLERANCE },
  { q: '"orange pear"', match: 'any', offset: 0, limit: 10, highlightTag: 'mark' },
  { q: 'cherry -plum', match: 'all', offset: 2, limit: 7, highlightTag: 'em', facets: ['shelf', 'tags'] },
  { q: 'melon', match: 'any', offset: 0, limit: 10, highlightTag: 'mark', sort: [{ kind: 'field', field: 'shelf', direction: 'desc' }] },
  { q: 'crate', match: 'any', offset: 0, limit: 3, highlightTag: 'mark', filter: { kind: 'range', field: 'shelf', bounds: { gte: 2 } }, hitFields: [] },
];

async function withPool(t: test.TestContext, inlineUnderLoad: boolean): Promise<{ pool: SearchPool; ref: SnapshotRef; opened: OpenedSnapshot }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-search-pool-'));
  const analyzer = Analyzer.for('english');
  writeSegment(path.join(dir, 'seg-1.fseg'), corpus(300, 0), analyzer);
  writeSegment(path.join(dir, 'seg-2.fseg'), corpus(200, 300), analyzer);
  const readers = ['seg-1.fseg', 'seg-2.fseg'].map((name) => SegmentReader.open(path.join(dir, name)));
  const pool = new SearchPool({ threads: 2, inlineUnderLoad });
  t.after(async () => {
    await pool.close();
    for (const reader of readers) reader.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const ref: SnapshotRef = { collectionId: 'c1', dir, language: 'english', generation: 1, segments: [{ name: 'seg-1.fseg', deletes: null }, { name: 'seg-2.fseg', deletes: null }] };
  return { pool, ref, opened: { analyzer, views: readers.map((reader) => ({ reader, deleted: null })) } };
}

test('a search answered on the calling thread is the page a search thread answers', async (t) => {
  const { pool, ref, opened } = await withPool(t, false);
  for (const request of REQUESTS) {
    let asked = 0;
    const here = (): OpenedSnapshot => {
      asked++;
      return opened;
    };
    const inline = await pool.search(ref, structuredClone(request), here);
    assert.equal(asked, 1, `${request.q}: alone, the search may run here`);
    const threaded = await pool.search(ref, structuredClone(request));
    assert.equal(inline.members, threaded.members, request.q);
    assert.equal(inline.total, threaded.total);
    assert.ok(inline.hitCount > 0, `${request.q} finds something`);
  }
});

test('searches asked together go to the threads, unless the pool keeps them here under load', async (t) => {
  for (const inlineUnderLoad of [false, true]) {
    const { pool, ref, opened } = await withPool(t, inlineUnderLoad);
    let asked = 0;
    const here = (): OpenedSnapshot => {
      asked++;
      return opened;
    };
    const together = await Promise.all(REQUESTS.map((request) => pool.search(ref, structuredClone(request), here)));
    assert.equal(asked, inlineUnderLoad ? REQUESTS.length : 0);
    const alone = await Promise.all(REQUESTS.map((request) => pool.search(ref, structuredClone(request))));
    assert.deepEqual(together.map((page) => page.members), alone.map((page) => page.members));
  }
});

test('a snapshot that may not be searched here is searched in a thread', async (t) => {
  const { pool, ref } = await withPool(t, true);
  let asked = 0;
  const page = await pool.search(ref, structuredClone(REQUESTS[0]), () => {
    asked++;
    return null;
  });
  assert.equal(asked, 1);
  assert.ok(page.hitCount > 0);
});
