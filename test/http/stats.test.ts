// GET /v1/stats over HTTP (docs/api.md, "Statistics"): an admin sees the version, start time and uptime on
// the server's clock, memory, the searches answered (total and per second over the last minute)
// and per collection its documents, segments, bytes and state; a key limited to some collections
// sees only those; a search key is refused.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertProblem } from '../helpers/problem-assertions.ts';
import { startTestServer } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';
import { FOLIO_VERSION } from '../../server/index.ts';

describe('stats', () => {
  let server: TestServer;
  let clock = Date.parse('2026-11-24T10:00:00Z');

  before(async () => {
    server = await startTestServer({ rateLimit: null, now: () => clock });
  });
  after(async () => {
    await server.close();
  });

  test('an admin sees the server and every collection; searches are counted', async () => {
    for (const name of ['left', 'right']) assert.equal((await server.request('POST', '/v1/collections', { name })).status, 201);
    const docs = Array.from({ length: 5 }, (_, i) => ({ id: `d${i}`, text: `counted words ${i}` }));
    assert.equal((await server.request('POST', '/v1/collections/left/documents?refresh=wait_for', docs)).status, 200);
    clock += 90_500;
    for (let i = 0; i < 3; i++) assert.equal((await server.request('GET', '/v1/collections/left/search?q=counted')).status, 200);
    assert.equal((await server.request('POST', '/v1/collections/right/search', { q: 'counted' })).status, 200);
    const response = await server.request('GET', '/v1/stats');
    assert.equal(response.status, 200, response.text);
    const stats = response.body;
    assert.equal(stats.version, FOLIO_VERSION);
    assert.equal(stats.started_at, '2026-11-24T10:00:00.000Z');
    assert.equal(stats.uptime_s, 90);
    assert.ok(stats.memory.rss_bytes > 0 && stats.memory.heap_used_bytes > 0);
    assert.equal(stats.searches.total, 4);
    assert.equal(stats.searches.per_second, 0.067); // 4 in the last minute
    clock += 61_000;
    assert.equal((await server.request('GET', '/v1/stats')).body.searches.per_second, 0);
    const byName = new Map(stats.collections.map((c: { name: string }) => [c.name, c]));
    assert.deepEqual([...byName.keys()].sort(), ['left', 'right']);
    const left = byName.get('left') as { documents: number; segments: number; bytes: number; state: string; embedding: object };
    assert.equal(left.documents, 5);
    assert.ok(left.segments >= 1);
    assert.ok(left.bytes > 0);
    assert.equal(left.state, 'ok');
    assert.deepEqual(left.embedding, {});
  });

  test('a key limited to some collections sees only those; a search key is refused', async () => {
    const created = await server.request('POST', '/v1/api-keys', { name: 'ops', scopes: ['admin'], collections: ['right'] });
    assert.equal(created.status, 201, created.text);
    const limited = await server.request('GET', '/v1/stats', undefined, { authorization: `Bearer ${created.body.key}` });
    assert.equal(limited.status, 200, limited.text);
    assert.deepEqual(limited.body.collections.map((c: { name: string }) => c.name), ['right']);
    const search = await server.request('POST', '/v1/api-keys', { name: 'reader', scopes: ['search'] });
    assertProblem(await server.request('GET', '/v1/stats', undefined, { authorization: `Bearer ${search.body.key}` }), 403, 'forbidden');
  });
});
