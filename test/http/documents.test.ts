// JSON documents (docs/api.md, "Documents"): PUT upserts and returns the summary, GET returns the stored
// document, PATCH merges metadata and keeps the text, DELETE answers 204 then 404, POST takes
// one document, a JSON array or NDJSON, `?refresh=wait_for` makes a write searchable at once,
// and writes become searchable within about a second without it.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { pollUntil } from '../helpers/poll.ts';
import { assertProblem } from '../helpers/problem-assertions.ts';
import { startTestServer } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';

const RFC3339_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
/** docs/api.md, "Documents": search sees a write within 1 second; the margin absorbs a slow test machine. */
const SEARCHABLE_WITHIN_MS = 1_500;

describe('documents', () => {
  let server: TestServer;
  const searchIds = async (collection: string, q: string): Promise<string[]> => {
    const response = await server.request('GET', `/v1/collections/${collection}/search?q=${encodeURIComponent(q)}&limit=100`);
    assert.equal(response.status, 200, response.text);
    return response.body.hits.map((hit: { id: string }) => hit.id).sort();
  };

  before(async () => {
    server = await startTestServer();
    for (const name of ['docs', 'batch', 'fresh']) {
      assert.equal((await server.request('POST', '/v1/collections', { name })).status, 201);
    }
  });
  after(() => server.close());

  test('PUT creates a document and returns its summary', async () => {
    const response = await server.request('PUT', '/v1/collections/docs/documents/guide-1', {
      title: 'Getting started',
      text: 'Install the server and index your first documents.',
      metadata: { category: 'guide', year: 2024, draft: false, tags: ['intro', 'setup'], ratings: [4, 5] },
    });
    assert.equal(response.status, 200, response.text);
    const summary = response.body;
    assert.deepEqual(Object.keys(summary).sort(), ['bytes', 'format', 'id', 'indexed_at', 'metadata', 'pages', 'title']);
    assert.equal(summary.id, 'guide-1');
    assert.equal(summary.title, 'Getting started');
    assert.equal(summary.format, 'text');
    assert.equal(summary.pages, null);
    assert.ok(summary.bytes > 0);
    assert.deepEqual(summary.metadata, { category: 'guide', year: 2024, draft: false, tags: ['intro', 'setup'], ratings: [4, 5] });
    assert.match(summary.indexed_at, RFC3339_UTC);
  });

  test('GET returns the stored document, realtime (before any refresh)', async () => {
    await server.request('PUT', '/v1/collections/docs/documents/realtime', { text: 'just written' });
    const response = await server.request('GET', '/v1/collections/docs/documents/realtime');
    assert.equal(response.status, 200);
    assert.equal(response.body.id, 'realtime');
    assert.equal(response.body.text, 'just written');
    assert.equal(response.body.title, null);
    assert.deepEqual(response.body.metadata, {});
    assert.equal(response.body.page_list, null);
    assert.equal(response.body.format, 'text');
  });

  test('PUT on an existing id replaces the whole document', async () => {
    await server.request('PUT', '/v1/collections/docs/documents/replace-me', { title: 'Old', text: 'old words', metadata: { a: 1 } });
    const replaced = await server.request('PUT', '/v1/collections/docs/documents/replace-me?refresh=wait_for', { text: 'new words' });
    assert.equal(replaced.status, 200);
    const stored = await server.request('GET', '/v1/collections/docs/documents/replace-me');
    assert.equal(stored.body.title, null);
    assert.equal(stored.body.text, 'new words');
    assert.deepEqual(stored.body.metadata, {});
    assert.deepEqual(await searchIds('docs', 'old'), []);
    assert.deepEqual(await searchIds('docs', 'new'), ['replace-me']);
  });

  test('PATCH replaces the title, merges metadata (null removes) and keeps the text', async () => {
    await server.request('PUT', '/v1/collections/docs/documents/patchable', {
      title: 'Before',
      text: 'the text stays',
      metadata: { keep: 'yes', drop: 'no', change: 1 },
    });
    const response = await server.request('PATCH', '/v1/collections/docs/documents/patchable', {
      title: 'After',
      metadata: { drop: null, change: 2, added: ['x'] },
    });
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.title, 'After');
    assert.deepEqual(response.body.metadata, { keep: 'yes', change: 2, added: ['x'] });
    const stored = await server.request('GET', '/v1/collections/docs/documents/patchable');
    assert.equal(stored.body.text, 'the text stays');
    assert.equal(stored.body.title, 'After');

    const untitled = await server.request('PATCH', '/v1/collections/docs/documents/patchable', { title: null });
    assert.equal(untitled.body.title, null);
    assert.deepEqual(untitled.body.metadata, { keep: 'yes', change: 2, added: ['x'] });
  });

  test('the bytes of a document do not depend on how it was written; an empty PATCH keeps them', async () => {
    const put = await server.request('PUT', '/v1/collections/docs/documents/sized', { text: 'size me' });
    const explicit = await server.request('PUT', '/v1/collections/docs/documents/sized', { title: null, text: 'size me', metadata: {} });
    assert.equal(explicit.body.bytes, put.body.bytes);
    const patched = await server.request('PATCH', '/v1/collections/docs/documents/sized', {});
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.bytes, put.body.bytes);
    const grown = await server.request('PATCH', '/v1/collections/docs/documents/sized', { metadata: { tag: 'x' } });
    assert.ok(grown.body.bytes > put.body.bytes);
  });

  test('PATCH and DELETE of an absent document → 404 document_not_found', async () => {
    assertProblem(await server.request('PATCH', '/v1/collections/docs/documents/absent', { title: 'x' }), 404, 'document_not_found');
    assertProblem(await server.request('DELETE', '/v1/collections/docs/documents/absent'), 404, 'document_not_found');
    assertProblem(await server.request('GET', '/v1/collections/docs/documents/absent'), 404, 'document_not_found');
  });

  test('DELETE answers 204, then the document is gone from GET and from search', async () => {
    await server.request('PUT', '/v1/collections/docs/documents/short-lived?refresh=wait_for', { text: 'ephemeral mayfly' });
    assert.deepEqual(await searchIds('docs', 'mayfly'), ['short-lived']);
    const deleted = await server.request('DELETE', '/v1/collections/docs/documents/short-lived?refresh=wait_for');
    assert.equal(deleted.status, 204);
    assert.equal(deleted.text, '');
    assertProblem(await server.request('GET', '/v1/collections/docs/documents/short-lived'), 404, 'document_not_found');
    assert.deepEqual(await searchIds('docs', 'mayfly'), []);
    assertProblem(await server.request('DELETE', '/v1/collections/docs/documents/short-lived'), 404, 'document_not_found');
  });

  test('POST one document → { indexed: 1, ids }', async () => {
    const response = await server.request('POST', '/v1/collections/batch/documents', { id: 'single', text: 'alone' });
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.body, { indexed: 1, ids: ['single'] });
  });

  test('an id written twice in one batch is one document, counted and listed once', async () => {
    const response = await server.request('POST', '/v1/collections/batch/documents', [
      { id: 'twice', text: 'first version' },
      { id: 'once', text: 'only version' },
      { id: 'twice', text: 'second version' },
    ]);
    assert.deepEqual(response.body, { indexed: 2, ids: ['twice', 'once'] });
    assert.equal((await server.request('GET', '/v1/collections/batch/documents/twice')).body.text, 'second version');
  });

  test('POST a JSON array → { indexed, ids } and every document is stored', async () => {
    const documents = Array.from({ length: 50 }, (_, i) => ({ id: `arr-${i}`, title: `Array ${i}`, text: `arraybatch number ${i}` }));
    const response = await server.request('POST', '/v1/collections/batch/documents?refresh=wait_for', documents);
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.indexed, 50);
    assert.deepEqual([...response.body.ids].sort(), documents.map((d) => d.id).sort());
    assert.equal((await searchIds('batch', 'arraybatch')).length, 50);
    assert.equal((await server.request('GET', '/v1/collections/batch/documents/arr-49')).body.title, 'Array 49');
  });

  test('POST NDJSON (blank lines and CRLF allowed) → { indexed, ids }', async () => {
    const body = '{"id":"nd-1","text":"ndjson line one"}\r\n\n{"id":"nd-2","title":"Two","metadata":{"n":2}}\n{"id":"nd-3","text":"ndjson three"}';
    const response = await server.request('POST', '/v1/collections/batch/documents?refresh=true', body, {
      'content-type': 'application/x-ndjson',
    });
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.body, { indexed: 3, ids: ['nd-1', 'nd-2', 'nd-3'] });
    assert.deepEqual(await searchIds('batch', 'ndjson'), ['nd-1', 'nd-3']);
    assert.deepEqual((await server.request('GET', '/v1/collections/batch/documents/nd-2')).body.metadata, { n: 2 });
  });

  test('?refresh=wait_for makes each kind of write searchable when it answers', async () => {
    await server.request('PUT', '/v1/collections/fresh/documents/w1?refresh=wait_for', { text: 'zebra crossing' });
    assert.deepEqual(await searchIds('fresh', 'zebra'), ['w1']);
    await server.request('POST', '/v1/collections/fresh/documents?refresh=wait_for', [{ id: 'w2', text: 'zebra herd' }]);
    assert.deepEqual(await searchIds('fresh', 'zebra'), ['w1', 'w2']);
    await server.request('PATCH', '/v1/collections/fresh/documents/w2?refresh=wait_for', { title: 'okapi' });
    assert.deepEqual(await searchIds('fresh', 'okapi'), ['w2']);
    await server.request('DELETE', '/v1/collections/fresh/documents/w1?refresh=wait_for');
    assert.deepEqual(await searchIds('fresh', 'zebra'), ['w2']);
  });

  test('without wait_for a write becomes searchable within about a second', async () => {
    const response = await server.request('PUT', '/v1/collections/fresh/documents/eventually', { text: 'quokka sighting' });
    assert.equal(response.status, 200);
    await pollUntil('the write to become searchable', SEARCHABLE_WITHIN_MS, async () => (await searchIds('fresh', 'quokka')).length === 1);
  });

  test('the collection record counts documents', async () => {
    const info = await server.request('GET', '/v1/collections/batch');
    assert.equal(info.body.documents, 1 + 2 + 50 + 3);
  });
});

describe('POST …/refresh', () => {
  let server: TestServer;
  before(async () => {
    // A long interval, so only the explicit refresh can make the write searchable.
    server = await startTestServer({ refreshIntervalMs: 60_000 });
    await server.request('POST', '/v1/collections', { name: 'slow' });
  });
  after(() => server.close());

  test('answers 200 { refreshed: true } once acknowledged writes are searchable', async () => {
    await server.request('PUT', '/v1/collections/slow/documents/late', { text: 'armadillo' });
    const before = await server.request('GET', '/v1/collections/slow/search?q=armadillo');
    assert.equal(before.body.total, 0, 'with a 60 s interval the write should not be searchable yet');
    const refreshed = await server.request('POST', '/v1/collections/slow/refresh');
    assert.equal(refreshed.status, 200);
    assert.deepEqual(refreshed.body, { refreshed: true });
    const after = await server.request('GET', '/v1/collections/slow/search?q=armadillo');
    assert.deepEqual(after.body.hits.map((hit: { id: string }) => hit.id), ['late']);
  });

  test('accepts an empty JSON body or {}; unknown collection → 404', async () => {
    assert.equal((await server.request('POST', '/v1/collections/slow/refresh', '', { 'content-type': 'application/json' })).status, 200);
    assert.equal((await server.request('POST', '/v1/collections/slow/refresh', {})).status, 200);
    assertProblem(await server.request('POST', '/v1/collections/nope/refresh'), 404, 'collection_not_found');
  });
});
