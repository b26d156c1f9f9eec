// Keys with a filter (issue 31 point 1, docs/api.md "Keys with a filter") over real HTTP: one
// collection holds two tenants; a key made with `filter: {"tenant": "acme"}` sees only acme's
// documents in every read — keyword, semantic and hybrid searches, `similar_to`, facets, `total`,
// grouping, listing, get and the download of a kept original — and anything else is absent
// (404, the words of a missing document). Such a key has only the `search` scope, gets no "did
// you mean" and no `explain`, cannot read collection records (they count every document), and
// the keys it creates inherit its filter, ANDed with their own.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_MASTER_KEY, startTestServer } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';

interface Hit {
  id: string;
}

describe('keys with a filter', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-filtered-keys-'));
  let server: TestServer;
  let acme: { id: string; key: string; filter: unknown; scopes: string[] };
  const as = (key: string) => ({ authorization: `Bearer ${key}` });
  const ids = (body: { hits: Hit[] }): string[] => body.hits.map((hit) => hit.id).sort();

  before(async () => {
    server = await startTestServer({ dataDir, keepFiles: true, refreshIntervalMs: 100 });
    const created = await server.request('POST', '/v1/collections', { name: 'shared', embedders: { mine: { source: 'user', dimensions: 3 } } });
    assert.equal(created.status, 201, created.text);
    const written = await server.request('POST', '/v1/collections/shared/documents?refresh=wait_for', [
      { id: 'a1', text: 'quarterly invoice for apples', metadata: { tenant: 'acme', kind: 'invoice' }, vectors: { mine: [1, 0, 0] } },
      { id: 'a2', text: 'apple orchard contract', metadata: { tenant: 'acme', kind: 'contract' }, vectors: { mine: [0.9, 0.1, 0] } },
      { id: 'g1', text: 'invoice for apples and pears, secret', metadata: { tenant: 'globex', kind: 'invoice' }, vectors: { mine: [1, 0, 0.05] } },
      { id: 'g2', text: 'globex zeppelin manifest', metadata: { tenant: 'globex', kind: 'manifest' }, vectors: { mine: [0.95, 0, 0] } },
      { id: 'n1', text: 'an apple with no tenant', metadata: { kind: 'note' }, vectors: { mine: [1, 0, 0.1] } },
    ]);
    assert.equal(written.status, 200, written.text);
    const form = new FormData();
    form.append('id', 'g-file');
    form.append('metadata', JSON.stringify({ tenant: 'globex' }));
    form.append('file', new Blob(['globex only apples']), 'g.txt');
    const uploaded = await fetch(`${server.url}/v1/collections/shared/files?refresh=wait_for`, { method: 'POST', headers: as(TEST_MASTER_KEY), body: form });
    assert.equal(uploaded.status, 201, await uploaded.text());
    const made = await server.request('POST', '/v1/api-keys', { name: 'acme', filter: { tenant: 'acme' } });
    assert.equal(made.status, 201, made.text);
    acme = made.body;
  });
  after(async () => {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('the key record shows the filter; left out, the scopes are ["search"]', async () => {
    assert.deepEqual(acme.filter, { tenant: 'acme' });
    assert.deepEqual(acme.scopes, ['search']);
    const listed = await server.request('GET', '/v1/api-keys');
    assert.deepEqual(listed.body.keys.find((key: { id: string }) => key.id === acme.id).filter, { tenant: 'acme' });
    const unfiltered = await server.request('POST', '/v1/api-keys', { name: 'plain' });
    assert.equal(unfiltered.body.filter, null);
  });

  test('refused at creation: more than the search scope, an empty or broken filter', async () => {
    const writer = await server.request('POST', '/v1/api-keys', { filter: { tenant: 'acme' }, scopes: ['search', 'write'] });
    assert.equal(writer.status, 400);
    assert.equal(writer.body.errors[0].path, '/body/scopes');
    const empty = await server.request('POST', '/v1/api-keys', { filter: {} });
    assert.equal(empty.status, 400);
    assert.equal(empty.body.errors[0].path, '/body/filter');
    const broken = await server.request('POST', '/v1/api-keys', { filter: { $and: [{ tenant: 'acme' }] } });
    assert.equal(broken.status, 400);
    assert.equal(broken.body.errors[0].path, '/body/filter');
    assert.match(broken.body.errors[0].message, /\$and/);
  });

  test('keyword search: hits, total, facets and groups count only its documents; the query filter narrows further', async () => {
    const found = await server.request('GET', '/v1/collections/shared/search?q=apples&facets=kind,tenant&limit=100', undefined, as(acme.key));
    assert.equal(found.status, 200, found.text);
    assert.deepEqual(ids(found.body), ['a1', 'a2']);
    assert.equal(found.body.total, 2);
    assert.deepEqual(found.body.facets, { kind: { contract: 1, invoice: 1 }, tenant: { acme: 2 } });
    const narrowed = await server.request('POST', '/v1/collections/shared/search', { q: 'apples', filter: { kind: 'invoice' } }, as(acme.key));
    assert.deepEqual(ids(narrowed.body), ['a1']);
    // Asking for another tenant's documents by filter finds nothing: the filters AND.
    const theirs = await server.request('POST', '/v1/collections/shared/search', { q: 'apples', filter: { tenant: 'globex' }, facets: ['kind'] }, as(acme.key));
    assert.equal(theirs.body.total, 0);
    assert.deepEqual(theirs.body.facets.kind, {});
    const grouped = await server.request('GET', '/v1/collections/shared/search?q=invoice+apples+contract&distinct=kind', undefined, as(acme.key));
    assert.equal(grouped.body.total, 2);
    const everything = await server.request('GET', '/v1/collections/shared/search?q=&limit=100', undefined, as(acme.key));
    assert.deepEqual(ids(everything.body), ['a1', 'a2']);
  });

  test('no "did you mean" from other documents, and no explain', async () => {
    // "zeppelin" is only in globex's manifest; the master key is offered it as a correction.
    const master = await server.request('GET', '/v1/collections/shared/search?q=zeppelim&typos=0');
    assert.equal(master.body.total, 0);
    assert.ok((master.body.suggestions ?? []).some((s: { text: string }) => s.text === 'zeppelin'), JSON.stringify(master.body.suggestions));
    const filtered = await server.request('GET', '/v1/collections/shared/search?q=zeppelim&typos=0', undefined, as(acme.key));
    assert.equal(filtered.status, 200);
    assert.equal(filtered.body.total, 0);
    assert.equal(JSON.stringify(filtered.body).includes('zeppelin'), false, filtered.text);
    const explained = await server.request('GET', '/v1/collections/shared/search?q=apples&explain=true', undefined, as(acme.key));
    assert.equal(explained.status, 400);
    assert.equal(explained.body.errors[0].path, '/querystring/explain');
  });

  test('semantic and hybrid searches and similar_to see only its documents', async () => {
    const semantic = await server.request('POST', '/v1/collections/shared/search', { mode: 'semantic', vector: [1, 0, 0], limit: 100, facets: ['tenant'] }, as(acme.key));
    assert.equal(semantic.status, 200, semantic.text);
    assert.deepEqual(ids(semantic.body), ['a1', 'a2']);
    assert.deepEqual(semantic.body.facets.tenant, { acme: 2 });
    const hybrid = await server.request('POST', '/v1/collections/shared/search', { q: 'invoice', mode: 'hybrid', vector: [1, 0, 0], limit: 100 }, as(acme.key));
    assert.deepEqual(ids(hybrid.body), ['a1', 'a2']);
    const similar = await server.request('POST', '/v1/collections/shared/search', { similar_to: 'a1', limit: 100 }, as(acme.key));
    assert.equal(similar.status, 200, similar.text);
    assert.deepEqual(ids(similar.body), ['a2']);
    const absent = await server.request('POST', '/v1/collections/shared/search', { similar_to: 'zz-none' }, as(acme.key));
    const foreign = await server.request('POST', '/v1/collections/shared/search', { similar_to: 'g1' }, as(acme.key));
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.code, 'document_not_found');
    assert.equal(foreign.body.detail.replace('g1', 'X'), absent.body.detail.replace('zz-none', 'X'), 'the same answer as a missing document');
  });

  test('get, list and the kept original: another tenant\'s document is absent', async () => {
    assert.equal((await server.request('GET', '/v1/collections/shared/documents/a1', undefined, as(acme.key))).status, 200);
    const foreign = await server.request('GET', '/v1/collections/shared/documents/g1', undefined, as(acme.key));
    const missing = await server.request('GET', '/v1/collections/shared/documents/zz', undefined, as(acme.key));
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.code, 'document_not_found');
    assert.equal(foreign.body.detail.replace('g1', 'X'), missing.body.detail.replace('zz', 'X'));
    assert.equal(JSON.stringify(foreign.body).includes('secret'), false);
    const listed = await server.request('GET', '/v1/collections/shared/documents?fields=metadata', undefined, as(acme.key));
    assert.deepEqual(listed.body.documents.map((doc: { id: string }) => doc.id), ['a1', 'a2']);
    const listedTheirs = await server.request('GET', `/v1/collections/shared/documents?filter=${encodeURIComponent('{"tenant":"globex"}')}`, undefined, as(acme.key));
    assert.deepEqual(listedTheirs.body.documents, []);
    const master = await fetch(`${server.url}/v1/collections/shared/documents/g-file/file`, { headers: as(TEST_MASTER_KEY) });
    assert.equal(master.status, 200);
    const download = await fetch(`${server.url}/v1/collections/shared/documents/g-file/file`, { headers: as(acme.key) });
    assert.equal(download.status, 404);
    assert.equal(((await download.json()) as { code: string }).code, 'document_not_found');
  });

  test('collection records (which count every document) and writes are refused', async () => {
    assert.equal((await server.request('GET', '/v1/collections', undefined, as(acme.key))).status, 403);
    assert.equal((await server.request('GET', '/v1/collections/shared', undefined, as(acme.key))).status, 403);
    assert.equal((await server.request('PUT', '/v1/collections/shared/documents/x', { text: 'x' }, as(acme.key))).status, 403);
    assert.equal((await server.request('GET', '/v1/api-keys', undefined, as(acme.key))).status, 403);
  });

  test('a key it creates inherits its filter, ANDed with its own, and may not widen anything', async () => {
    const made = await server.request('POST', '/v1/api-keys', { name: 'acme invoices', filter: { kind: 'invoice' } }, as(acme.key));
    assert.equal(made.status, 201, made.text);
    assert.deepEqual(made.body.filter, { tenant: 'acme', kind: 'invoice' });
    assert.deepEqual(made.body.scopes, ['search']);
    const found = await server.request('GET', '/v1/collections/shared/search?q=apples+contract', undefined, as(made.body.key));
    assert.deepEqual(ids(found.body), ['a1']);
    // A filter on the same field cannot escape: tenant acme AND tenant globex matches nothing.
    const escape = await server.request('POST', '/v1/api-keys', { filter: { tenant: 'globex' } }, as(acme.key));
    assert.equal(escape.status, 201, escape.text);
    const none = await server.request('GET', '/v1/collections/shared/search?q=apples&limit=100', undefined, as(escape.body.key));
    assert.deepEqual(none.body.hits, []);
    const inherited = await server.request('POST', '/v1/api-keys', {}, as(acme.key));
    assert.deepEqual(inherited.body.filter, { tenant: 'acme' });
    const wider = await server.request('POST', '/v1/api-keys', { scopes: ['search', 'write'] }, as(acme.key));
    assert.equal(wider.status, 403);
  });

  test('the filter holds across a restart (it is stored with the key)', async () => {
    await server.close();
    server = await startTestServer({ dataDir, keepFiles: true });
    const found = await server.request('GET', '/v1/collections/shared/search?q=apples&limit=100', undefined, as(acme.key));
    assert.deepEqual(ids(found.body), ['a1', 'a2']);
  });
});
