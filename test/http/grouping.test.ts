// Grouping over HTTP (issue 30 point 4, docs/api.md "Grouping"): `distinct` and `group_size` on
// GET and POST, with filters, sort, facets and paging, in keyword, semantic and hybrid modes —
// `total`, `has_more` and paging count groups, facets count documents — and bad values refused.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';
import { assertFieldError } from '../helpers/problem-assertions.ts';

interface Hit {
  id: string;
}

const VARIANTS = [
  { id: 'tee-s', text: 'cotton tee shirt shirt', metadata: { product: 'tee', size: 's' }, vectors: { mine: [1, 0, 0] } },
  { id: 'tee-m', text: 'cotton tee shirt', metadata: { product: 'tee', size: 'm' }, vectors: { mine: [0.9, 0.1, 0] } },
  { id: 'polo-s', text: 'cotton polo shirt', metadata: { product: 'polo', size: 's' }, vectors: { mine: [0.8, 0.2, 0] } },
  { id: 'polo-m', text: 'linen polo shirt', metadata: { product: 'polo', size: 'm' }, vectors: { mine: [0, 1, 0] } },
  { id: 'cap', text: 'cotton cap', metadata: { size: 'm' }, vectors: { mine: [0, 0, 1] } },
];

describe('grouping', () => {
  let server: TestServer;
  const ids = (body: { hits: Hit[] }) => body.hits.map((hit) => hit.id);

  before(async () => {
    server = await startTestServer();
    const created = await server.request('POST', '/v1/collections', { name: 'shop', embedders: { mine: { source: 'user', dimensions: 3 } } });
    assert.equal(created.status, 201, created.text);
    assert.equal((await server.request('POST', '/v1/collections/shop/documents?refresh=wait_for', VARIANTS)).status, 200);
  });
  after(() => server.close());

  test('distinct keeps one hit a product; total, paging and has_more count groups; facets count documents', async () => {
    const get = await server.request('GET', '/v1/collections/shop/search?q=shirt&distinct=product&facets=size');
    assert.equal(get.status, 200, get.text);
    assert.deepEqual(ids(get.body), ['tee-s', 'polo-m'], 'equal scores: the lower id');
    assert.equal(get.body.total, 2);
    assert.deepEqual(get.body.facets.size, { s: 2, m: 2 });
    const page = await server.request('POST', '/v1/collections/shop/search', { q: 'cotton', distinct: 'product', group_size: 2, limit: 1, offset: 1 });
    // By rank: the cap (the shortest), polo-s and tee-m (equal: by id), tee-s: the second group is the polo.
    assert.deepEqual(ids(page.body), ['polo-s']);
    assert.equal(page.body.total, 3, 'tee, polo, and the cap without a product');
    assert.equal(page.body.has_more, true);
    const filtered = await server.request('POST', '/v1/collections/shop/search', { q: 'shirt', distinct: 'product', group_size: 2, filter: { size: 'm' } });
    assert.deepEqual(ids(filtered.body), ['polo-m', 'tee-m']);
    const sorted = await server.request('POST', '/v1/collections/shop/search', { q: '', distinct: 'size', sort: '_id:desc' });
    assert.deepEqual(ids(sorted.body), ['tee-s', 'tee-m']);
  });

  test('semantic and hybrid searches group their matches too', async () => {
    const semantic = await server.request('POST', '/v1/collections/shop/search', { mode: 'semantic', vector: [1, 0, 0], distinct: 'product', facets: ['product'] });
    assert.equal(semantic.status, 200, semantic.text);
    assert.deepEqual(ids(semantic.body), ['tee-s', 'polo-s', 'cap']);
    assert.equal(semantic.body.total, 3);
    assert.deepEqual(semantic.body.facets.product, { tee: 2, polo: 2 });
    const hybrid = await server.request('POST', '/v1/collections/shop/search', { q: 'linen', mode: 'hybrid', vector: [0, 1, 0], distinct: 'product', group_size: 2 });
    assert.equal(hybrid.status, 200, hybrid.text);
    assert.equal(ids(hybrid.body)[0], 'polo-m');
    assert.equal(hybrid.body.total, 3);
  });

  test('bad grouping is refused naming the parameter', async () => {
    const size = await server.request('GET', '/v1/collections/shop/search?q=shirt&distinct=product&group_size=101');
    assert.equal(size.status, 400);
    assertFieldError(size, '/querystring/group_size');
    const alone = await server.request('GET', '/v1/collections/shop/search?q=shirt&group_size=2');
    assert.equal(alone.status, 400);
    assertFieldError(alone, '/querystring/group_size');
    const name = await server.request('POST', '/v1/collections/shop/search', { q: 'shirt', distinct: '$product' });
    assert.equal(name.status, 400);
    assertFieldError(name, '/body/distinct');
    const window = await server.request('POST', '/v1/collections/shop/search', { q: 'shirt', distinct: 'product', group_size: 100, offset: 50, limit: 100 });
    assert.equal(window.status, 400);
    assertFieldError(window, '/body/group_size');
    const unknown = await server.request('GET', '/v1/collections/shop/search?q=shirt&distinct=colour');
    assert.equal(unknown.status, 200);
    assert.match(JSON.stringify(unknown.body.warnings), /distinct: no document of this collection has the field 'colour'/);
  });
});
