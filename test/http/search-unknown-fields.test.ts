// `unknown_field` warnings (docs/api.md, "Search"): a filter, facet or sort naming a metadata field that no
// document of the collection has gets a warning naming the field and where it was used; fields
// some document has, the built-in sort keys and an empty collection get none.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';

describe('unknown field warnings', () => {
  let server: TestServer;
  const search = async (collection: string, body: object) => {
    const response = await server.request('POST', `/v1/collections/${collection}/search`, body);
    assert.equal(response.status, 200, response.text);
    return response.body;
  };

  before(async () => {
    server = await startTestServer();
    await server.request('POST', '/v1/collections', { name: 'known' });
    await server.request('POST', '/v1/collections', { name: 'empty' });
    const docs = [
      { id: 'a', text: 'apples', metadata: { format: 'pdf', year: 2020 } },
      { id: 'b', text: 'apples', metadata: { shelf: 'b2' } },
    ];
    assert.equal((await server.request('POST', '/v1/collections/known/documents?refresh=wait_for', docs)).status, 200);
  });
  after(async () => {
    await server.close();
  });

  test('a field no document has is named, with where it was used', async () => {
    const answer = await search('known', {
      q: 'apples',
      filter: { $or: [{ fromat: 'pdf' }, { year: { gte: 2000 } }] },
      facets: ['shelf', 'colour'],
      sort: 'yaer:desc,_id',
    });
    assert.deepEqual(answer.warnings, [
      { code: 'unknown_field', message: "filter: no document of this collection has the field 'fromat'" },
      { code: 'unknown_field', message: "facets: no document of this collection has the field 'colour'" },
      { code: 'unknown_field', message: "sort: no document of this collection has the field 'yaer'" },
    ]);
    assert.equal(answer.total, 1, 'the search itself runs as asked (only a has a year)');
  });

  test('known fields, built-in sort keys and an empty collection give no warning', async () => {
    assert.equal((await search('known', { q: 'apples', filter: { format: 'pdf' }, facets: ['shelf'], sort: 'year:desc,title,_score' })).warnings, undefined);
    assert.equal((await search('empty', { q: 'apples', filter: { anything: 1 } })).warnings, undefined);
  });
});
