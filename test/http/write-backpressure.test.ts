// Backpressure over real HTTP (issue 15 point 4): a write into a full buffer that no refresh
// takes in time is refused with 503 `overloaded` and `Retry-After`, nothing of it written; the
// TypeScript client retries it after that wait, and the write then lands.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FolioClient } from '../../clients/typescript/index.ts';
import { assertProblem } from '../helpers/problem-assertions.ts';
import { TEST_MASTER_KEY, startTestServer } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';

describe('writes: 503 overloaded under backpressure', () => {
  let server: TestServer;

  before(async () => {
    // A 1 KiB buffer, no waiting, and no timer refresh for 5 s (far longer than between two
    // requests; a write with ?refresh=wait_for, as the client sends, waits for that timer).
    server = await startTestServer({ refreshIntervalMs: 5_000, backpressure: { maxPendingBytes: 1024, waitMs: 0 } });
    assert.equal((await server.request('POST', '/v1/collections', { name: 'busy' })).status, 201);
  });
  after(() => server.close());

  test('a refused write is a 503 with Retry-After and leaves nothing; the client retries it', async () => {
    assert.equal((await server.request('POST', '/v1/collections/busy/documents', [{ id: 'big', text: 'y'.repeat(4096) }])).status, 200);
    const refused = await server.request('POST', '/v1/collections/busy/documents', [{ id: 'late', text: 'late arrival' }]);
    assertProblem(refused, 503, 'overloaded');
    assert.equal(refused.headers.get('retry-after'), '1');
    assert.equal((await server.request('GET', '/v1/collections/busy/documents/late')).status, 404);

    // The refusal asked for a refresh; the client waits Retry-After and sends the batch again.
    const client = new FolioClient({ url: server.url, apiKey: TEST_MASTER_KEY });
    await client.upsertMany('busy', [{ id: 'late', text: 'late arrival' }], { refresh: true });
    const found = await server.request('GET', '/v1/collections/busy/search?q=arrival&fields=id');
    assert.deepEqual(found.body.hits.map((hit: { id: string }) => hit.id), ['late']);
  });

  test('a batch for a full buffer is refused before its body is read', async () => {
    assert.equal((await server.request('POST', '/v1/collections/busy/documents', [{ id: 'filler', text: 'z'.repeat(4096) }])).status, 200);
    // Malformed JSON would be a 400 once read; refused unread, it is a 503 (nothing parsed, nothing written).
    const unread = await server.request('POST', '/v1/collections/busy/documents', '[{"id": "half", "text": ', { 'content-type': 'application/json' });
    assertProblem(unread, 503, 'overloaded');
    assert.equal(unread.headers.get('retry-after'), '1');
    // The refusal asked for a refresh, which empties the buffer: fill it again.
    assert.equal((await server.request('POST', '/v1/collections/busy/refresh')).status, 200);
    assert.equal((await server.request('POST', '/v1/collections/busy/documents', [{ id: 'filler-2', text: 'z'.repeat(4096) }])).status, 200);
    const ndjson = await server.request('POST', '/v1/collections/busy/documents', '{"id":"n1","text":"one"}\n{"id":"n2"', { 'content-type': 'application/x-ndjson' });
    assertProblem(ndjson, 503, 'overloaded');
    assert.equal((await server.request('GET', '/v1/collections/busy/documents/n1')).status, 404);
    // A batch for a collection that does not exist is answered as before, full buffers elsewhere or not.
    assertProblem(await server.request('POST', '/v1/collections/missing/documents', [{ id: 'x', text: 'x' }]), 404, 'collection_not_found');
    // The buffer emptied by a refresh takes batches again.
    assert.equal((await server.request('POST', '/v1/collections/busy/refresh')).status, 200);
    assert.equal((await server.request('POST', '/v1/collections/busy/documents', [{ id: 'after', text: 'room again' }])).status, 200);
  });
});
