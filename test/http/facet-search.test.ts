// Facet value search (issue 31 point 3, docs/api.md "Facet value search") over real HTTP: the
// values of a field with a word starting with what was typed, typo-tolerant, counted among the
// documents the search text and filter match, fewer typos first then the most frequent; a key
// with a filter counts only its documents; bad requests name the field.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';

describe('facet value search', () => {
  let server: TestServer;
  const as = (key: string) => ({ authorization: `Bearer ${key}` });
  const search = (body: unknown, headers?: Record<string, string>) => server.request('POST', '/v1/collections/books/facet-search', body, headers);
  const pairs = (values: { value: unknown; count: number }[]) => values.map(({ value, count }) => [value, count]);

  before(async () => {
    server = await startTestServer({ refreshIntervalMs: 100 });
    assert.equal((await server.request('POST', '/v1/collections', { name: 'books' })).status, 201);
    const authors = ['Donald Knuth', 'Donald Knuth', 'Donald Knuth', 'Kneale', 'Donna Kent', 'Kurt Gödel', 'Ada Lovelace', 'Knuth'];
    const docs = authors.map((author, i) => ({
      id: `b${i}`,
      text: i % 2 === 0 ? 'algorithms and their analysis' : 'a history of logic',
      metadata: { author, shop: i < 4 ? 'north' : 'south', year: 1960 + i, topics: i % 2 === 0 ? ['algorithms', 'kernels'] : ['logic'] },
    }));
    const written = await server.request('POST', '/v1/collections/books/documents?refresh=wait_for', docs);
    assert.equal(written.status, 200, written.text);
  });
  after(() => server.close());

  test('a prefix of any word of the value, folded, with counts, fewer typos first then the most frequent', async () => {
    const found = await search({ facet: 'author', q: 'Kn' });
    assert.equal(found.status, 200, found.text);
    assert.deepEqual(pairs(found.body.values), [['Donald Knuth', 3], ['Kneale', 1], ['Knuth', 1]]);
    assert.equal(found.body.timed_out, false);
    assert.equal(typeof found.body.took_ms, 'number');
    assert.deepEqual(pairs((await search({ facet: 'author', q: 'godel' })).body.values), [['Kurt Gödel', 1]]);
    assert.deepEqual(pairs((await search({ facet: 'author', q: 'knuht' })).body.values), [['Donald Knuth', 3], ['Knuth', 1]], 'one typo from 5 letters');
    assert.deepEqual((await search({ facet: 'author', q: 'knuht', typos: 0 })).body.values, []);
    assert.deepEqual(pairs((await search({ facet: 'author', q: 'donald kn' })).body.values), [['Donald Knuth', 3]]);
    assert.deepEqual(pairs((await search({ facet: 'topics', q: 'k' })).body.values), [['kernels', 4]], 'values of arrays');
    assert.deepEqual(pairs((await search({ facet: 'author', limit: 2 })).body.values), [['Donald Knuth', 3], ['Ada Lovelace', 1]], 'no q: every value, by count');
    assert.deepEqual((await search({ facet: 'nothing', q: 'kn' })).body.values, []);
  });

  test('counted among the documents the query and the filter match', async () => {
    assert.deepEqual(pairs((await search({ facet: 'author', q: 'kn', query: 'algorithms' })).body.values), [['Donald Knuth', 2]]);
    assert.deepEqual(pairs((await search({ facet: 'author', q: 'kn', filter: { shop: 'south' } })).body.values), [['Knuth', 1]]);
    assert.deepEqual(pairs((await search({ facet: 'author', q: 'kn', query: 'algoritms' })).body.values), [['Donald Knuth', 2]], 'the query is typo-tolerant');
    assert.deepEqual((await search({ facet: 'author', q: 'kn', query: 'zeppelin' })).body.values, []);
  });

  test('a key with a filter counts only its documents; a key for other collections is refused', async () => {
    const north = await server.request('POST', '/v1/api-keys', { name: 'north', filter: { shop: 'north' } });
    assert.equal(north.status, 201, north.text);
    const seen = await search({ facet: 'author', q: 'kn' }, as(north.body.key));
    assert.deepEqual(pairs(seen.body.values), [['Donald Knuth', 3], ['Kneale', 1]]);
    const shops = await search({ facet: 'shop' }, as(north.body.key));
    assert.deepEqual(pairs(shops.body.values), [['north', 4]]);
    const other = await server.request('POST', '/v1/api-keys', { name: 'other', scopes: ['search'], collections: ['elsewhere'] });
    assert.equal((await search({ facet: 'author' }, as(other.body.key))).status, 403);
  });

  test('bad requests name the field', async () => {
    const badFacet = await search({ facet: '$bad' });
    assert.equal(badFacet.status, 400);
    assert.equal(badFacet.body.errors[0].path, '/body/facet');
    const missing = await search({ q: 'kn' });
    assert.equal(missing.status, 400);
    const badLimit = await search({ facet: 'author', limit: 101 });
    assert.equal(badLimit.status, 400);
    assert.equal(badLimit.body.errors[0].path, '/body/limit');
    const badFilter = await search({ facet: 'author', filter: { year: { $nope: 1 } } });
    assert.equal(badFilter.status, 400);
    assert.equal(badFilter.body.code, 'invalid_filter');
    const noCollection = await server.request('POST', '/v1/collections/nope/facet-search', { facet: 'author' });
    assert.equal(noCollection.status, 404);
    assert.equal(noCollection.body.code, 'collection_not_found');
  });
});
