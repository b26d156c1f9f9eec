// Delete by filter over HTTP (docs/api.md, "Documents"): `POST …/documents/delete` with `{ filter }` answers
// `{ deleted }`, judges each document by its current version (realtime: writes that are not
// searchable yet count, older committed versions do not), hides the deletions from search
// once it answers with `?refresh=wait_for`, and deletes nothing on a bad or empty filter.
// Most tests use a server that refreshes only when asked, so "not searchable yet" is a stable
// state; those about `wait_for` (which waits for the next background refresh) use one that
// refreshes every second.

import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { assertFieldError, assertProblem } from '../helpers/problem-assertions.ts';
import { startTestServer } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';

/** Long enough that no background refresh runs during a test. */
const MANUAL_REFRESH_MS = 60_000;
/** Long enough to see a write before it is searchable, short enough to wait for. */
const TIMED_REFRESH_MS = 1_000;

describe('delete by filter', () => {
  let manual: TestServer;
  let timed: TestServer;
  /** The server the running test talks to. */
  let server: TestServer;
  const path = (collection: string, query = '') => `/v1/collections/${collection}/documents/delete${query}`;
  const deleteWhere = (collection: string, filter: unknown, query = '') => server.request('POST', path(collection, query), { filter });
  /** Writes documents; `refresh` makes them searchable before answering. */
  const write = async (collection: string, docs: unknown[], refresh = true) => {
    const response = await server.request('POST', `/v1/collections/${collection}/documents`, docs);
    assert.equal(response.status, 200, response.text);
    if (refresh) assert.equal((await server.request('POST', `/v1/collections/${collection}/refresh`)).status, 200);
  };
  const documents = async (collection: string) => (await server.request('GET', `/v1/collections/${collection}`)).body.documents;
  const searchIds = async (collection: string, filter: unknown = {}) => {
    const response = await server.request('POST', `/v1/collections/${collection}/search`, { filter, limit: 100 });
    assert.equal(response.status, 200, response.text);
    return response.body.hits.map((hit: { id: string }) => hit.id).sort();
  };
  const exists = async (collection: string, id: string) =>
    (await server.request('GET', `/v1/collections/${collection}/documents/${id}`)).status === 200;
  const newCollection = async (name: string) => {
    assert.equal((await server.request('POST', '/v1/collections', { name })).status, 201);
  };
  const doc = (id: string, metadata: Record<string, unknown>) => ({ id, text: `document ${id}`, metadata });

  before(async () => {
    manual = await startTestServer({ refreshIntervalMs: MANUAL_REFRESH_MS });
    timed = await startTestServer({ refreshIntervalMs: TIMED_REFRESH_MS });
  });
  beforeEach(() => {
    server = manual;
  });
  after(async () => {
    await manual.close();
    await timed.close();
  });

  test('answers how many documents matched and were deleted', async () => {
    server = timed;
    await newCollection('counts');
    await write('counts', [
      doc('a', { kind: 'draft', year: 2020 }),
      doc('b', { kind: 'draft', year: 2021 }),
      doc('c', { kind: 'final', year: 2021 }),
      doc('d', { kind: 'final', year: 2023 }),
      doc('e', { year: 2024 }),
    ]);
    const response = await deleteWhere('counts', { kind: 'draft' }, '?refresh=wait_for');
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.body, { deleted: 2 });
    assert.equal(await documents('counts'), 3);
    assert.deepEqual(await searchIds('counts'), ['c', 'd', 'e']);
    assert.deepEqual((await deleteWhere('counts', { kind: 'draft' })).body, { deleted: 0 });
    assert.deepEqual((await deleteWhere('counts', { $or: [{ year: { gte: 2023 } }, { $not: { kind: 'final' } }] }, '?refresh=true')).body, { deleted: 2 });
    assert.deepEqual(await searchIds('counts'), ['c']);
    assert.equal(await exists('counts', 'c'), true);
    assert.equal(await exists('counts', 'e'), false);
  });

  test('is realtime: unrefreshed writes are judged by their new version', async () => {
    await newCollection('realtime');
    await write('realtime', [doc('old-a', { status: 'a' }), doc('old-b', { status: 'a' }), doc('old-c', { status: 'a' })]);
    // Not refreshed: a new document, a changed one, and a deleted one.
    await write('realtime', [doc('new-a', { status: 'a' }), doc('old-b', { status: 'b' })], false);
    assert.equal((await server.request('DELETE', '/v1/collections/realtime/documents/old-c')).status, 204);
    assert.equal(await documents('realtime'), 3);

    const response = await deleteWhere('realtime', { status: 'a' });
    assert.deepEqual(response.body, { deleted: 2 }, 'old-a (committed) and new-a (pending); not old-b, whose new status is b, nor the deleted old-c');
    assert.equal(await exists('realtime', 'old-a'), false);
    assert.equal(await exists('realtime', 'new-a'), false);
    assert.equal(await exists('realtime', 'old-b'), true);
    assert.equal(await documents('realtime'), 1);
    assert.deepEqual((await deleteWhere('realtime', { status: 'b' })).body, { deleted: 1 });
    assert.equal(await documents('realtime'), 0);
    await server.request('POST', '/v1/collections/realtime/refresh');
    assert.deepEqual(await searchIds('realtime'), []);
  });

  test('a PATCH that is not refreshed yet decides what matches', async () => {
    await newCollection('patched');
    await write('patched', [doc('p1', { tier: 'free' }), doc('p2', { tier: 'free' })]);
    const patch = await server.request('PATCH', '/v1/collections/patched/documents/p1', { metadata: { tier: 'paid' } });
    assert.equal(patch.status, 200);
    assert.deepEqual((await deleteWhere('patched', { tier: 'free' })).body, { deleted: 1 });
    await server.request('POST', '/v1/collections/patched/refresh');
    assert.deepEqual(await searchIds('patched'), ['p1']);
    assert.deepEqual(await searchIds('patched', { tier: 'paid' }), ['p1']);
  });

  test('without wait_for, search still sees deleted documents until a refresh; with it, never', async () => {
    server = timed;
    await newCollection('visibility');
    await write('visibility', [doc('v1', { n: 1 }), doc('v2', { n: 2 }), doc('v3', { n: 3 })]);
    assert.deepEqual((await deleteWhere('visibility', { n: 1 })).body, { deleted: 1 });
    assert.deepEqual(await searchIds('visibility'), ['v1', 'v2', 'v3'], 'not refreshed yet');
    assert.equal(await exists('visibility', 'v1'), false, 'GET is realtime');
    assert.deepEqual((await deleteWhere('visibility', { n: { gte: 2 } }, '?refresh=wait_for')).body, { deleted: 2 });
    assert.deepEqual(await searchIds('visibility'), [], 'both deletes are searchable now');
    const facets = await server.request('GET', '/v1/collections/visibility/search?facets=n');
    assert.deepEqual(facets.body.facets, { n: {} });
  });

  test('deletes across several segments and can be undone by writing again', async () => {
    await newCollection('segments');
    await write('segments', Array.from({ length: 30 }, (_, i) => doc(`x${i}`, { mod: i % 3 })));
    await write('segments', Array.from({ length: 30 }, (_, i) => doc(`y${i}`, { mod: i % 3 })));
    await write('segments', [doc('x0', { mod: 1 })]); // replaces x0 (mod 0) in a third segment
    const response = await deleteWhere('segments', { mod: 0 });
    assert.deepEqual(response.body, { deleted: 19 });
    await server.request('POST', '/v1/collections/segments/refresh');
    assert.ok((await server.request('GET', '/v1/collections/segments')).body.segments >= 2);
    assert.equal(await documents('segments'), 41);
    const facets = await server.request('GET', '/v1/collections/segments/search?facets=mod');
    assert.deepEqual(facets.body.facets.mod, { 1: 21, 2: 20 });
    await write('segments', [doc('x3', { mod: 0 })]);
    assert.deepEqual(await searchIds('segments', { mod: 0 }), ['x3']);
  });

  test('a bad filter → 400 invalid_filter, and nothing is deleted', async () => {
    await newCollection('guarded');
    await write('guarded', [doc('g1', { year: 2020 }), doc('g2', { year: 2021 })]);
    for (const [filter, detail] of [
      [{ year: { after: 2000 } }, /^filter\.year: "after" is not a range bound/],
      [{ $and: [{ year: 2020 }] }, /unknown operator "\$and"/],
      [{ year: 2020, $or: [] }, /filter\.\$or: must list at least one filter object/],
      [Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`f${i}`, i])), /too many clauses/],
    ] as const) {
      const response = await deleteWhere('guarded', filter);
      assertProblem(response, 400, 'invalid_filter');
      assert.match(response.body.detail, detail);
    }
    assert.equal(await documents('guarded'), 2);
  });

  test('an empty, missing or non-object filter → 400 validation_failed, and nothing is deleted', async () => {
    await newCollection('empty');
    await write('empty', [doc('e1', {}), doc('e2', { year: 1 })]);
    const empty = await deleteWhere('empty', {});
    assertProblem(empty, 400, 'validation_failed');
    assert.deepEqual(empty.body.errors, [{ path: '/body/filter', message: 'must not be empty' }]);
    for (const body of [{}, { filter: null }, { filter: [{ year: 1 }] }, { filter: '{"year":1}' }, { filter: { year: 1 }, extra: 1 }]) {
      const response = await server.request('POST', path('empty'), body);
      assertProblem(response, 400, 'validation_failed');
      assertFieldError(response, '/body*');
    }
    assertProblem(await server.request('POST', path('empty')), 400, 'validation_failed');
    assertProblem(await server.request('POST', path('empty', '?refresh=now'), { filter: { year: 1 } }), 400, 'validation_failed');
    assertProblem(
      await server.request('POST', path('empty'), '{"year":1}\n', { 'content-type': 'application/x-ndjson' }),
      415,
      'unsupported_media_type',
    );
    assert.equal(await documents('empty'), 2);
  });

  test('an unknown collection → 404; the route does not shadow documents named "delete"', async () => {
    assertProblem(await deleteWhere('nowhere', { a: 1 }), 404, 'collection_not_found');
    await newCollection('named');
    assert.equal((await server.request('PUT', '/v1/collections/named/documents/delete', { text: 'a document called delete' })).status, 200);
    const stored = await server.request('GET', '/v1/collections/named/documents/delete');
    assert.equal(stored.status, 200);
    assert.equal(stored.body.text, 'a document called delete');
    assert.equal((await server.request('DELETE', '/v1/collections/named/documents/delete')).status, 204);
  });
});
