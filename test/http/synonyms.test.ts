// Synonyms over HTTP (issue 30 point 2, docs/api.md "Synonyms"): the collection setting given at
// creation or replaced with PATCH applies to searches at once (no re-index), in GET and POST,
// with `synonyms=false` per query; explain names the synonym; bad entries are refused naming the
// entry and change nothing; 10,000 entries are taken and searched; the setting survives a restart.

import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { startTestServer } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';
import { assertFieldError } from '../helpers/problem-assertions.ts';

const DOCUMENTS = [
  { id: 'laptop', text: 'A light laptop for travel.' },
  { id: 'notebook', text: 'A light notebook computer for travel.' },
  { id: 'nyc', text: 'Pizza in NYC is cheap.' },
  { id: 'new-york', text: 'Pizza in New York is cheap.' },
  { id: 'sofa', text: 'A soft sofa by the door.' },
];

interface Hit {
  id: string;
}

describe('synonyms', () => {
  let server: TestServer;
  let dataDir: string;
  const search = async (q: string, extra: Record<string, string> = {}): Promise<string[]> => {
    const response = await server.request('GET', `/v1/collections/shop/search?${new URLSearchParams({ q, ...extra })}`);
    assert.equal(response.status, 200, response.text);
    return response.body.hits.map((hit: Hit) => hit.id);
  };

  before(async () => {
    server = await startTestServer();
    dataDir = server.dataDir;
    const created = await server.request('POST', '/v1/collections', { name: 'shop', synonyms: [{ words: ['laptop', 'notebook'] }] });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.body.settings.synonyms, [{ words: ['laptop', 'notebook'] }]);
    assert.equal((await server.request('POST', '/v1/collections/shop/documents?refresh=wait_for', DOCUMENTS)).status, 200);
  });
  after(() => server.close());

  test('a group given at creation finds either word; the word as typed first; synonyms=false turns it off', async () => {
    assert.deepEqual(await search('laptop'), ['laptop', 'notebook']);
    assert.deepEqual(await search('notebook'), ['notebook', 'laptop']);
    assert.deepEqual(await search('laptop', { synonyms: 'false' }), ['laptop']);
    const post = await server.request('POST', '/v1/collections/shop/search', { q: 'laptop', synonyms: false });
    assert.deepEqual(post.body.hits.map((hit: Hit) => hit.id), ['laptop']);
    const explained = await server.request('POST', '/v1/collections/shop/search', { q: 'laptop', explain: true });
    const notebook = explained.body.hits.find((hit: Hit) => hit.id === 'notebook');
    assert.match(JSON.stringify(notebook.explain), /synonym 'notebook' of 'laptop'/);
    assert.match(notebook.highlight, /<mark>notebook<\/mark>/);
  });

  test('PATCH replaces the list and searches follow at once, without a re-index', async () => {
    const patched = await server.request('PATCH', '/v1/collections/shop', { synonyms: [{ input: ['nyc'], words: ['new york'] }, { input: ['couch'], words: ['sofa'] }] });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(patched.body.settings.synonyms, [{ input: ['nyc'], words: ['new york'] }, { input: ['couch'], words: ['sofa'] }]);
    assert.deepEqual(await search('laptop'), ['laptop'], 'the old group is gone');
    assert.deepEqual(await search('nyc'), ['nyc', 'new-york']);
    assert.deepEqual(await search('new york'), ['new-york'], 'one-way: the words do not find the input');
    assert.deepEqual(await search('couch'), ['sofa']);
    const other = await server.request('PATCH', '/v1/collections/shop', { typo_tolerance: { enabled: false } });
    assert.deepEqual(other.body.settings.synonyms, patched.body.settings.synonyms, 'a PATCH without synonyms keeps them');
  });

  test('bad entries are refused, naming the entry, and change nothing', async () => {
    const before = (await server.request('GET', '/v1/collections/shop')).body.settings.synonyms;
    const lonely = await server.request('PATCH', '/v1/collections/shop', { synonyms: [{ words: ['a', 'b'] }, { words: ['alone'] }] });
    assert.equal(lonely.status, 400);
    assertFieldError(lonely, '/body/synonyms/1/words');
    const empty = await server.request('PATCH', '/v1/collections/shop', { synonyms: [{ words: ['fine', '...'] }] });
    assert.equal(empty.status, 400);
    assertFieldError(empty, '/body/synonyms/0/words/1');
    const shape = await server.request('PATCH', '/v1/collections/shop', { synonyms: [{ words: ['a', 'b'], extra: 1 }] });
    assert.equal(shape.status, 400);
    const longPhrase = await server.request('PATCH', '/v1/collections/shop', { synonyms: [{ input: ['one two three four five six seven eight nine'], words: ['x'] }] });
    assert.equal(longPhrase.status, 400);
    assertFieldError(longPhrase, '/body/synonyms/0/input/0');
    const created = await server.request('POST', '/v1/collections', { name: 'bad', synonyms: [{ words: ['solo'] }] });
    assert.equal(created.status, 400);
    assert.equal((await server.request('GET', '/v1/collections/bad')).status, 404, 'nothing was created');
    assert.deepEqual((await server.request('GET', '/v1/collections/shop')).body.settings.synonyms, before);
  });

  test('10,000 entries are taken, searched, and survive a restart', async () => {
    const entries = Array.from({ length: 10_000 }, (_, i) => ({ words: [`alpha${i}`, `beta${i}`] }));
    entries.push({ words: ['laptop', 'notebook'] });
    const patched = await server.request('PATCH', '/v1/collections/shop', { synonyms: entries });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.settings.synonyms.length, 10_001);
    assert.equal((await server.request('PUT', '/v1/collections/shop/documents/beta42?refresh=wait_for', { text: 'the beta42 release' })).status, 200);
    assert.deepEqual(await search('alpha42'), ['beta42']);
    assert.deepEqual(await search('laptop'), ['laptop', 'notebook']);

    // The data directory stays: the app closes, the next server opens the same directory.
    const first = server;
    await first.app.close();
    server = await startTestServer({ dataDir });
    after(() => rm(dataDir, { recursive: true, force: true }));
    const record = await server.request('GET', '/v1/collections/shop');
    assert.equal(record.status, 200, record.text);
    assert.equal(record.body.settings.synonyms.length, 10_001);
    assert.deepEqual(await search('alpha42'), ['beta42']);
    assert.deepEqual(await search('notebook'), ['notebook', 'laptop']);
  });
});
