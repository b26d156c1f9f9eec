// A search's field weights (issue 30 point 1, `search_fields` on title and text): a heavier title
// lifts title matches, a field of weight 0 is not searched (its matches alone do not match), an
// explicit `title:word` still searches the title, and the default is title 3, text 1.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Analyzer } from '../analysis/index.ts';
import { textDocument, withSegments } from '../../test/helpers/engine-segments.ts';
import type { SearchRequest } from './search-types.ts';
import { searchSegments } from './searcher.ts';
import type { SegmentView } from './segment-view.ts';

const analyzer = Analyzer.for('english');

const DOCS = [
  textDocument('in-title', 'A guide to other things entirely.', {}, 'Gnuplot'),
  textDocument('in-text', 'Gnuplot draws plots; gnuplot is old.', {}, 'Plotting'),
  textDocument('neither', 'Nothing here.', {}, 'Other'),
];

function search(views: SegmentView[], q: string, extra: Partial<SearchRequest> = {}) {
  return searchSegments(views, analyzer, { q, match: 'any', offset: 0, limit: 10, highlightTag: 'mark', ...extra });
}
const ids = (result: { hits: { id: string }[] }): string[] => result.hits.map((hit) => hit.id);

test('field weights rank title and text as asked; weight 0 leaves a field out', () => {
  withSegments(analyzer, [DOCS], (views) => {
    const byDefault = search(views, 'gnuplot');
    assert.deepEqual(ids(byDefault), ['in-title', 'in-text']);
    assert.deepEqual(ids(search(views, 'gnuplot', { fieldWeights: { title: 3, text: 1 } })), ids(byDefault), 'the default is title 3, text 1');
    assert.deepEqual(byDefault.hits.map((hit) => hit.score), search(views, 'gnuplot', { fieldWeights: { title: 3, text: 1 } }).hits.map((hit) => hit.score));
    assert.deepEqual(ids(search(views, 'gnuplot', { fieldWeights: { title: 0.2, text: 5 } })), ['in-text', 'in-title']);
    assert.deepEqual(ids(search(views, 'gnuplot', { fieldWeights: { title: 0, text: 1 } })), ['in-text'], 'title not searched');
    assert.deepEqual(ids(search(views, 'gnuplot', { fieldWeights: { title: 1, text: 0 } })), ['in-title'], 'text not searched');
    assert.deepEqual(ids(search(views, 'title:gnuplot', { fieldWeights: { title: 0, text: 1 } })), ['in-title'], 'title:word still searches the title');
    const explained = search(views, 'gnuplot', { fieldWeights: { title: 2, text: 1 }, explain: true }).hits[0];
    assert.match(JSON.stringify(explained.explain), /title: weight 2/);
  });
});
