// Tests for the search wire, the one place the engine's camelCase result gets the API's names:
// the worker's JSON text has the wire names in the wire order (docs/api.md, "Search"), facet_stats only when
// there are any, and parseSearchMembers gives back the engine's SearchResult unchanged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Analyzer, SegmentReader, searchSegments, writeSegment } from '../../engine/index.ts';
import type { IndexDocument, SearchResult } from '../../engine/index.ts';
import { parseSearchMembers, searchResultMembers } from './search-wire.ts';
import { toSearchPage } from '../pools/search-page.ts';

const WIRE_HIT_KEYS = ['id', 'title', 'score', 'format', 'page', 'page_label', 'snippet', 'highlight', 'metadata', 'matched_pages', 'explain'];

const result: SearchResult = {
  hits: [
    {
      id: 'report',
      title: 'Annual report',
      score: 2.5,
      format: 'pdf',
      page: 3,
      pageLabel: 'iii',
      snippet: 'the fox',
      highlight: 'the <mark>fox</mark>',
      metadata: { year: 2024, tags: ['a', 'b'] },
      matchedPages: [1, 3],
      explain: { value: 2.5, description: 'sum of', details: [{ value: 2.5, description: 'fox', details: [] }] },
    },
    {
      id: 'note',
      title: null,
      score: 1,
      format: 'text',
      page: null,
      pageLabel: null,
      snippet: 'fox',
      highlight: '<mark>fox</mark>',
      metadata: {},
      matchedPages: [],
    },
  ],
  total: 2,
  totalRelation: 'eq',
  timedOut: false,
  facets: { year: { '2024': 1 } },
  facetStats: { year: { min: 2024, max: 2024 } },
};

test('the members are the wire names in the wire order', () => {
  assert.equal(
    searchResultMembers(result),
    '"hits":[{"id":"report","title":"Annual report","score":2.5,"format":"pdf","page":3,"page_label":"iii",'
      + '"snippet":"the fox","highlight":"the <mark>fox</mark>","metadata":{"year":2024,"tags":["a","b"]},'
      + '"matched_pages":[1,3],"explain":{"value":2.5,"description":"sum of","details":[{"value":2.5,"description":"fox","details":[]}]}},'
      + '{"id":"note","title":null,"score":1,"format":"text","page":null,"page_label":null,"snippet":"fox",'
      + '"highlight":"<mark>fox</mark>","metadata":{},"matched_pages":[]}],'
      + '"facets":{"year":{"2024":1}},"facet_stats":{"year":{"min":2024,"max":2024}},"total":2,"total_relation":"eq","timed_out":false',
  );
  const page = toSearchPage(result);
  assert.equal(page.total, 2);
  assert.equal(page.hitCount, 2);
});

test('facet_stats is left out when no field has numbers', () => {
  const members = searchResultMembers({ hits: [], total: 0, totalRelation: 'eq', timedOut: false, facets: {}, facetStats: {} });
  assert.equal(members, '"hits":[],"facets":{},"total":0,"total_relation":"eq","timed_out":false');
});

test('parseSearchMembers gives back the engine result, camelCase', () => {
  assert.deepEqual(parseSearchMembers(searchResultMembers(result)), result);
  assert.deepEqual(parseSearchMembers(searchResultMembers({ ...result, facetStats: {} })), { ...result, facetStats: {} });
});

test('an engine hit with pages and explain crosses with every wire field, in order', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-search-page-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const analyzer = Analyzer.for('english');
  const text = 'first page about cats\nsecond page about the fox';
  const doc: IndexDocument = {
    id: 'paged',
    title: 'Paged',
    text,
    pages: [{ number: 1, label: 'i', offset: 0 }, { number: 2, label: 'ii', offset: text.indexOf('second') }],
    metadata: { year: 2024 },
    format: 'pdf',
    bytes: text.length,
    indexedAt: '2026-11-21T00:00:00.000Z',
  };
  const file = path.join(dir, 'seg-1.fseg');
  writeSegment(file, [doc], analyzer);
  const reader = SegmentReader.open(file);
  const engine = searchSegments([{ reader, deleted: null }], analyzer, {
    q: 'fox', match: 'any', offset: 0, limit: 10, highlightTag: 'mark', explain: true, facets: ['year'],
  });
  reader.close();
  assert.equal(engine.hits[0]!.pageLabel, 'ii');
  assert.deepEqual(engine.hits[0]!.matchedPages, [2]);
  const wire = JSON.parse(`{${toSearchPage(engine).members}}`);
  assert.deepEqual(Object.keys(wire), ['hits', 'facets', 'facet_stats', 'total', 'total_relation', 'timed_out']);
  assert.deepEqual(Object.keys(wire.hits[0]), WIRE_HIT_KEYS);
  assert.equal(wire.hits[0].page_label, 'ii');
  assert.deepEqual(wire.hits[0].matched_pages, [2]);
  assert.deepEqual(Object.keys(wire.hits[0].explain), ['value', 'description', 'details']);
  assert.deepEqual(parseSearchMembers(searchResultMembers(engine)), JSON.parse(JSON.stringify(engine)));
});
