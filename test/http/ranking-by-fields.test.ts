// Ranking by fields over HTTP (issue 30 point 3, docs/api.md "Ranking by fields"): `boost` on
// GET (URL-encoded JSON) and POST, the collection default `ranking.boost` (a search's own
// `boost` replaces it, `[]` turns it off), recency on a date field, explain naming each
// multiplier, bad boosts refused naming the field and rule, and the setting surviving a restart.

import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { startTestServer } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';
import { assertFieldError } from '../helpers/problem-assertions.ts';

const DAY = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY).toISOString();

const DOCUMENTS = [
  { id: 'plain', text: 'espresso machine', metadata: {} },
  { id: 'popular', text: 'espresso machine', metadata: { sales: 900, released: daysAgo(400) } },
  { id: 'niche', text: 'espresso machine', metadata: { sales: 3, released: daysAgo(2) } },
];

interface Hit {
  id: string;
  score: number;
  explain?: { description: string; details: { description: string; value: number }[] };
}

describe('ranking by fields', () => {
  let server: TestServer;
  const ids = (body: { hits: Hit[] }): string[] => body.hits.map((hit) => hit.id);
  const get = async (params: Record<string, string>) => {
    const response = await server.request('GET', `/v1/collections/shop/search?${new URLSearchParams(params)}`);
    assert.equal(response.status, 200, response.text);
    return response.body;
  };

  before(async () => {
    server = await startTestServer();
    assert.equal((await server.request('POST', '/v1/collections', { name: 'shop' })).status, 201);
    assert.equal((await server.request('POST', '/v1/collections/shop/documents?refresh=wait_for', DOCUMENTS)).status, 200);
  });
  after(() => server.close());

  test('a numeric boost on GET and POST lifts the popular document; none is ×1', async () => {
    const base = await get({ q: 'espresso' });
    assert.deepEqual(ids(base), ['niche', 'plain', 'popular'], 'equal scores: by id');
    const boost = [{ field: 'metadata.sales', modifier: 'log1p' }];
    const boosted = await get({ q: 'espresso', boost: JSON.stringify(boost) });
    assert.deepEqual(ids(boosted), ['popular', 'niche', 'plain']);
    const score = (body: { hits: Hit[] }, id: string) => body.hits.find((hit) => hit.id === id)!.score;
    assert.ok(Math.abs(score(boosted, 'popular') - score(base, 'popular') * (1 + Math.log1p(900))) < 1e-9);
    assert.equal(score(boosted, 'plain'), score(base, 'plain'));
    const post = await server.request('POST', '/v1/collections/shop/search', { q: 'espresso', boost, explain: true });
    assert.deepEqual(ids(post.body), ['popular', 'niche', 'plain']);
    const explained = post.body.hits[0] as Hit;
    assert.equal(explained.explain!.description, 'the relevance score × the field boosts');
    assert.match(explained.explain!.details[1].description, /boost by sales: 1 \+ log1p\(1 × sales\)/);
  });

  test('recency lifts the newest; the collection default applies until a search gives its own', async () => {
    const recency = [{ field: 'metadata.released', recency: { scale: '30d', decay: 0.5 } }];
    assert.deepEqual(ids(await get({ q: 'espresso', boost: JSON.stringify(recency) }))[0], 'niche');
    const patched = await server.request('PATCH', '/v1/collections/shop', { ranking: { boost: [{ field: 'metadata.sales', modifier: 'sqrt', factor: 2 }] } });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(patched.body.settings.ranking, { boost: [{ field: 'metadata.sales', modifier: 'sqrt', factor: 2 }] });
    assert.deepEqual(ids(await get({ q: 'espresso' })), ['popular', 'niche', 'plain'], 'the default boost');
    assert.deepEqual(ids(await get({ q: 'espresso', boost: '[]' })), ['niche', 'plain', 'popular'], '[] turns it off');
    assert.deepEqual(ids(await get({ q: 'espresso', boost: JSON.stringify(recency) }))[0], 'niche', "a search's own boost replaces it");
    assert.deepEqual(ids(await get({ q: '' })), ['popular', 'niche', 'plain'], 'an empty query lists by the boosts');
    assert.deepEqual(ids(await get({ q: 'espresso', sort: '_id:asc' })), ['niche', 'plain', 'popular'], 'a sort ignores boosts');
  });

  test('bad boosts are refused naming the field and rule', async () => {
    const cases: [unknown, string][] = [
      [[{ field: 'sales' }], '/querystring/boost/0/field'],
      [[{ field: 'metadata.sales', modifier: 'cube' }], '/querystring/boost/0/modifier*'],
      [[{ field: 'metadata.released', recency: { scale: 'soon' } }], '/querystring/boost/0/recency/scale'],
      [[{ field: 'metadata.released', modifier: 'log1p', recency: { scale: '1d' } }], '/querystring/boost/0/modifier'],
      [[{ field: 'metadata.sales', factor: 0 }], '/querystring/boost/0/factor'],
    ];
    for (const [boost, path] of cases) {
      const response = await server.request('GET', `/v1/collections/shop/search?${new URLSearchParams({ q: 'espresso', boost: JSON.stringify(boost) })}`);
      assert.equal(response.status, 400, `${JSON.stringify(boost)}: ${response.text}`);
      assert.equal(response.body.code, 'validation_failed');
      assertFieldError(response, path);
    }
    const notJson = await server.request('GET', '/v1/collections/shop/search?q=espresso&boost=%5B');
    assert.equal(notJson.status, 400);
    const post = await server.request('POST', '/v1/collections/shop/search', { q: 'espresso', boost: [{ field: 'metadata.$price' }] });
    assert.equal(post.status, 400);
    assertFieldError(post, '/body/boost/0/field');
    const setting = await server.request('PATCH', '/v1/collections/shop', { ranking: { boost: [{ field: 'metadata.x', modifier: 'sqrt', recency: { scale: '1d' } }] } });
    assert.equal(setting.status, 400);
    assertFieldError(setting, '/body/ranking/boost/0/modifier');
  });

  test('the ranking setting survives a restart', async () => {
    const dataDir = server.dataDir;
    await server.app.close();
    server = await startTestServer({ dataDir });
    after(() => rm(dataDir, { recursive: true, force: true }));
    assert.deepEqual((await server.request('GET', '/v1/collections/shop')).body.settings.ranking, { boost: [{ field: 'metadata.sales', modifier: 'sqrt', factor: 2 }] });
    assert.deepEqual(ids(await get({ q: 'espresso' })), ['popular', 'niche', 'plain']);
  });
});
