// Collections (docs/api.md, "Collections"): create (201, 409 on a duplicate, 400 on a bad name), list, read,
// delete (204, files gone), unknown names (404), and the record's fields.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertFieldError, assertProblem } from '../helpers/problem-assertions.ts';
import { startTestServer } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';

const RFC3339_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

describe('collections', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  test('POST /v1/collections creates one: 201 with the collection record', async () => {
    const response = await server.request('POST', '/v1/collections', { name: 'books' });
    assert.equal(response.status, 201);
    const record = response.body;
    assert.deepEqual(Object.keys(record).sort(), ['created_at', 'documents', 'embedding', 'language', 'name', 'reindexing', 'segments', 'settings', 'size_bytes']);
    assert.equal(record.reindexing, null, 'nothing to index again');
    assert.equal(record.name, 'books');
    assert.equal(record.language, 'english');
    assert.match(record.created_at, RFC3339_UTC);
    assert.equal(record.documents, 0);
    assert.equal(typeof record.size_bytes, 'number');
    assert.equal(typeof record.segments, 'number');
  });

  test('a language can be chosen; an unknown one is a 400', async () => {
    const french = await server.request('POST', '/v1/collections', { name: 'livres', language: 'french' });
    assert.equal(french.status, 201);
    assert.equal(french.body.language, 'french');
    assertProblem(await server.request('POST', '/v1/collections', { name: 'alien', language: 'klingon' }), 400, 'validation_failed');
    assertProblem(await server.request('GET', '/v1/collections/alien'), 404, 'collection_not_found');
  });

  test('creating an existing collection → 409 collection_exists', async () => {
    await server.request('POST', '/v1/collections', { name: 'twice' });
    assertProblem(await server.request('POST', '/v1/collections', { name: 'twice' }), 409, 'collection_exists');
  });

  test('bad names → 400 validation_failed naming the field', async () => {
    for (const name of ['Books', '-books', '_x', 'a'.repeat(65), 'has space', 'a/b', 'ünï', '', '..']) {
      const response = await server.request('POST', '/v1/collections', { name });
      assertProblem(response, 400, 'validation_failed');
      assertFieldError(response, '/body/name');
    }
    const longest = await server.request('POST', '/v1/collections', { name: `a${'b'.repeat(63)}` });
    assert.equal(longest.status, 201);
  });

  test('a missing name, unknown properties or a non-object body → 400', async () => {
    assertFieldError(await server.request('POST', '/v1/collections', {}), '/body*');
    const extra = await server.request('POST', '/v1/collections', { name: 'extra', shards: 3 });
    assertProblem(extra, 400, 'validation_failed');
    assertFieldError(extra, '/body/shards');
    assertProblem(await server.request('POST', '/v1/collections', ['x']), 400, 'validation_failed');
    assertProblem(await server.request('POST', '/v1/collections', '{"name":', { 'content-type': 'application/json' }), 400, 'validation_failed');
    assertProblem(await server.request('POST', '/v1/collections'), 400, 'validation_failed');
  });

  test('GET lists collections; GET one returns its record', async () => {
    await server.request('POST', '/v1/collections', { name: 'listed' });
    const list = await server.request('GET', '/v1/collections');
    assert.equal(list.status, 200);
    assert.ok(Array.isArray(list.body.collections));
    const listed = list.body.collections.find((collection: { name: string }) => collection.name === 'listed');
    assert.ok(listed);
    const one = await server.request('GET', '/v1/collections/listed');
    assert.equal(one.status, 200);
    assert.deepEqual(one.body, listed);
  });

  test('unknown collection → 404 collection_not_found; a bad name in the path → 400', async () => {
    const missing = await server.request('GET', '/v1/collections/nothing-here');
    assertProblem(missing, 404, 'collection_not_found');
    assert.match(missing.body.detail, /nothing-here/);
    assertProblem(await server.request('DELETE', '/v1/collections/nothing-here'), 404, 'collection_not_found');
    assertProblem(await server.request('GET', '/v1/collections/Not_Valid'), 400, 'validation_failed');
  });

  test('DELETE removes a collection and its documents: 204, then 404', async () => {
    await server.request('POST', '/v1/collections', { name: 'doomed' });
    const write = await server.request('PUT', '/v1/collections/doomed/documents/d1?refresh=wait_for', { text: 'gone soon' });
    assert.equal(write.status, 200);
    const deleted = await server.request('DELETE', '/v1/collections/doomed');
    assert.equal(deleted.status, 204);
    assert.equal(deleted.text, '');
    assertProblem(await server.request('GET', '/v1/collections/doomed'), 404, 'collection_not_found');
    assertProblem(await server.request('DELETE', '/v1/collections/doomed'), 404, 'collection_not_found');
    const list = await server.request('GET', '/v1/collections');
    assert.ok(!list.body.collections.some((collection: { name: string }) => collection.name === 'doomed'));

    const again = await server.request('POST', '/v1/collections', { name: 'doomed' });
    assert.equal(again.status, 201);
    assert.equal(again.body.documents, 0, 'a recreated collection starts empty');
    assertProblem(await server.request('GET', '/v1/collections/doomed/documents/d1'), 404, 'document_not_found');
  });
});
