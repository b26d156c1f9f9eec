// Grouping (issue 30 point 4): `distinct` keeps the best `groupSize` hits of each value of a
// field, by relevance or by a sort, across segments; `total` and paging count groups, facets
// still count documents, documents without the field are groups of their own — and, as a
// property, every page equals grouping a naive full ranking of the matches, however far the
// window has to widen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Analyzer } from '../analysis/index.ts';
import { textDocument, withSegments } from '../../test/helpers/engine-segments.ts';
import type { IndexDocument, Metadata } from '../document.ts';
import type { SearchRequest } from './search-types.ts';
import { searchSegments } from './searcher.ts';
import type { SegmentView } from './segment-view.ts';

const analyzer = Analyzer.for('english');

const doc = (id: string, text: string, metadata: Metadata = {}): IndexDocument => textDocument(id, text, metadata);


function search(views: SegmentView[], q: string, extra: Partial<SearchRequest> = {}) {
  return searchSegments(views, analyzer, { q, match: 'any', offset: 0, limit: 10, highlightTag: 'mark', ...extra });
}

const ids = (result: { hits: { id: string }[] }): string[] => result.hits.map((hit) => hit.id);

const SHOP = [
  doc('a1', 'red shirt red red', { product: 'a', color: 'red' }),
  doc('a2', 'red shirt red', { product: 'a', color: 'red' }),
  doc('a3', 'red shirt', { product: 'a', color: 'blue' }),
  doc('b1', 'red hat red', { product: 'b', color: 'red' }),
  doc('b2', 'red hat', { product: 'b', color: 'green' }),
  doc('loose', 'red scarf', {}),
];

test('distinct keeps the best hit of each value; total counts groups, facets count documents', () => {
  withSegments(analyzer, [SHOP.slice(0, 3), SHOP.slice(3)], (views) => {
    const result = search(views, 'red', { distinct: 'product', facets: ['color'] });
    assert.deepEqual(ids(result), ['a1', 'b1', 'loose']);
    assert.equal(result.total, 3, 'two products and a document without the field');
    assert.deepEqual(result.facets.color, { red: 3, blue: 1, green: 1 });
    const two = search(views, 'red', { distinct: 'product', groupSize: 2 });
    assert.deepEqual(ids(two), ['a1', 'a2', 'b1', 'b2', 'loose'], 'groups in rank order, members best first');
    const paged = search(views, 'red', { distinct: 'product', groupSize: 2, offset: 1, limit: 1 });
    assert.deepEqual(ids(paged), ['b1', 'b2'], 'offset and limit count groups');
    assert.equal(paged.total, 3);
  });
});

test('distinct with a sort: the first hits of each group in sort order', () => {
  withSegments(analyzer, [SHOP], (views) => {
    assert.deepEqual(ids(search(views, 'red', { distinct: 'product', sort: [{ kind: 'id', direction: 'desc' }] })), ['loose', 'b2', 'a3']);
    assert.deepEqual(ids(search(views, '', { distinct: 'color', sort: [{ kind: 'id', direction: 'asc' }], groupSize: 2 })), ['a1', 'a2', 'a3', 'b2', 'loose']);
  });
});

test('property: grouped pages equal grouping a naive ranking of every match', () => {
  let seed = 11;
  const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  const words = ['alpha', 'beta', 'gamma', 'delta'];
  const docs = Array.from({ length: 2_500 }, (_, i) => {
    const text = Array.from({ length: 2 + Math.floor(random() * 15) }, () => words[Math.floor(random() * words.length)]).join(' ');
    // A few huge groups and many small ones: the window must widen to fill the big groups' pages.
    const group = random() < 0.6 ? `big${Math.floor(random() * 3)}` : random() < 0.9 ? `small${Math.floor(random() * 400)}` : undefined;
    return doc(`d${String(i).padStart(4, '0')}`, text, group === undefined ? {} : { group });
  });
  withSegments(analyzer, [docs.slice(0, 900), docs.slice(900, 1700), docs.slice(1700)], (views) => {
    for (const q of ['alpha', 'beta gamma']) {
      const all = search(views, q, { limit: 2_500, trackTotal: true }).hits;
      const keyOf = (id: string) => (docs[Number(id.slice(1))].metadata.group as string | undefined) ?? `own:${id}`;
      for (const groupSize of [1, 3, 20]) {
        const groups = new Map<string, string[]>();
        for (const hit of all) {
          const members = groups.get(keyOf(hit.id)) ?? [];
          if (members.length < groupSize) members.push(hit.id);
          groups.set(keyOf(hit.id), members);
        }
        const ordered = [...groups.values()];
        for (const [offset, limit] of [[0, 10], [2, 5], [40, 20]]) {
          const result = search(views, q, { distinct: 'group', groupSize, offset, limit });
          assert.deepEqual(ids(result), ordered.slice(offset, offset + limit).flat(), `${q} size ${groupSize} offset ${offset}`);
          assert.equal(result.total, ordered.length);
        }
      }
    }
  });
});

test('more than 65,535 values: groups are still told apart (4-byte group numbers), and docs without a value count alone', () => {
  const docs = Array.from({ length: 66_000 }, (_, i) => doc(`v${String(i).padStart(5, '0')}`, 'same words', i % 1000 === 999 ? {} : { group: i % 65_900 }));
  withSegments(analyzer, [docs.slice(0, 40_000), docs.slice(40_000)], (views) => {
    const result = search(views, 'same', { distinct: 'group', trackTotal: true, limit: 3 });
    // 65,900 values (the last 100 docs share values with the first), and 66 docs without one.
    const values = new Set(docs.filter((d) => d.metadata.group !== undefined).map((d) => d.metadata.group));
    assert.equal(result.total, values.size + 66);
    assert.deepEqual(ids(result), ['v00000', 'v00001', 'v00002']);
  });
});
