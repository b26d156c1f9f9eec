// Search parameters that must be refused (SPEC §6, §9): limit, offset, the paging window,
// q length, match, highlight_tag and unknown parameters → 400 validation_failed; filters,
// facets and sorts (not supported yet) → 400 invalid_filter / invalid_sort; unknown
// collection → 404. Empty filter, facets and relevance sort are accepted.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertFieldError, assertProblem } from '../helpers/problem-assertions.ts';
import { startTestServer } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';

const SEARCH = '/v1/collections/films/search';

describe('invalid search parameters', () => {
  let server: TestServer;
  const get = (query: string) => server.request('GET', `${SEARCH}?${query}`);
  const post = (body: unknown) => server.request('POST', SEARCH, body);

  before(async () => {
    server = await startTestServer();
    await server.request('POST', '/v1/collections', { name: 'films' });
    await server.request('PUT', '/v1/collections/films/documents/heat?refresh=wait_for', { title: 'Heat', text: 'a heist film' });
  });
  after(() => server.close());

  test('limit outside 1–100, negative or fractional offset, sloppy numbers → 400', async () => {
    for (const [query, path] of [
      ['limit=0', '/querystring/limit'],
      ['limit=101', '/querystring/limit'],
      ['limit=ten', '/querystring/limit'],
      ['limit=1.5', '/querystring/limit'],
      ['offset=-1', '/querystring/offset'],
      ['offset=0.5', '/querystring/offset'],
      ['limit=', '/querystring/limit'],
      ['limit=0x10', '/querystring/limit'],
      ['limit=%205', '/querystring/limit'],
      ['limit=1&limit=2', '/querystring/limit'],
      ['offset=', '/querystring/offset'],
    ]) {
      const response = await get(query);
      assertProblem(response, 400, 'validation_failed');
      assertFieldError(response, path);
    }
    assertFieldError(await post({ limit: 0 }), '/body/limit');
    assertFieldError(await post({ limit: '5' }), '/body/limit');
    assertFieldError(await post({ offset: -3 }), '/body/offset');
  });

  test('offset + limit may not exceed 10,000', async () => {
    assertFieldError(await get('offset=9991&limit=10'), '/querystring/offset');
    assertProblem(await post({ offset: 9_999, limit: 2 }), 400, 'validation_failed');
    assertProblem(await get('offset=10000'), 400, 'validation_failed');
    const edge = await get('offset=9990&limit=10');
    assert.equal(edge.status, 200);
    assert.deepEqual(edge.body.hits, []);
  });

  test('q longer than 1,000 characters → 400; 1,000 is fine', async () => {
    assertFieldError(await get(`q=${'a'.repeat(1001)}`), '/querystring/q');
    assertFieldError(await post({ q: 'a'.repeat(1001) }), '/body/q');
    assert.equal((await get(`q=${'a'.repeat(1000)}`)).status, 200);
  });

  test('match other than any/all → 400', async () => {
    assertFieldError(await get('match=some'), '/querystring/match');
    assertFieldError(await post({ match: 'ALL' }), '/body/match');
  });

  test('highlight_tag must be a short lowercase element name', async () => {
    for (const tag of ['b%20onclick%3Dx', 'script%3E', 'B', '1a', 'a'.repeat(17), '']) {
      assertFieldError(await get(`q=heist&highlight_tag=${tag}`), '/querystring/highlight_tag');
    }
    const ok = await get('q=heist&highlight_tag=x-hl');
    assert.equal(ok.status, 200);
    assert.match(ok.body.hits[0].highlight, /<x-hl>heist<\/x-hl>/);
  });

  test('unknown parameters and bad explain values → 400', async () => {
    assertFieldError(await get('query=heist'), '/querystring/query');
    assertFieldError(await post({ query: 'heist' }), '/body/query');
    assertFieldError(await get('explain=maybe'), '/querystring/explain');
    assertFieldError(await get('explain=1'), '/querystring/explain');
    assert.equal((await get('q=heist&explain=true')).body.hits[0].explain.description.length > 0, true);
    const malformed = await server.request('POST', SEARCH, '{"q":', { 'content-type': 'application/json' });
    assertProblem(malformed, 400, 'validation_failed');
  });

  test('non-empty filters, facets and sorts are refused until they are supported', async () => {
    assertProblem(await get(`filter=${encodeURIComponent('{"year":2020}')}`), 400, 'invalid_filter');
    assertProblem(await get('filter=not-json'), 400, 'invalid_filter');
    assertProblem(await get(`filter=${encodeURIComponent('[1]')}`), 400, 'invalid_filter');
    assertProblem(await post({ filter: { year: 2020 } }), 400, 'invalid_filter');
    assertProblem(await get('facets=genre'), 400, 'invalid_filter');
    assertProblem(await get('facets=genre&facets=year'), 400, 'invalid_filter');
    assertProblem(await post({ facets: ['genre'] }), 400, 'invalid_filter');
    assertProblem(await get('sort=year:desc'), 400, 'invalid_sort');
    assertProblem(await post({ sort: 'title:asc' }), 400, 'invalid_sort');
    assertFieldError(await get('facet_limit=0'), '/querystring/facet_limit');
  });

  test('empty filters and facets, facet_limit and relevance sort are accepted', async () => {
    for (const query of ['filter=%7B%7D', 'filter=', 'facets=', 'sort=_score:desc', 'sort=_score', 'facet_limit=5']) {
      const response = await get(`q=heist&${query}`);
      assert.equal(response.status, 200, `${query}: ${response.text}`);
      assert.equal(response.body.total, 1);
      assert.deepEqual(response.body.facets, {});
    }
    const posted = await post({ q: 'heist', filter: {}, facets: [], sort: ['_score:desc'] });
    assert.equal(posted.status, 200, posted.text);
  });

  test('search in an unknown collection → 404 collection_not_found', async () => {
    assertProblem(await server.request('GET', '/v1/collections/nothing/search?q=x'), 404, 'collection_not_found');
    assertProblem(await server.request('POST', '/v1/collections/nothing/search', { q: 'x' }), 404, 'collection_not_found');
  });
});
