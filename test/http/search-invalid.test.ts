// Search parameters that must be refused (docs/api.md, "Search", "Limits"): limit, offset, the paging window,
// q length, match, highlight_tag (no script, style, iframe, svg…), unknown parameters, bad facet names and facet_limit → 400
// validation_failed; bad filters → 400 invalid_filter and bad sorts → 400 invalid_sort, each
// with a detail naming the problem; unknown collection → 404. Empty filter, facets and sort
// are accepted.

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

  test('highlight_tag is a text-styling element or a custom element, never one that runs or loads anything', async () => {
    const refused = ['b%20onclick%3Dx', 'script%3E', 'B', '1a', `a-${'a'.repeat(15)}`, '', 'script', 'style', 'iframe', 'svg', 'img', 'object', 'a', 'form', 'xmp', 'textarea', 'title'];
    for (const tag of refused) {
      assertFieldError(await get(`q=heist&highlight_tag=${tag}`), '/querystring/highlight_tag');
    }
    for (const tag of ['x-hl', 'em', 'strong', 'span']) {
      const ok = await get(`q=heist&highlight_tag=${tag}`);
      assert.equal(ok.status, 200, tag);
      assert.match(ok.body.hits[0].highlight, new RegExp(`<${tag}>heist</${tag}>`));
    }
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

  test('a bad filter → 400 invalid_filter, with a detail naming the problem', async () => {
    const badFilter = async (filter: unknown, detail: RegExp) => {
      const text = typeof filter === 'string' ? filter : JSON.stringify(filter);
      const viaGet = await get(`filter=${encodeURIComponent(text)}`);
      assertProblem(viaGet, 400, 'invalid_filter');
      assert.match(viaGet.body.detail, detail);
      if (typeof filter !== 'string') {
        const viaPost = await post({ filter });
        assertProblem(viaPost, 400, 'invalid_filter');
        assert.equal(viaPost.body.detail, viaGet.body.detail);
      }
    };
    await badFilter('not-json', /filter is not valid JSON/);
    await badFilter('{"year": 2020', /filter is not valid JSON/);
    await badFilter('[1]', /^filter: must be a JSON object, not an array/);
    await badFilter('"year"', /^filter: must be a JSON object/);
    await badFilter({ $and: [{ a: 1 }] }, /^filter\.\$and: unknown operator "\$and"/);
    await badFilter({ year: { $gte: 2020 } }, /^filter\.year: "\$gte" is not a range bound/);
    await badFilter({ author: { name: 'x' } }, /^filter\.author: "name" is not a range bound/);
    await badFilter({ year: { gte: 2020, lt: '2024' } }, /^filter\.year: range bounds must be all numbers or all strings/);
    await badFilter({ year: { gte: true } }, /^filter\.year\.gte: a range bound must be a number or a string/);
    await badFilter({ year: {} }, /^filter\.year: a range needs at least one of gt, gte, lt, lte/);
    await badFilter({ tags: [] }, /^filter\.tags: must list at least one value/);
    await badFilter({ tags: [['a']] }, /^filter\.tags\[0\]: must be a string, number or boolean, not an array/);
    await badFilter({ year: null }, /^filter\.year: must be a string, number or boolean, not null/);
    await badFilter({ $or: { a: 1 } }, /^filter\.\$or: must be an array of filter objects/);
    await badFilter({ $or: [] }, /^filter\.\$or: must list at least one filter object/);
    await badFilter({ $not: [{ a: 1 }] }, /^filter\.\$not: must be a filter object, not an array/);
    await badFilter({ 'a:b': 1 }, /is not an allowed field name/);
    let deep: Record<string, unknown> = { year: 1 };
    for (let i = 0; i < 8; i++) deep = { $not: deep };
    await badFilter(deep, /filters may nest at most 8 objects deep/);
    const clauses = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`f${i}`, i]));
    await badFilter(clauses, /too many clauses: a filter may have at most 64 field conditions/);
    await badFilter({ $or: Array.from({ length: 65 }, (_, i) => ({ year: i })) }, /too many clauses/);
  });

  test('filters at the limits are accepted', async () => {
    let deep: Record<string, unknown> = { year: 1 };
    for (let i = 0; i < 7; i++) deep = { $not: deep };
    assert.equal((await post({ filter: deep })).status, 200);
    const clauses = Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`f${i}`, i]));
    assert.equal((await get(`filter=${encodeURIComponent(JSON.stringify(clauses))}`)).status, 200);
  });

  test('a POST filter that is not an object or null → 400 validation_failed', async () => {
    for (const filter of [[{ year: 1 }], '{"year":1}', 5]) {
      const response = await post({ filter });
      assertProblem(response, 400, 'validation_failed');
      assertFieldError(response, '/body/filter');
    }
    assertProblem(await get(`filter=a&filter=b`), 400, 'validation_failed');
  });

  test('a bad sort → 400 invalid_sort, with a detail naming the key', async () => {
    const badSort = async (sort: string | string[], detail: RegExp) => {
      const response = typeof sort === 'string' ? await get(`sort=${encodeURIComponent(sort)}`) : await post({ sort });
      assertProblem(response, 400, 'invalid_sort');
      assert.match(response.body.detail, detail);
    };
    await badSort('year:desc,title:asc,_id:asc,rating:desc', /at most 3 keys/);
    await badSort(['year', 'title', 'rating', '_id'], /at most 3 keys/);
    await badSort('year:up', /sort key "year:up": the direction must be "asc" or "desc", not "up"/);
    await badSort('year:', /the direction must be "asc" or "desc", not ""/);
    await badSort('year:desc:asc', /the direction must be "asc" or "desc"/);
    await badSort('$year', /"\$year" is not an allowed field name/);
    await badSort('year,year:desc', /a second time/);
    assertProblem(await post({ sort: 5 }), 400, 'validation_failed');
  });

  test('bad facet names, too many facets and facet_limit outside 1–1000 → 400 validation_failed', async () => {
    for (const query of ['facets=%24or', 'facets=a:b', `facets=${'x'.repeat(129)}`, 'facets=genre&facets=%24x']) {
      const response = await get(query);
      assertProblem(response, 400, 'validation_failed');
      assertFieldError(response, '/querystring/facets');
      assert.match(response.body.errors[0].message, /is not an allowed field name/);
    }
    assertFieldError(await post({ facets: ['ok', '$bad'] }), '/body/facets');
    const fields = Array.from({ length: 21 }, (_, i) => `f${i}`);
    const tooMany = await get(`facets=${fields.join(',')}`);
    assertProblem(tooMany, 400, 'validation_failed');
    assert.match(tooMany.body.errors[0].message, /at most 20/);
    assert.equal((await get(`facets=${fields.slice(0, 20).join(',')}`)).status, 200);
    assert.equal((await get(`facets=${[...fields.slice(0, 20), 'f0', 'f1'].join(',')}`)).status, 200, 'duplicates count once');
    assertFieldError(await get('facet_limit=0'), '/querystring/facet_limit');
    assertFieldError(await get('facet_limit=1001'), '/querystring/facet_limit');
    assertFieldError(await post({ facet_limit: 2.5 }), '/body/facet_limit');
    assert.equal((await get('facet_limit=1000&facets=genre')).status, 200);
  });

  test('empty filters, facets and sorts are accepted', async () => {
    for (const query of ['filter=%7B%7D', 'filter=', 'facets=', 'facets=,', 'sort=', 'sort=_score:desc', 'sort=_score', 'facet_limit=5']) {
      const response = await get(`q=heist&${query}`);
      assert.equal(response.status, 200, `${query}: ${response.text}`);
      assert.equal(response.body.total, 1);
      assert.deepEqual(response.body.facets, {});
    }
    const posted = await post({ q: 'heist', filter: {}, facets: [], sort: [] });
    assert.equal(posted.status, 200, posted.text);
    assert.equal((await post({ q: 'heist', filter: null, facets: '', sort: '' })).status, 200);
  });

  test('search in an unknown collection → 404 collection_not_found', async () => {
    assertProblem(await server.request('GET', '/v1/collections/nothing/search?q=x'), 404, 'collection_not_found');
    assertProblem(await server.request('POST', '/v1/collections/nothing/search', { q: 'x' }), 404, 'collection_not_found');
  });
});
