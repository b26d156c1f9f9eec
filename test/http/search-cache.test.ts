// The search cache never serves a stale answer: the same search after a write became searchable
// (or a delete, or a re-created collection of the same name) sees the change.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer } from '../helpers/test-server.ts';

test('repeated searches see every change once it is searchable', async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const search = async () => (await server.request('GET', '/v1/collections/c/search?q=cached+words&facets=n')).body;
  await server.request('POST', '/v1/collections', { name: 'c' });
  await server.request('POST', '/v1/collections/c/documents?refresh=wait_for', [{ id: 'a', text: 'cached words', metadata: { n: 1 } }]);
  assert.equal((await search()).total, 1);
  assert.equal((await search()).total, 1);

  await server.request('PUT', '/v1/collections/c/documents/b?refresh=wait_for', { text: 'more cached words', metadata: { n: 2 } });
  const afterWrite = await search();
  assert.equal(afterWrite.total, 2);
  assert.deepEqual(afterWrite.facets.n, { '1': 1, '2': 1 });

  await server.request('DELETE', '/v1/collections/c/documents/a?refresh=wait_for');
  assert.deepEqual((await search()).hits.map((hit: { id: string }) => hit.id), ['b']);

  await server.request('DELETE', '/v1/collections/c');
  await server.request('POST', '/v1/collections', { name: 'c' });
  assert.equal((await search()).total, 0, 'a new collection of the same name starts empty');
});
