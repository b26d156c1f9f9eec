// Large document writes take turns: while MAX_LARGE_WRITES of them are being received, another
// large write is not read (its body waits in the socket) until one finishes, so the memory
// held by parsed bodies stays bounded however many clients import at once. Small writes and
// searches never wait.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import type { ClientRequest } from 'node:http';
import { MAX_LARGE_WRITES } from '../../server/http/routes/documents/large-body-gate.ts';
import { TEST_MASTER_KEY, startTestServer } from '../helpers/test-server.ts';

function ndjson(prefix: string, count: number): Buffer {
  const lines = Array.from({ length: count }, (_, i) => JSON.stringify({ id: `${prefix}-${i}`, text: `gate ${prefix} ${'padding '.repeat(20)}` }));
  return Buffer.from(lines.join('\n'));
}

/** A POST …/documents with a declared length, of which only the first half is sent for now. */
function openWrite(url: string, body: Buffer): { request: ClientRequest; status: Promise<number>; finish(): void } {
  const request = httpRequest(`${url}/v1/collections/gate/documents`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': 'application/x-ndjson', 'content-length': body.length },
  });
  const status = new Promise<number>((resolve, reject) => {
    request.on('response', (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', reject);
  });
  const half = body.length >> 1;
  request.write(body.subarray(0, half));
  return { request, status, finish: () => request.end(body.subarray(half)) };
}

const answered = (status: Promise<number>, ms: number): Promise<boolean> =>
  Promise.race([status.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]);

test('a large write waits while the large-write slots are taken; small writes do not', { timeout: 60_000 }, async (t) => {
  const server = await startTestServer();
  const holders = Array.from({ length: MAX_LARGE_WRITES }, () => null as ReturnType<typeof openWrite> | null);
  t.after(async () => {
    // Unfinished bodies would keep the server's connections open.
    for (const holder of holders) holder?.request.destroy();
    await server.close();
  });
  await server.request('POST', '/v1/collections', { name: 'gate' });

  holders.forEach((_, i) => (holders[i] = openWrite(server.url, ndjson(`h${i}`, 2_000))));
  await new Promise((resolve) => setTimeout(resolve, 200));
  const waiting = openWrite(server.url, ndjson('w', 2_000));
  waiting.finish();
  assert.equal(await answered(waiting.status, 700), false, 'the third large write waits for a slot');

  // Small writes and searches go on meanwhile.
  assert.equal((await server.request('PUT', '/v1/collections/gate/documents/small', { text: 'small gate write' })).status, 200);
  assert.equal((await server.request('GET', '/v1/collections/gate/search?q=gate')).status, 200);

  holders[0]!.finish();
  assert.equal(await holders[0]!.status, 200);
  assert.equal(await waiting.status, 200, 'it runs once a slot is free');
  for (const holder of holders.slice(1)) {
    holder!.finish();
    assert.equal(await holder!.status, 200);
  }
  await server.request('POST', '/v1/collections/gate/refresh');
  const info = await server.request('GET', '/v1/collections/gate');
  assert.equal(info.body.documents, (MAX_LARGE_WRITES + 1) * 2_000 + 1);
});

test('a client that gives up mid-body frees its slot', { timeout: 60_000 }, async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  await server.request('POST', '/v1/collections', { name: 'gate' });
  for (let round = 0; round < 3; round++) {
    const abandoned = Array.from({ length: MAX_LARGE_WRITES }, (_, i) => openWrite(server.url, ndjson(`a${round}-${i}`, 2_000)));
    await new Promise((resolve) => setTimeout(resolve, 100));
    for (const write of abandoned) {
      write.status.catch(() => {});
      write.request.destroy();
    }
  }
  const next = openWrite(server.url, ndjson('after', 2_000));
  next.finish();
  assert.equal(await next.status, 200);
});
