// Search across collections (issue 31 point 2, docs/api.md "Search across collections") over real
// HTTP: `POST /v1/multi-search` without `federation` answers each query's search response in
// order; with it, one list merged by score in which every collection scores as one collection
// holding all the documents would (checked against that collection); per-query parameters as a
// single search's, facets per collection, paging of the merged list; each query is checked
// against the key (a collection-limited key: 403 naming the query, nothing searched; a key with
// a filter: only its documents); bad queries say which query and field.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';

interface Hit {
  id: string;
  score: number;
  collection?: string;
  query?: number;
}

const WORDS = ['gnuplot', 'histogram', 'plotting', 'axis', 'label', 'legend', 'colour', 'terminal', 'output', 'scale'];

/** 45 documents with words of varied frequency; document i goes to collection i % 3. */
function documents(): { id: string; title: string; text: string; metadata: { kind: string; part: string } }[] {
  return Array.from({ length: 45 }, (_, i) => {
    const words = Array.from({ length: 4 + (i % 7) }, (_, j) => WORDS[(i * 7 + j * j * 3) % (3 + (i % 8))]);
    return { id: `d${i}`, title: WORDS[i % 5], text: words.join(' '), metadata: { kind: i % 2 === 0 ? 'even' : 'odd', part: `p${i % 3}` } };
  });
}

describe('multi-search', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-multi-search-'));
  let server: TestServer;
  const as = (key: string) => ({ authorization: `Bearer ${key}` });

  before(async () => {
    server = await startTestServer({ dataDir, refreshIntervalMs: 100 });
    const docs = documents();
    for (const name of ['all', 'p0', 'p1', 'p2']) {
      const created = await server.request('POST', '/v1/collections', { name });
      assert.equal(created.status, 201, created.text);
      const mine = name === 'all' ? docs : docs.filter((doc) => doc.metadata.part === name);
      const written = await server.request('POST', `/v1/collections/${name}/documents?refresh=wait_for`, mine);
      assert.equal(written.status, 200, written.text);
    }
  });
  after(async () => {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('without federation: each query answers a search response, in order, as a single search would', async () => {
    const queries = [
      { collection: 'p1', q: 'histogram', limit: 3, facets: ['kind'] },
      { collection: 'p0', q: 'gnuplot axis', match: 'all', fields: ['id'] },
      { collection: 'p1', q: 'legend', offset: 1, limit: 2 },
    ];
    const multi = await server.request('POST', '/v1/multi-search', { queries });
    assert.equal(multi.status, 200, multi.text);
    assert.equal(multi.body.results.length, 3);
    for (const [i, { collection, ...params }] of queries.entries()) {
      const single = await server.request('POST', `/v1/collections/${collection}/search`, params);
      const { collection: named, took_ms: _multiTook, ...result } = multi.body.results[i];
      const { took_ms: _singleTook, ...expected } = single.body;
      assert.equal(named, collection);
      assert.deepEqual(result, expected, `query ${i}`);
    }
    assert.ok(multi.body.results[0].facets.kind !== undefined);
  });

  test('federated: hits of every collection by one score, the same as one collection holding them all', async () => {
    for (const q of ['gnuplot histogram', 'legend colour terminal', 'histgram']) {
      const queries = ['p0', 'p1', 'p2'].map((collection) => ({ collection, q }));
      const federated = await server.request('POST', '/v1/multi-search', { queries, federation: { limit: 50 } });
      assert.equal(federated.status, 200, federated.text);
      const single = await server.request('POST', '/v1/collections/all/search', { q, limit: 50 });
      assert.deepEqual(
        federated.body.hits.map((hit: Hit) => hit.id),
        single.body.hits.map((hit: Hit) => hit.id),
        `${q}: the merged order is the one collection's`,
      );
      for (const [i, hit] of (federated.body.hits as Hit[]).entries()) {
        assert.ok(Math.abs(hit.score - single.body.hits[i].score) < 1e-9, `${q}: ${hit.id} scores as in one collection`);
        assert.equal(hit.collection, `p${Number(hit.id.slice(1)) % 3}`);
        assert.equal(hit.query, Number(hit.collection!.slice(1)));
      }
      assert.equal(federated.body.total, single.body.total);
      assert.equal(federated.body.total_relation, 'eq');
      assert.equal(federated.body.has_more, false);
    }
  });

  test('federated paging, facets per collection, and a collection queried twice', async () => {
    const queries = ['p0', 'p1', 'p2'].map((collection) => ({ collection, q: 'gnuplot' }));
    const whole = await server.request('POST', '/v1/multi-search', { queries, federation: { limit: 100 } });
    const ids = whole.body.hits.map((hit: Hit) => hit.id);
    assert.ok(ids.length > 6);
    const page = await server.request('POST', '/v1/multi-search', { queries, federation: { offset: 3, limit: 3 } });
    assert.deepEqual(page.body.hits.map((hit: Hit) => hit.id), ids.slice(3, 6));
    assert.equal(page.body.has_more, true);
    assert.equal(page.body.offset, 3);
    assert.equal(page.body.limit, 3);

    const faceted = await server.request('POST', '/v1/multi-search', {
      queries: [{ collection: 'p0', q: 'gnuplot', facets: ['kind'] }, { collection: 'p1', q: 'gnuplot' }],
      federation: {},
    });
    assert.equal(faceted.status, 200, faceted.text);
    const alone = await server.request('POST', '/v1/collections/p0/search', { q: 'gnuplot', facets: ['kind'] });
    assert.deepEqual(faceted.body.facets_by_collection, { p0: { facets: alone.body.facets } });
    assert.equal(faceted.body.limit, 10);

    const twice = await server.request('POST', '/v1/multi-search', {
      queries: [{ collection: 'p0', q: 'gnuplot' }, { collection: 'p0', q: 'gnuplot histogram' }],
      federation: { limit: 100 },
    });
    const twiceIds = twice.body.hits.map((hit: Hit) => hit.id);
    assert.equal(new Set(twiceIds).size, twiceIds.length, 'a document found by two queries appears once');

    const doubleFacets = await server.request('POST', '/v1/multi-search', {
      queries: [{ collection: 'p0', q: 'a', facets: ['kind'] }, { collection: 'p0', q: 'b', facets: ['kind'] }],
      federation: {},
    });
    assert.equal(doubleFacets.status, 400);
    assert.equal(doubleFacets.body.errors[0].path, '/body/queries/1/facets');
  });

  test('federated queries leave offset, limit and sort to the federation; bad queries name themselves', async () => {
    for (const field of ['offset', 'limit', 'sort']) {
      const value = field === 'sort' ? 'kind:asc' : 1;
      const answer = await server.request('POST', '/v1/multi-search', { queries: [{ collection: 'p0', q: 'x' }, { collection: 'p1', q: 'x', [field]: value }], federation: {} });
      assert.equal(answer.status, 400, field);
      assert.equal(answer.body.errors[0].path, `/body/queries/1/${field}`);
    }
    const badFilter = await server.request('POST', '/v1/multi-search', { queries: [{ collection: 'p0', q: 'x' }, { collection: 'p1', q: 'x', filter: { kind: { $nope: 1 } } }] });
    assert.equal(badFilter.status, 400);
    assert.match(badFilter.body.detail, /queries\/1 \(p1\)/);
    const badFacet = await server.request('POST', '/v1/multi-search', { queries: [{ collection: 'p0', facets: ['$bad'] }] });
    assert.equal(badFacet.status, 400);
    assert.equal(badFacet.body.errors[0].path, '/body/queries/0/facets');
    const missing = await server.request('POST', '/v1/multi-search', { queries: [{ collection: 'p0' }, { collection: 'nowhere' }] });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.code, 'collection_not_found');
    assert.equal(missing.body.errors[0].path, '/body/queries/1/collection');
    const none = await server.request('POST', '/v1/multi-search', { queries: [] });
    assert.equal(none.status, 400);
    const unknown = await server.request('POST', '/v1/multi-search', { queries: [{ collection: 'p0', nope: 1 }] });
    assert.equal(unknown.status, 400);
    const window = await server.request('POST', '/v1/multi-search', { queries: [{ collection: 'p0' }], federation: { offset: 9_999, limit: 10 } });
    assert.equal(window.status, 400);
    assert.equal(window.body.errors[0].path, '/body/federation/offset');
  });

  test('each query is checked against the key: another collection is 403 naming it, and nothing is searched', async () => {
    const limited = await server.request('POST', '/v1/api-keys', { name: 'p0 only', scopes: ['search'], collections: ['p0'] });
    assert.equal(limited.status, 201, limited.text);
    const before = (await server.request('GET', '/v1/stats')).body;
    const refused = await server.request('POST', '/v1/multi-search', { queries: [{ collection: 'p0', q: 'gnuplot' }, { collection: 'p2', q: 'gnuplot' }] }, as(limited.body.key));
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 'forbidden');
    assert.equal(refused.body.errors[0].path, '/body/queries/1/collection');
    const afterRefusal = (await server.request('GET', '/v1/stats')).body;
    assert.equal(afterRefusal.searches.total, before.searches.total, 'nothing was searched');
    const allowed = await server.request('POST', '/v1/multi-search', { queries: [{ collection: 'p0', q: 'gnuplot' }] }, as(limited.body.key));
    assert.equal(allowed.status, 200, allowed.text);
    const writer = await server.request('POST', '/v1/api-keys', { name: 'writer', scopes: ['write'] });
    const noScope = await server.request('POST', '/v1/multi-search', { queries: [{ collection: 'p0' }] }, as(writer.body.key));
    assert.equal(noScope.status, 403);
  });

  test('a key with a filter sees only its documents in every query, federated or not', async () => {
    const even = await server.request('POST', '/v1/api-keys', { name: 'even', filter: { kind: 'even' } });
    assert.equal(even.status, 201, even.text);
    const queries = ['p0', 'p1', 'p2'].map((collection) => ({ collection, q: 'gnuplot histogram', limit: 50, facets: ['kind'] }));
    const results = await server.request('POST', '/v1/multi-search', { queries }, as(even.body.key));
    assert.equal(results.status, 200, results.text);
    for (const result of results.body.results) {
      assert.ok(result.hits.every((hit: Hit) => Number(hit.id.slice(1)) % 2 === 0), 'only even documents');
      assert.deepEqual(Object.keys(result.facets.kind), result.total > 0 ? ['even'] : []);
    }
    const federated = await server.request('POST', '/v1/multi-search', { queries: queries.map(({ collection, q }) => ({ collection, q })), federation: { limit: 100 } }, as(even.body.key));
    assert.equal(federated.status, 200, federated.text);
    assert.ok(federated.body.hits.length > 0);
    assert.ok(federated.body.hits.every((hit: Hit) => Number(hit.id.slice(1)) % 2 === 0), 'only even documents');
    const unfiltered = await server.request('POST', '/v1/multi-search', { queries: queries.map(({ collection, q }) => ({ collection, q })), federation: { limit: 100 } });
    assert.deepEqual(
      federated.body.hits.map((hit: Hit) => hit.id),
      unfiltered.body.hits.map((hit: Hit) => hit.id).filter((id: string) => Number(id.slice(1)) % 2 === 0),
    );
    const explained = await server.request('POST', '/v1/multi-search', { queries: [{ collection: 'p0', q: 'gnuplot', explain: true }] }, as(even.body.key));
    assert.equal(explained.status, 400);
    assert.equal(explained.body.errors[0].path, '/body/queries/0/explain');
  });
});
