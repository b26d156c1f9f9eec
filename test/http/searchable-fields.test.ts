// Searchable fields and weights over HTTP (issue 30 point 1, docs/api.md "Settings: searchable
// fields"): the collection's `searchable_fields` weigh the ranking and leave a field out,
// `search_fields` on GET and POST does the same for one search, `title:word` still searches the
// title, bad fields and weights are refused naming the entry, and the setting survives a restart.
// A metadata field made searchable is indexed again in the background (progress in the record),
// then found by its words, `author:word` and `search_fields`, highlighted in `metadata_highlights`.

import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { readFileSync } from 'node:fs';
import { TEST_MASTER_KEY, startTestServer } from '../helpers/test-server.ts';
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

  test('unknown fields and bad weights are refused naming them', async () => {
    const metadata = await server.request('PATCH', '/v1/collections/manuals', { searchable_fields: [{ field: 'title', weight: 1 }, { field: 'metadata.$author', weight: 2 }] });
    assert.equal(metadata.status, 400);
    assertFieldError(metadata, '/body/searchable_fields/1/field');
    const notSearchable = await server.request('GET', '/v1/collections/manuals/search?q=x&search_fields=metadata.author');
    assert.equal(notSearchable.status, 400);
    assertFieldError(notSearchable, '/querystring/search_fields');
    assert.match(notSearchable.text, /not one of the collection's searchable_fields/);
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

  test('a metadata field made searchable is indexed in the background, then searched, scoped and highlighted', async () => {
    const books = [
      { id: 'taocp', title: 'The Art of Computer Programming', text: 'Sorting and searching.', metadata: { author: 'Donald E. Knuth', tags: ['classic'] } },
      { id: 'bio', title: 'A life', text: 'Knuth wrote TeX.', metadata: { author: 'Someone Else' } },
      { id: 'sicp', title: 'SICP', text: 'Programs as data.', metadata: { author: ['Harold Abelson', 'Gerald Jay Sussman'] } },
    ];
    assert.equal((await server.request('POST', '/v1/collections', { name: 'books' })).status, 201);
    assert.equal((await server.request('POST', '/v1/collections/books/documents?refresh=wait_for', books)).status, 200);
    const search = async (query: string) => {
      const response = await server.request('GET', `/v1/collections/books/search?${query}`);
      assert.equal(response.status, 200, response.text);
      return response.body;
    };
    // A file too: its stored text and metadata are what the re-index reads.
    const form = new FormData();
    form.append('id', 'manual');
    form.append('metadata', JSON.stringify({ author: 'Grace Hopper' }));
    form.append('file', new Blob([readFileSync(new URL('../../fixtures/files/manual.pdf', import.meta.url))]), 'manual.pdf');
    const uploaded = await fetch(`${server.url}/v1/collections/books/files?refresh=wait_for`, { method: 'POST', headers: { authorization: `Bearer ${TEST_MASTER_KEY}` }, body: form });
    assert.equal(uploaded.status, 201, await uploaded.text());
    assert.deepEqual((await search('q=sussman')).hits, [], 'not searchable yet');
    const patched = await server.request('PATCH', '/v1/collections/books', {
      searchable_fields: [{ field: 'title', weight: 3 }, { field: 'text', weight: 1 }, { field: 'metadata.author', weight: 2 }],
    });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(patched.body.settings.searchable_fields.map((entry: { field: string }) => entry.field), ['title', 'text', 'metadata.author']);
    // The segments are indexed again in the background; the record says how far.
    let record = patched.body;
    for (let i = 0; record.reindexing !== null && i < 400; i++) {
      assert.deepEqual(record.reindexing.fields, ['metadata.author']);
      assert.ok(record.reindexing.documents_done <= record.reindexing.documents_total);
      await new Promise((resolve) => setTimeout(resolve, 25));
      record = (await server.request('GET', '/v1/collections/books')).body;
    }
    assert.equal(record.reindexing, null, 'the re-index finished');
    const ids = (body: { hits: { id: string }[] }) => body.hits.map((hit) => hit.id);
    assert.deepEqual(ids(await search('q=sussman')), ['sicp']);
    const file = (await search('q=hopper')).hits;
    assert.deepEqual(file.map((hit: { id: string; format: string }) => [hit.id, hit.format]), [['manual', 'pdf']], 'the file is found by its author');
    assert.deepEqual(file[0].metadata_highlights, { author: 'Grace <mark>Hopper</mark>' });
    assert.deepEqual(ids(await search('q=knuth')).sort(), ['bio', 'taocp']);
    assert.deepEqual(ids(await search('q=author%3Aknuth')), ['taocp'], 'author:word');
    assert.deepEqual(ids(await search('q=knuth&search_fields=metadata.author')), ['taocp'], 'search_fields names the field');
    assert.deepEqual(ids(await search('q=knuth&search_fields=text')), ['bio']);
    const highlighted = (await search('q=sussman')).hits[0];
    assert.deepEqual(highlighted.metadata_highlights, { author: ['Harold Abelson', 'Gerald Jay <mark>Sussman</mark>'] });
    const post = await server.request('POST', '/v1/collections/books/search', { q: 'knuth', search_fields: ['metadata.author^2', 'title'] });
    assert.deepEqual(ids(post.body), ['taocp'], `POST search_fields ${post.text}`);
    // A document written now has its author's words indexed at once.
    await server.request('PUT', '/v1/collections/books/documents/later?refresh=wait_for', { text: 'x', metadata: { author: 'Edsger Dijkstra' } });
    assert.deepEqual(ids(await search('q=dijkstra')), ['later']);
    // Leaving the field out again: not searched from then on.
    const back = await server.request('PATCH', '/v1/collections/books', { searchable_fields: [{ field: 'title', weight: 3 }, { field: 'text', weight: 1 }] });
    assert.equal(back.status, 200);
    assert.deepEqual(ids(await search('q=sussman')), []);
    const scoped = await server.request('GET', '/v1/collections/books/search?q=x&search_fields=metadata.author');
    assertFieldError(scoped, '/querystring/search_fields');
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
