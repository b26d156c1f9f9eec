// Searchable fields and weights over HTTP (issue 30 point 1, docs/api.md "Settings: searchable
// fields"): the collection's `searchable_fields` (title and text for now) weigh the ranking and
// leave a field out, `search_fields` on GET and POST does the same for one search, `title:word`
// still searches the title, metadata fields and bad weights are refused naming the entry, and the
// setting survives a restart.

import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { startTestServer } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';
import { assertFieldError } from '../helpers/problem-assertions.ts';

const DOCUMENTS = [
  { id: 'in-title', title: 'Gnuplot', text: 'A guide to other things entirely.' },
  { id: 'in-text', title: 'Plotting', text: 'Gnuplot draws plots; gnuplot is old.' },
];

describe('searchable fields', () => {
  let server: TestServer;
  const ids = async (query: string): Promise<string[]> => {
    const response = await server.request('GET', `/v1/collections/manuals/search?${query}`);
    assert.equal(response.status, 200, response.text);
    return response.body.hits.map((hit: { id: string }) => hit.id);
  };

  before(async () => {
    server = await startTestServer();
    const created = await server.request('POST', '/v1/collections', { name: 'manuals' });
    assert.deepEqual(created.body.settings.searchable_fields, [{ field: 'title', weight: 3 }, { field: 'text', weight: 1 }]);
    assert.equal((await server.request('POST', '/v1/collections/manuals/documents?refresh=wait_for', DOCUMENTS)).status, 200);
  });
  after(() => server.close());

  test('search_fields weighs and chooses the fields of one search', async () => {
    assert.deepEqual(await ids('q=gnuplot'), ['in-title', 'in-text'], 'by default the title weighs 3');
    assert.deepEqual(await ids('q=gnuplot&search_fields=title%5E0.2,text%5E5'), ['in-text', 'in-title']);
    assert.deepEqual(await ids('q=gnuplot&search_fields=text'), ['in-text'], 'the title is not searched');
    assert.deepEqual(await ids('q=title%3Agnuplot&search_fields=text'), ['in-title'], 'title:word still searches the title');
    const post = await server.request('POST', '/v1/collections/manuals/search', { q: 'gnuplot', search_fields: ['title'] });
    assert.deepEqual(post.body.hits.map((hit: { id: string }) => hit.id), ['in-title']);
  });

  test('the collection setting weighs every search that gives no search_fields', async () => {
    const patched = await server.request('PATCH', '/v1/collections/manuals', { searchable_fields: [{ field: 'text', weight: 2 }] });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(patched.body.settings.searchable_fields, [{ field: 'text', weight: 2 }]);
    assert.deepEqual(await ids('q=gnuplot'), ['in-text']);
    assert.deepEqual((await ids('q=gnuplot&search_fields=title,text')).sort(), ['in-text', 'in-title'], 'a search names its own fields');
  });

  test('metadata fields, unknown fields and bad weights are refused naming them', async () => {
    const metadata = await server.request('PATCH', '/v1/collections/manuals', { searchable_fields: [{ field: 'title', weight: 1 }, { field: 'metadata.author', weight: 2 }] });
    assert.equal(metadata.status, 400);
    assertFieldError(metadata, '/body/searchable_fields/1/field');
    assert.match(metadata.text, /cannot be searched yet/);
    const twice = await server.request('PATCH', '/v1/collections/manuals', { searchable_fields: [{ field: 'text', weight: 1 }, { field: 'text', weight: 2 }] });
    assertFieldError(twice, '/body/searchable_fields/1/field');
    const zero = await server.request('PATCH', '/v1/collections/manuals', { searchable_fields: [{ field: 'text', weight: 0 }] });
    assert.equal(zero.status, 400);
    const query = await server.request('GET', '/v1/collections/manuals/search?q=x&search_fields=title%5Eheavy');
    assert.equal(query.status, 400);
    assertFieldError(query, '/querystring/search_fields');
    const unknown = await server.request('POST', '/v1/collections/manuals/search', { q: 'x', search_fields: ['body'] });
    assertFieldError(unknown, '/body/search_fields');
    assert.deepEqual((await server.request('GET', '/v1/collections/manuals')).body.settings.searchable_fields, [{ field: 'text', weight: 2 }], 'nothing changed');
  });

  test('the setting survives a restart', async () => {
    const dataDir = server.dataDir;
    await server.app.close();
    server = await startTestServer({ dataDir });
    after(() => rm(dataDir, { recursive: true, force: true }));
    assert.deepEqual((await server.request('GET', '/v1/collections/manuals')).body.settings.searchable_fields, [{ field: 'text', weight: 2 }]);
    assert.deepEqual(await ids('q=gnuplot'), ['in-text']);
  });
});
