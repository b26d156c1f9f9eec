// Counting past TOTAL_EXACT_UP_TO: a search ranked by relevance counts matches exactly up to
// that many, then answers `gte` and skips what cannot reach its top hits — with the same hits
// as a search that counts every match (`trackTotal`), which also answers the exact total.
// Facets and sorts always count exactly. And `hitFields`: a hit carries only what was asked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Analyzer } from '../analysis/index.ts';
import type { IndexDocument } from '../document.ts';
import { SegmentReader } from '../segment/segment-reader.ts';
import { writeSegment } from '../segment/segment-writer.ts';
import { searchSegments } from './searcher.ts';
import { TOTAL_EXACT_UP_TO } from './search-types.ts';
import type { SearchRequest } from './search-types.ts';
import type { SegmentView } from './segment-view.ts';
import { seededRandom } from '../../test/helpers/seeded-random.ts';

const analyzer = Analyzer.for('none');
const WORDS = ['common', 'often', 'rare', 'gold', 'silver', 'iron', 'wood', 'stone'];

/** 3 segments, 15,000 docs in all: `common` in every third doc (5,000), `often` in most (~12,000). */
function withSegments(run: (views: SegmentView[]) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'folio-total-'));
  const random = seededRandom(7);
  try {
    const views: SegmentView[] = [];
    for (let segment = 0; segment < 3; segment++) {
      const docs: IndexDocument[] = [];
      for (let i = 0; i < 5_000; i++) {
        const n = segment * 5_000 + i;
        const words = [n % 3 === 0 ? 'common' : '', random() < 0.8 ? 'often' : ''];
        for (let w = 0; w < 1 + Math.floor(random() * 6); w++) words.push(WORDS[2 + Math.floor(random() * 6)]);
        if (random() < 0.3) words.push('often', 'often');
        docs.push({ id: `d${String(n).padStart(5, '0')}`, title: null, text: words.join(' '), pages: null, metadata: { shelf: n % 4 }, format: 'text', bytes: 1, indexedAt: 'now' });
      }
      const path = join(dir, `${segment}.fseg`);
      writeSegment(path, docs, analyzer);
      views.push({ reader: SegmentReader.open(path), deleted: null });
    }
    run(views);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const search = (views: SegmentView[], q: string, more: Partial<SearchRequest> = {}) =>
  searchSegments(views, analyzer, { q, match: 'any', offset: 0, limit: 10, highlightTag: 'mark', ...more });

test('past TOTAL_EXACT_UP_TO matches the total is a lower bound, the hits those of an exact count', () => {
  withSegments((views) => {
    for (const q of ['often', 'often gold', 'often rare stone', 'common often iron']) {
      const counted = search(views, q, { limit: 20, offset: 5 });
      const exact = search(views, q, { limit: 20, offset: 5, trackTotal: true });
      assert.ok(exact.total > TOTAL_EXACT_UP_TO, `${q}: ${exact.total} matches`);
      assert.equal(exact.totalRelation, 'eq');
      assert.equal(counted.total, TOTAL_EXACT_UP_TO, q);
      assert.equal(counted.totalRelation, 'gte', q);
      assert.deepEqual(counted.hits.map((h) => [h.id, h.score]), exact.hits.map((h) => [h.id, h.score]), q);
    }
  });
});

test('under TOTAL_EXACT_UP_TO matches, and with facets or a sort, the total is exact', () => {
  withSegments((views) => {
    const common = search(views, 'common');
    assert.deepEqual([common.total, common.totalRelation], [5_000, 'eq']);
    const faceted = search(views, 'often', { facets: ['shelf'] });
    assert.equal(faceted.totalRelation, 'eq');
    assert.equal(Object.values(faceted.facets.shelf).reduce((a, b) => a + b, 0), faceted.total);
    assert.equal(faceted.total, search(views, 'often', { trackTotal: true }).total);
    const sorted = search(views, 'often', { sort: [{ kind: 'field', field: 'shelf', direction: 'asc' }] });
    assert.deepEqual([sorted.total, sorted.totalRelation], [faceted.total, 'eq']);
    // The empty query counts every doc from the live set, exactly.
    assert.deepEqual([search(views, '').total, search(views, '').totalRelation], [15_000, 'eq']);
  });
});

test('hitFields: a hit carries id, score and only the members asked for', () => {
  withSegments((views) => {
    const full = search(views, 'common gold', { limit: 3 });
    const bare = search(views, 'common gold', { limit: 3, hitFields: [] });
    assert.deepEqual(bare.hits, full.hits.map(({ id, score }) => ({ id, score })));
    const some = search(views, 'common gold', { limit: 3, hitFields: ['title', 'highlight', 'metadata'] });
    assert.deepEqual(some.hits, full.hits.map(({ id, score, title, highlight, metadata }) => ({ id, score, title, highlight, metadata })));
    assert.match(some.hits[0].highlight!, /<mark>(common|gold)<\/mark>/);
    const titles = search(views, 'common gold', { limit: 3, hitFields: ['title'] });
    assert.deepEqual(titles.hits, full.hits.map(({ id, score, title }) => ({ id, score, title })));
  });
});
