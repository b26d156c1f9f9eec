// A search past its budget answers with what it found, `timedOut`, its total a lower bound;
// without a deadline it is exact. The clock is a fake one that moves on each reading, so the
// tests do not depend on the machine's speed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RoaringBitmap32 } from '../../storage/index.ts';
import { Analyzer } from '../analysis/index.ts';
import type { IndexDocument } from '../document.ts';
import { SegmentReader } from '../segment/segment-reader.ts';
import { writeSegment } from '../segment/segment-writer.ts';
import { SearchBudget } from './search-budget.ts';
import { searchSegments } from './searcher.ts';
import type { SearchRequest } from './search-types.ts';
import type { SegmentView } from './segment-view.ts';

const analyzer = Analyzer.for('none');
const DOCS = 30_000;

function withSegments(t: { after(fn: () => void): void }, batches: IndexDocument[][]): SegmentView[] {
  const dir = mkdtempSync(join(tmpdir(), 'folio-budget-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return batches.map((docs, i) => {
    const path = join(dir, `s${i}.seg`);
    writeSegment(path, docs, analyzer);
    return { reader: SegmentReader.open(path), deleted: new RoaringBitmap32() };
  });
}

const many = (from: number, count: number): IndexDocument[] =>
  Array.from({ length: count }, (_, i) => ({ id: `d${String(from + i).padStart(6, '0')}`, title: null, text: `apple pie number ${from + i}`, metadata: { n: from + i }, pages: null, format: 'text', bytes: 20, indexedAt: 'now' }));

const doc = (id: string, text: string): IndexDocument => ({ id, title: null, text, metadata: {}, pages: null, format: 'text', bytes: text.length, indexedAt: 'now' });

/** A clock that advances one unit each time it is read: the budget runs out after `readings`. */
function countingBudget(readings: number): SearchBudget {
  let now = 0;
  return new SearchBudget(readings, () => now++);
}

const request = (extra: Partial<SearchRequest> = {}): SearchRequest => ({ q: 'apple', match: 'any', offset: 0, limit: 10, highlightTag: 'mark', trackTotal: true, ...extra });

test('a search that runs out of time answers the hits found so far, timed out, the total a lower bound', (t) => {
  const views = withSegments(t, [many(0, DOCS / 2), many(DOCS / 2, DOCS / 2)]);
  const exact = searchSegments(views, analyzer, request());
  assert.equal(exact.timedOut, false);
  assert.equal(exact.total, DOCS);
  assert.equal(exact.totalRelation, 'eq');

  const partial = searchSegments(views, analyzer, request(), countingBudget(3));
  assert.equal(partial.timedOut, true);
  assert.equal(partial.totalRelation, 'gte');
  assert.ok(partial.total < DOCS, `total ${partial.total}`);
  assert.ok(partial.hits.length > 0, 'the hits found before the deadline are kept');
  assert.equal(partial.suggestions, undefined);
});

test('sorted, conjunctive and phrase searches stop at the deadline too', (t) => {
  const views = withSegments(t, [many(0, DOCS)]);
  for (const extra of [{ sort: [{ kind: 'field' as const, field: 'n', direction: 'desc' as const }] }, { q: 'apple pie', match: 'all' as const }, { q: '"apple pie"' }]) {
    const partial = searchSegments(views, analyzer, request(extra), countingBudget(2));
    assert.equal(partial.timedOut, true, JSON.stringify(extra));
    assert.equal(partial.totalRelation, 'gte');
    assert.ok(partial.total < DOCS);
  }
});

test('a phrase repeating one word 498 times matches a document of 200,000 such words', (t) => {
  const words = new Array(200_000).fill('a').join(' ');
  const views = withSegments(t, [[doc('bomb', words), doc('other', 'a b a b')]]);
  const phrase = `"${new Array(498).fill('a').join(' ')}"`;
  const result = searchSegments(views, analyzer, request({ q: phrase }));
  assert.deepEqual(
    result.hits.map((hit) => hit.id),
    ['bomb'],
  );
  assert.equal(result.timedOut, false);
});
