// Keyword, semantic and hybrid searches over real HTTP agree on what matches (docs/api.md, "What
// matches by meaning"): `total`, facets, `has_more` and paging count the same documents in
// every mode — the keyword matches, the nearest documents, or both together — and documents
// written with their own vectors and `?refresh=wait_for` are found by meaning at once.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';

interface Hit {
  id: string;
}

describe('search modes count the same documents', () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ refreshIntervalMs: 100 });
    const created = await server.request('POST', '/v1/collections', { name: 'shop', embedders: { mine: { source: 'user', dimensions: 3 } } });
    assert.equal(created.status, 201, created.text);
  });
  after(() => server.close());

  test('documents with their own vectors are searchable by meaning once refresh=wait_for answers', async () => {
    const written = await server.request('POST', '/v1/collections/shop/documents?refresh=wait_for', [
      { id: 'apple', text: 'apple pie with cinnamon', metadata: { k: 'fruit' }, vectors: { mine: [1, 0, 0] } },
      { id: 'pear', text: 'ripe pear', metadata: { k: 'fruit' }, vectors: { mine: [0.9, 0.1, 0] } },
    ]);
    assert.equal(written.status, 200, written.text);
    // At once, no polling: wait_for promised they are searchable in every mode.
    const semantic = await server.request('POST', '/v1/collections/shop/search', { mode: 'semantic', vector: [1, 0, 0] });
    assert.equal(semantic.status, 200, semantic.text);
    assert.deepEqual(semantic.body.hits.map((hit: Hit) => hit.id), ['apple', 'pear']);
    assert.equal(semantic.body.semantic_coverage, 1);
    assert.equal(semantic.body.warnings, undefined, JSON.stringify(semantic.body.warnings));
    const record = await server.request('GET', '/v1/collections/shop');
    assert.equal(record.body.embedding.mine.embedded, 2);
    assert.equal(record.body.embedding.mine.pending, 0);
  });

  test('hybrid: total and facets count the keyword matches and the nearest documents, each once', async () => {
    const written = await server.request('POST', '/v1/collections/shop/documents?refresh=wait_for', [
      { id: 'lathe', text: 'a lathe for metal', metadata: { k: 'machine' }, vectors: { mine: [0, 1, 0] } },
      { id: 'drill', text: 'an apple shaped drill', metadata: { k: 'machine' }, vectors: { mine: [0, 0, 1] } },
    ]);
    assert.equal(written.status, 200, written.text);
    const hybrid = await server.request('POST', '/v1/collections/shop/search', { q: 'apple', mode: 'hybrid', vector: [1, 0, 0], facets: ['k'], limit: 2 });
    assert.equal(hybrid.status, 200, hybrid.text);
    // Four documents: "apple" and "drill" match the word, all four are among the 100 nearest.
    assert.equal(hybrid.body.total, 4);
    assert.deepEqual(hybrid.body.facets.k, { fruit: 2, machine: 2 });
    assert.equal(hybrid.body.has_more, true);
    const second = await server.request('POST', '/v1/collections/shop/search', { q: 'apple', mode: 'hybrid', vector: [1, 0, 0], facets: ['k'], limit: 2, offset: 2 });
    assert.equal(second.body.total, 4);
    assert.equal(second.body.hits.length, 2);
    assert.equal(second.body.has_more, false);
    const ids = [...hybrid.body.hits, ...second.body.hits].map((hit: Hit) => hit.id).sort();
    assert.deepEqual(ids, ['apple', 'drill', 'lathe', 'pear'], 'paging walks every counted document once');
  });

  test('semantic: facets count the documents that total counts', async () => {
    const filtered = await server.request('POST', '/v1/collections/shop/search', { mode: 'semantic', vector: [1, 0, 0], facets: ['k'], filter: { k: 'fruit' } });
    assert.equal(filtered.body.total, 2);
    assert.deepEqual(filtered.body.facets.k, { fruit: 2 });
    const all = await server.request('POST', '/v1/collections/shop/search', { mode: 'semantic', vector: [1, 0, 0], facets: ['k'] });
    assert.equal(all.body.total, 4);
    assert.deepEqual(all.body.facets.k, { fruit: 2, machine: 2 });
    // A document without a vector is not a semantic match, and is not counted.
    assert.equal((await server.request('PUT', '/v1/collections/shop/documents/plain?refresh=wait_for', { text: 'apple crate', metadata: { k: 'box' } })).status, 200);
    const again = await server.request('POST', '/v1/collections/shop/search', { mode: 'semantic', vector: [1, 0, 0], facets: ['k'] });
    assert.equal(again.body.total, 4);
    assert.deepEqual(again.body.facets.k, { fruit: 2, machine: 2 });
    assert.equal(again.body.hits.length, 4);
    const hybrid = await server.request('POST', '/v1/collections/shop/search', { q: 'apple', mode: 'hybrid', vector: [1, 0, 0], facets: ['k'] });
    assert.equal(hybrid.body.total, 5, 'the vectorless document matches by its words');
    assert.deepEqual(hybrid.body.facets.k, { fruit: 2, machine: 2, box: 1 });
  });
});
