// Sorting over HTTP (docs/api.md, "Search"): `sort=year:desc,title:asc` with ties and missing values last in
// either direction, multi-valued fields by their smallest (asc) or largest (desc) value, the
// document title, `_id` and `_score`, fields that mix numbers, strings and booleans, ties
// broken by score then id, documents spread over several segments, and paging with a sort
// that is stable: the pages put together equal one big page.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';

type Doc = { id: string; title?: string; text: string; metadata?: Record<string, unknown> };

// Two batches, so two segments: sorting merges their winners by value.
const FIRST_BATCH: Doc[] = [
  { id: 's01', title: 'Alpha', text: 'fox and common words here', metadata: { set: 's', year: 2020 } },
  { id: 's02', title: 'Bravo', text: 'common', metadata: { set: 's', year: 2021 } },
  { id: 's03', title: 'Charlie', text: 'common', metadata: { set: 's', year: 2020 } },
  { id: 's04', title: 'alpha', text: 'common', metadata: { set: 's', year: 2019 } },
  { id: 'm1', title: 'Mixed ten', text: 'mixed', metadata: { set: 'm', mixed: 10 } },
  { id: 'm2', title: 'Mixed a', text: 'mixed', metadata: { set: 'm', mixed: 'a' } },
  { id: 'm3', title: 'Mixed true', text: 'mixed', metadata: { set: 'm', mixed: true } },
];
const SECOND_BATCH: Doc[] = [
  { id: 's05', text: 'common', metadata: { set: 's', year: 2021 } },
  { id: 's06', title: 'Delta', text: 'common', metadata: { set: 's' } },
  { id: 's07', title: 'Echo', text: 'common', metadata: { set: 's', year: [2018, 2022] } },
  { id: 's08', title: 'Alpha', text: 'fox fox fox common', metadata: { set: 's', year: 2020 } },
  { id: 'm4', title: 'Mixed five', text: 'mixed', metadata: { set: 'm', mixed: 5 } },
  { id: 'm5', title: 'Mixed B', text: 'mixed', metadata: { set: 'm', mixed: 'B' } },
  { id: 'm6', title: 'Mixed false', text: 'mixed', metadata: { set: 'm', mixed: false } },
];

const PAGED_COUNT = 60;

describe('search sort', () => {
  let server: TestServer;
  const search = async (collection: string, params: Record<string, string | number>) => {
    const query = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]));
    const response = await server.request('GET', `/v1/collections/${collection}/search?${query}`);
    assert.equal(response.status, 200, response.text);
    return response.body;
  };
  /** Ids in the order of `sort`; without q every score is 0, so only the sort keys and ids decide. */
  const sorted = async (sort: string, set = 's', q = ''): Promise<string[]> =>
    (await search('sorting', { q, sort, filter: JSON.stringify({ set }), limit: 100 })).hits.map((hit: { id: string }) => hit.id);

  before(async () => {
    server = await startTestServer({ refreshIntervalMs: 50 });
    for (const name of ['sorting', 'paging']) await server.request('POST', '/v1/collections', { name });
    for (const batch of [FIRST_BATCH, SECOND_BATCH]) {
      assert.equal((await server.request('POST', '/v1/collections/sorting/documents?refresh=wait_for', batch)).status, 200);
    }
    // Three batches of documents with few distinct values: many ties to break.
    for (let from = 0; from < PAGED_COUNT; from += PAGED_COUNT / 3) {
      const docs = Array.from({ length: PAGED_COUNT / 3 }, (_, i) => {
        const n = from + i;
        const metadata: Record<string, unknown> = { group: ['b', 'a', 'c'][n % 3] };
        if (n % 5 !== 0) metadata.rank = n % 4;
        return { id: `d${String((n * 37) % PAGED_COUNT).padStart(2, '0')}`, text: `paged ${'word '.repeat(n % 3)}`, metadata };
      });
      assert.equal((await server.request('POST', '/v1/collections/paging/documents?refresh=wait_for', docs)).status, 200);
    }
  });
  after(() => server.close());

  test('year:desc,title:asc: ties fall to the title, then score and id; missing values last', async () => {
    // s07's years are 2018 and 2022: descending sorts it by 2022. s05 has no title, s06 no year.
    assert.deepEqual(await sorted('year:desc,title:asc'), ['s07', 's02', 's05', 's01', 's08', 's03', 's04', 's06']);
  });

  test('ascending sorts a multi-valued field by its smallest value; missing values are still last', async () => {
    assert.deepEqual(await sorted('year:asc'), ['s07', 's04', 's01', 's03', 's08', 's02', 's05', 's06']);
    assert.deepEqual(await sorted('year'), await sorted('year:asc'), 'fields default to asc');
    assert.deepEqual(await sorted('year:DESC'), await sorted('year:desc'), 'directions are not case sensitive');
    // Field names are exact: no document has YEAR, so every value is missing and the id decides.
    assert.deepEqual(await sorted('YEAR:desc'), ['s01', 's02', 's03', 's04', 's05', 's06', 's07', 's08']);
  });

  test('title sorts by the document title, by code point; untitled documents last', async () => {
    assert.deepEqual(await sorted('title:asc'), ['s01', 's08', 's02', 's03', 's06', 's07', 's04', 's05']);
    assert.deepEqual(await sorted('title:desc'), ['s04', 's07', 's06', 's03', 's02', 's01', 's08', 's05']);
  });

  test('_id sorts by id; _score sorts by relevance', async () => {
    const ids = ['s01', 's02', 's03', 's04', 's05', 's06', 's07', 's08'];
    assert.deepEqual(await sorted('_id'), ids);
    assert.deepEqual(await sorted('_id:desc'), [...ids].reverse());
    const byScore = await search('sorting', { q: 'fox', sort: '_score:desc' });
    assert.deepEqual(byScore.hits.map((hit: { id: string }) => hit.id), ['s08', 's01']);
    assert.ok(byScore.hits[0].score > byScore.hits[1].score);
    assert.deepEqual(await sorted('_score:asc', 's', 'fox'), ['s01', 's08']);
  });

  test('equal sort values are ordered by score, then id', async () => {
    // s01 and s08 share title and year; s08 matches "fox" better, so it comes first.
    assert.deepEqual(await sorted('year:desc,title:asc', 's', 'fox'), ['s08', 's01']);
    assert.deepEqual(await sorted('title:asc,year:asc', 's', 'fox common'), ['s08', 's01', 's02', 's03', 's06', 's07', 's04', 's05']);
    // Without a query every score is 0, so the id decides.
    assert.deepEqual(await sorted('title:asc,year:asc'), ['s01', 's08', 's02', 's03', 's06', 's07', 's04', 's05']);
  });

  test('a field of mixed types sorts numbers, then strings, then booleans', async () => {
    assert.deepEqual(await sorted('mixed:asc', 'm'), ['m4', 'm1', 'm5', 'm2', 'm6', 'm3']);
    assert.deepEqual(await sorted('mixed:desc', 'm'), ['m3', 'm6', 'm2', 'm5', 'm1', 'm4']);
  });

  test('sort combines with a filter and facets, and POST takes an array', async () => {
    const response = await server.request('POST', '/v1/collections/sorting/search', {
      filter: { year: { gte: 2020 } },
      sort: ['year:desc', 'title:asc'],
      facets: ['year'],
    });
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.body.hits.map((hit: { id: string }) => hit.id), ['s07', 's02', 's05', 's01', 's08', 's03']);
    assert.deepEqual(response.body.facets.year, { 2018: 1, 2020: 3, 2021: 2, 2022: 1 });
    assert.deepEqual(response.body.facet_stats.year, { min: 2018, max: 2022 });
  });

  test('_score:desc followed by other keys uses them to break score ties', async () => {
    // Every score is 0 without a query: the second key must decide, not the id.
    assert.deepEqual(await sorted('_score:desc,year:asc'), ['s07', 's04', 's01', 's03', 's08', 's02', 's05', 's06']);
  });

  test('paging with a sort is stable: the pages put together equal one big page', async () => {
    for (const sort of ['group:asc,rank:desc', 'rank:asc', 'group:desc,_id:desc', 'title:asc']) {
      const whole = await search('paging', { sort, limit: 100 });
      assert.equal(whole.total, PAGED_COUNT);
      assert.equal(whole.has_more, false);
      const pages: string[] = [];
      for (let offset = 0; offset < PAGED_COUNT; offset += 7) {
        const page = await search('paging', { sort, offset, limit: 7 });
        assert.equal(page.total, PAGED_COUNT);
        assert.equal(page.has_more, offset + page.hits.length < PAGED_COUNT);
        pages.push(...page.hits.map((hit: { id: string }) => hit.id));
      }
      assert.deepEqual(pages, whole.hits.map((hit: { id: string }) => hit.id), sort);
      assert.equal(new Set(pages).size, PAGED_COUNT);
    }
    // group asc, rank desc (missing last), then id (every score is 0).
    type Hit = { id: string; metadata: { group: string; rank?: number } };
    const expectedOrder = (x: Hit, y: Hit): number => {
      if (x.metadata.group !== y.metadata.group) return x.metadata.group < y.metadata.group ? -1 : 1;
      const [rx, ry] = [x.metadata.rank, y.metadata.rank];
      if (rx !== ry) return rx === undefined ? 1 : ry === undefined ? -1 : ry - rx;
      return x.id < y.id ? -1 : 1;
    };
    const hits: Hit[] = (await search('paging', { sort: 'group:asc,rank:desc', limit: 100 })).hits;
    assert.deepEqual(hits.map((hit) => hit.id), [...hits].sort(expectedOrder).map((hit) => hit.id));
  });

  test('offset + limit over 10,000 is refused with a sort too', async () => {
    const response = await server.request('GET', '/v1/collections/paging/search?sort=rank:asc&offset=9950&limit=51');
    assert.equal(response.status, 400);
    assert.equal(response.body.code, 'validation_failed');
    const edge = await search('paging', { sort: 'rank:asc', offset: 9_900, limit: 100 });
    assert.deepEqual(edge.hits, []);
    assert.equal(edge.has_more, false);
  });
});
