// Worker threads start with the work that needs them (issue 15: an empty server's idle memory):
// a server without collections runs no search or index thread; creating a collection starts
// the search threads; the first write starts an index thread; a server restarted on a data
// directory with collections starts its search threads at once, before any search; the ingest
// thread starts with the first NDJSON body too large to parse inline.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INLINE_PARSE_BYTES } from '../../server/pools/index.ts';
import { startTestServer } from '../helpers/test-server.ts';

test('an empty server holds no worker thread until a collection or a write needs one', async (t) => {
  const server = await startTestServer({ searchThreads: 2 });
  t.after(() => server.close());
  const { search, index } = server.app.workers;
  assert.equal((await server.request('GET', '/v1/health')).status, 200);
  assert.equal((await server.request('GET', '/v1/collections')).status, 200);
  assert.equal(search.threads.length, 0, 'no search thread on an empty server');
  assert.equal(index.threads.length, 0, 'no index thread on an empty server');

  assert.equal((await server.request('POST', '/v1/collections', { name: 'c' })).status, 201);
  assert.equal(search.threads.length, 2, 'a collection starts the search threads');
  assert.equal(index.threads.length, 0, 'nothing to index yet');

  assert.equal((await server.request('POST', '/v1/collections/c/documents?refresh=true', [{ id: 'a', text: 'first words' }])).status, 200);
  assert.ok(index.threads.length >= 1, 'the refresh started an index thread');
  const found = await server.request('GET', '/v1/collections/c/search?q=words');
  assert.equal(found.status, 200);
  assert.deepEqual(found.body.hits.map((hit: { id: string }) => hit.id), ['a']);
});

test('a large NDJSON batch is parsed in the ingest thread, a small one inline', async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const { ingest } = server.app.documents;
  assert.equal((await server.request('POST', '/v1/collections', { name: 'c' })).status, 201);
  const ndjson = (count: number, prefix: string): string =>
    Array.from({ length: count }, (_, i) => JSON.stringify({ id: `${prefix}-${i}`, text: `batch words ${'filler '.repeat(20)}` })).join('\n');
  const post = (body: string) => server.request('POST', '/v1/collections/c/documents?refresh=true', body, { 'content-type': 'application/x-ndjson' });

  const small = ndjson(10, 's');
  assert.ok(Buffer.byteLength(small) < INLINE_PARSE_BYTES);
  assert.equal((await post(small)).status, 200);
  assert.equal(ingest.threads.length, 0, 'a small body is parsed on the main thread');

  const large = ndjson(1000, 'l');
  assert.ok(Buffer.byteLength(large) >= INLINE_PARSE_BYTES);
  const written = await post(large);
  assert.equal(written.status, 200);
  assert.equal(written.body.indexed, 1000);
  assert.equal(ingest.threads.length, 1, 'a large body is parsed in the ingest thread');
  // Its errors come back from the thread as the client's 400, naming the line.
  const bad = await post(`${large}\n{"id":"x","metadata":{"nested":{}}}`);
  assert.equal(bad.status, 400);
  assert.equal(bad.body.errors[0].path, '/body/line/1001/metadata/nested');
  const found = await server.request('GET', '/v1/collections/c/search?q=batch&limit=1');
  assert.equal(found.body.total, 1010);
});

test('a server opened on collections starts its search threads before the first search', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'folio-idle-workers-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  const first = await startTestServer({ searchThreads: 2, dataDir });
  assert.equal((await first.request('POST', '/v1/collections', { name: 'kept' })).status, 201);
  assert.equal((await first.request('POST', '/v1/collections/kept/documents?refresh=true', [{ id: 'k', text: 'kept words' }])).status, 200);
  await first.close();

  const second = await startTestServer({ searchThreads: 2, dataDir });
  t.after(() => second.close());
  assert.equal(second.app.workers.search.threads.length, 2);
  const found = await second.request('GET', '/v1/collections/kept/search?q=kept');
  assert.deepEqual(found.body.hits.map((hit: { id: string }) => hit.id), ['k']);
});
