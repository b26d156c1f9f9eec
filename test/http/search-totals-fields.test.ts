// `total_relation`, `track_total` and hit `fields` over real HTTP (docs/api.md, "Search", issue 15 points 1
// and 2): past 10,000 matches a relevance search answers `total` 10,000 with `gte` (and
// `has_more`), `track_total` makes it exact, facets count every match; `fields=id` gives ids
// and scores only, on GET and POST; an unknown member is a 400 naming `fields`.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertFieldError, assertProblem } from '../helpers/problem-assertions.ts';
import { startTestServer } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';

const DOCS = 12_500;

describe('search: total_relation, track_total and fields', () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
    assert.equal((await server.request('POST', '/v1/collections', { name: 'many' })).status, 201);
    const docs = Array.from({ length: DOCS }, (_, i) => ({
      id: `n${String(i).padStart(5, '0')}`,
      title: i % 1000 === 0 ? `Lantern ${i}` : null,
      text: `A lantern note number ${i}${i % 5 === 0 ? ' with brass' : ''}.`,
      metadata: { shelf: i % 3 },
    }));
    for (let from = 0; from < DOCS; from += 5_000) {
      const response = await server.request('POST', '/v1/collections/many/documents?refresh=wait_for', docs.slice(from, from + 5_000));
      assert.equal(response.status, 200);
    }
  });
  after(() => server.close());

  test('past 10,000 matches: total 10,000 with gte and has_more; track_total counts them all', async () => {
    const counted = await server.request('GET', '/v1/collections/many/search?q=lantern&offset=9990&limit=10');
    assert.equal(counted.status, 200);
    assert.deepEqual([counted.body.total, counted.body.total_relation, counted.body.has_more], [10_000, 'gte', false]);
    const first = await server.request('GET', '/v1/collections/many/search?q=lantern%20brass');
    assert.deepEqual([first.body.total, first.body.total_relation, first.body.has_more], [10_000, 'gte', true]);
    const exact = await server.request('POST', '/v1/collections/many/search', { q: 'lantern brass', track_total: true });
    assert.deepEqual([exact.body.total, exact.body.total_relation], [DOCS, 'eq']);
    assert.deepEqual(first.body.hits.map((h: { id: string }) => h.id), exact.body.hits.map((h: { id: string }) => h.id));
    const faceted = await server.request('GET', '/v1/collections/many/search?q=lantern&facets=shelf');
    assert.deepEqual([faceted.body.total, faceted.body.total_relation], [DOCS, 'eq']);
    const few = await server.request('GET', '/v1/collections/many/search?q=brass');
    assert.deepEqual([few.body.total, few.body.total_relation], [DOCS / 5, 'eq']);
  });

  test('fields=id gives ids and scores only; fields names the members, on GET and POST', async () => {
    const full = await server.request('GET', '/v1/collections/many/search?q=lantern%20brass&limit=5');
    const ids = await server.request('GET', '/v1/collections/many/search?q=lantern%20brass&limit=5&fields=id');
    assert.equal(ids.status, 200);
    assert.deepEqual(ids.body.hits, full.body.hits.map(({ id, score }: { id: string; score: number }) => ({ id, score })));
    const some = await server.request('POST', '/v1/collections/many/search', { q: 'lantern brass', limit: 5, fields: ['title', 'highlight'] });
    assert.deepEqual(Object.keys(some.body.hits[0]), ['id', 'title', 'score', 'highlight']);
    assert.match(some.body.hits[0].highlight, /<mark>(lantern|brass)<\/mark>/i);
    const repeated = await server.request('GET', '/v1/collections/many/search?q=lantern&limit=1&fields=metadata&fields=page');
    assert.deepEqual(Object.keys(repeated.body.hits[0]), ['id', 'score', 'page', 'metadata']);
  });

  test('an unknown hit member in fields is a 400 naming fields', async () => {
    const response = await server.request('GET', '/v1/collections/many/search?q=lantern&fields=id,text');
    assertProblem(response, 400, 'validation_failed');
    assertFieldError(response, '/querystring/fields');
    assert.match(response.body.errors[0].message, /"text" is not a hit member/);
  });
});
