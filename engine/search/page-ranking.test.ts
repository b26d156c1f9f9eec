// Page ranking (issue 14 points 1 and 3) in the engine: a collection with paged documents ranks
// them by their best page, with the query's words close together counting more, and a
// collection without pages ranks exactly as the document ranking does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Analyzer } from '../analysis/index.ts';
import type { IndexDocument } from '../document.ts';
import { SegmentReader } from '../segment/segment-reader.ts';
import { writeSegment } from '../segment/segment-writer.ts';
import { parseQuery } from '../query/query-parser.ts';
import { prepareClauses } from './clauses/index.ts';
import { collectionStatistics } from './collection-statistics.ts';
import { rankByPages } from './page-ranking.ts';
import { searchSegments } from './searcher.ts';
import type { SegmentView } from './segment-view.ts';

const analyzer = Analyzer.for('none');

function doc(id: string, text: string, pages: string[] | null = null): IndexDocument {
  if (pages !== null) {
    const offsets: number[] = [];
    text = pages.map((page, i) => {
      offsets.push(pages.slice(0, i).reduce((sum, p) => sum + p.length + 2, 0));
      return page;
    }).join('\n\n');
    return { id, title: null, text, pages: offsets.map((offset, i) => ({ number: i + 1, label: null, offset })), metadata: {}, format: 'pdf', bytes: 1, indexedAt: 'now' };
  }
  return { id, title: null, text, pages: null, metadata: {}, format: 'text', bytes: 1, indexedAt: 'now' };
}

function withViews(docs: IndexDocument[], run: (views: SegmentView[]) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'folio-page-ranking-'));
  try {
    const path = join(dir, 'seg.fseg');
    writeSegment(path, docs, analyzer);
    run([{ reader: SegmentReader.open(path), deleted: null }]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const search = (views: SegmentView[], q: string) => searchSegments(views, analyzer, { q, match: 'any', offset: 0, limit: 10, highlightTag: 'mark' });
const filler = (n: number, word = 'lorem'): string => Array.from({ length: n }, (_, i) => `${word}${i % 13}`).join(' ');

test('with pages in the collection, words standing together rank above the same words apart', () => {
  const docs = [
    doc('apart', `disk ${filler(30)} quota`),
    doc('together', `${filler(15)} disk quota ${filler(15)}`),
    doc('manual', '', [filler(40, 'ipsum'), `${filler(20, 'ipsum')} quota ${filler(10, 'ipsum')} disk`, `${filler(15, 'ipsum')} disk quota ${filler(15, 'ipsum')}`]),
  ];
  withViews(docs, (views) => {
    const hits = search(views, 'disk quota').hits;
    assert.ok(hits.findIndex((hit) => hit.id === 'together') < hits.findIndex((hit) => hit.id === 'apart'), hits.map((hit) => hit.id).join());
    // The manual's page 3 has the words together; page 2 has them apart.
    assert.equal(hits.find((hit) => hit.id === 'manual')!.page, 3);
  });
});

test('without pages in the collection, the document ranking stands (no proximity, same scores)', () => {
  const docs = [doc('apart', `disk ${filler(30)} quota`), doc('together', `${filler(15)} disk quota ${filler(15)}`), doc('one', `disk ${filler(31)}`)];
  withViews(docs, (views) => {
    const hits = search(views, 'disk quota').hits;
    // Equal length and tfs: the same score, so the tie goes by id ("apart" < "together").
    assert.deepEqual(hits.map((hit) => hit.id), ['apart', 'together', 'one']);
    assert.equal(hits[0].score, hits[1].score);
  });
});

test('page ranking reads a bounded number of positions; past the budget candidates keep their document score', () => {
  const docs = [
    doc('manual', '', [filler(40, 'ipsum'), `${filler(10, 'ipsum')} disk quota ${filler(10, 'ipsum')}`]),
    doc('note-1', `disk ${filler(20)} quota`),
    doc('note-2', `quota ${filler(25)} disk`),
  ];
  withViews(docs, (views) => {
    const clauses = parseQuery('disk quota', 'any', analyzer).clauses;
    const stats = collectionStatistics(views);
    const prepared = prepareClauses(clauses, views, stats);
    const candidates = [0, 1, 2].map((d) => ({ segment: 0, doc: d, score: 1 + d }));
    // A budget of one position: the first candidate is ranked by its pages, the others keep their scores.
    const ranked = rankByPages(candidates, views, prepared, stats, 1);
    const byDoc = new Map(ranked.map((candidate) => [candidate.doc, candidate]));
    assert.notEqual(byDoc.get(0)!.bestPage, undefined);
    assert.deepEqual([byDoc.get(1)!.score, byDoc.get(1)!.bestPage], [2, undefined]);
    assert.deepEqual([byDoc.get(2)!.score, byDoc.get(2)!.bestPage], [3, undefined]);
    // With the default budget every candidate is ranked by its pages.
    assert.ok(rankByPages(candidates, views, prepared, stats).every((candidate) => candidate.bestPage !== undefined));
  });
});
