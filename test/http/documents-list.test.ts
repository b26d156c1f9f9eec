// The document listing over HTTP (docs/api.md, "Listing documents"): `GET …/documents` pages through every live
// document once, ascending by id, across several segments with replaced and deleted documents;
// it is realtime (unrefreshed writes, replacements and deletes show at once); `filter` judges
// the current version; `fields` chooses the members (the summary by default); bad `limit`,
// `cursor` or `fields` are 400s naming the parameter.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertFieldError, assertProblem } from '../helpers/problem-assertions.ts';
import { startTestServer } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';

/** Long enough that no background refresh runs during a test: refreshes are explicit. */
const MANUAL_REFRESH_MS = 60_000;

describe('document listing', () => {
  let server: TestServer;
  const list = (collection: string, query = '') => server.request('GET', `/v1/collections/${collection}/documents${query}`);
  const write = async (collection: string, docs: unknown[], refresh: boolean) => {
    const response = await server.request('POST', `/v1/collections/${collection}/documents`, docs);
    assert.equal(response.status, 200, response.text);
    if (refresh) assert.equal((await server.request('POST', `/v1/collections/${collection}/refresh`)).status, 200);
  };
  /** Every id the listing gives, page by page of `limit`, and how many pages it took. */
  const listAll = async (collection: string, query: string, limit: number): Promise<{ ids: string[]; pages: number }> => {
    const ids: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const cursorParam: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
      const response = await list(collection, `?limit=${limit}${query}${cursorParam}`);
      assert.equal(response.status, 200, response.text);
      assert.ok(response.body.documents.length <= limit);
      ids.push(...response.body.documents.map((doc: { id: string }) => doc.id));
      cursor = response.body.next_cursor;
      pages++;
    } while (cursor !== null);
    return { ids, pages };
  };
  const doc = (id: string, metadata: Record<string, unknown> = {}) => ({ id, title: `Title ${id}`, text: `the text of ${id}`, metadata });

  before(async () => {
    server = await startTestServer({ refreshIntervalMs: MANUAL_REFRESH_MS });
  });
  after(async () => {
    await server.close();
  });

  test('pages through every live document once, ascending by id, across segments', async () => {
    await server.request('POST', '/v1/collections', { name: 'paged' });
    const expected = new Set<string>();
    // Three segments; ids interleave across them; some are replaced in a later one, some deleted.
    for (let batch = 0; batch < 3; batch++) {
      const docs = Array.from({ length: 40 }, (_, i) => doc(`doc-${String(i * 3 + batch).padStart(3, '0')}`, { batch }));
      await write('paged', docs, true);
      for (const d of docs) expected.add(d.id);
    }
    await write('paged', [doc('doc-004', { batch: 9 }), doc('doc-100', { batch: 9 })], true);
    for (const id of ['doc-010', 'doc-011', 'doc-119']) {
      assert.equal((await server.request('DELETE', `/v1/collections/paged/documents/${id}?refresh=true`)).status, 204);
      expected.delete(id);
    }
    const { ids, pages } = await listAll('paged', '', 7);
    assert.deepEqual(ids, [...expected].sort());
    assert.equal(pages, Math.ceil(expected.size / 7));
    const replaced = (await list('paged', `?limit=1&cursor=${encodeURIComponent(Buffer.from('doc-003').toString('base64url'))}`)).body;
    assert.deepEqual(replaced.documents.map((d: { id: string; metadata: object }) => [d.id, d.metadata]), [['doc-004', { batch: 9 }]]);
  });

  test('is realtime: unrefreshed writes, replacements and deletes show at once', async () => {
    await server.request('POST', '/v1/collections', { name: 'realtime' });
    await write('realtime', [doc('a', { v: 1 }), doc('b', { v: 1 }), doc('c', { v: 1 })], true);
    await write('realtime', [doc('b', { v: 2 }), doc('d', { v: 2 }), doc('0', { v: 2 })], false);
    assert.equal((await server.request('DELETE', '/v1/collections/realtime/documents/c')).status, 204);
    const response = await list('realtime');
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.body.documents.map((d: { id: string; metadata: { v: number } }) => [d.id, d.metadata.v]), [['0', 2], ['a', 1], ['b', 2], ['d', 2]]);
    assert.equal(response.body.next_cursor, null);
    // The filter judges the current version: b's pending v 2, not its committed v 1.
    const filtered = await listAll('realtime', `&filter=${encodeURIComponent(JSON.stringify({ v: 1 }))}`, 1);
    assert.deepEqual(filtered.ids, ['a']);
    const newer = await listAll('realtime', `&filter=${encodeURIComponent(JSON.stringify({ v: { gte: 2 } }))}`, 2);
    assert.deepEqual(newer.ids, ['0', 'b', 'd']);
  });

  test('fields choose the members: the summary by default, id always', async () => {
    await server.request('POST', '/v1/collections', { name: 'members' });
    await write('members', [doc('x', { tag: 'one' })], false);
    const summary = (await list('members')).body.documents[0];
    assert.deepEqual(Object.keys(summary).sort(), ['bytes', 'format', 'id', 'indexed_at', 'metadata', 'pages', 'title']);
    assert.equal(summary.format, 'text');
    assert.deepEqual((await list('members', '?fields=id')).body.documents, [{ id: 'x' }]);
    assert.deepEqual((await list('members', '?fields=text,page_list&fields=title')).body.documents, [{ id: 'x', text: 'the text of x', page_list: null, title: 'Title x' }]);
  });

  test('bad limit, cursor, fields and filter are 400s naming the parameter; an unknown collection is 404', async () => {
    await server.request('POST', '/v1/collections', { name: 'strict' });
    for (const limit of ['0', '1001', 'many']) {
      const response = await list('strict', `?limit=${limit}`);
      assertProblem(response, 400, 'validation_failed');
      assertFieldError(response, '/querystring/limit');
    }
    for (const cursor of ['not a cursor', Buffer.from('bad id!').toString('base64url'), 'YQ=']) {
      const response = await list('strict', `?cursor=${encodeURIComponent(cursor)}`);
      assertProblem(response, 400, 'validation_failed');
      assertFieldError(response, '/querystring/cursor');
    }
    const fields = await list('strict', '?fields=title,secret');
    assertProblem(fields, 400, 'validation_failed');
    assertFieldError(fields, '/querystring/fields');
    assert.match(fields.text, /\\"secret\\" is not a document member/);
    assertProblem(await list('strict', '?filter=%7Bnope'), 400, 'invalid_filter');
    assertProblem(await list('nowhere'), 404, 'collection_not_found');
  });
});
