// Batch bodies sent as a stream of small chunks (node:http, chunked transfer encoding, no
// Content-Length), as the server parses them as they arrive: a 10,000-document NDJSON body and
// a 10,000-document JSON array are stored and searchable; 10,001 documents, a body over
// 32 MiB and a malformed document in the middle are refused and write nothing; a client that
// goes away mid-body leaves the server answering.

import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { assertProblem } from '../helpers/problem-assertions.ts';
import { TEST_MASTER_KEY, startTestServer } from '../helpers/test-server.ts';
import type { TestResponse, TestServer } from '../helpers/test-server.ts';

const COLLECTION = '/v1/collections/streamed';
const MAX_BATCH = 10_000;
const MAX_BODY_BYTES = 32 * 1024 * 1024;
const NDJSON = 'application/x-ndjson';
const JSON_TYPE = 'application/json';
/** An odd size, so pieces end inside strings, escapes and multi-byte characters. */
const PIECE_BYTES = 997;

function documents(prefix: string, count: number, word: string): object[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `${prefix}-${i}`,
    title: `Streamed ${i}`,
    text: `${word} ${prefix}mark${i} café 東京 😀 a "quoted" \\ word`,
    metadata: { n: i, tags: ['streamed', `t${i % 7}`] },
  }));
}

function ndjsonOf(items: object[]): Buffer {
  return Buffer.from(items.map((item) => JSON.stringify(item)).join('\r\n'));
}

function arrayOf(items: object[]): Buffer {
  return Buffer.from(JSON.stringify(items, null, 1));
}

describe('streamed batch bodies', () => {
  let server: TestServer;

  /**
   * POSTs `body` in pieces of `pieceBytes` (each its own chunk on the wire), minding back-pressure,
   * and stops sending once the server answers (it may answer before the body is complete).
   */
  function postInPieces(path: string, type: string, body: Buffer, pieceBytes = PIECE_BYTES): Promise<TestResponse> {
    return new Promise((resolve, reject) => {
      let answered = false;
      const request = httpRequest(`${server.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': type },
      });
      request.on('response', (response) => {
        answered = true;
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const headers = new Headers();
          for (const [name, value] of Object.entries(response.headers)) if (typeof value === 'string') headers.set(name, value);
          const isJson = /^application\/(problem\+)?json/.test(headers.get('content-type') ?? '') && text !== '';
          resolve({ status: response.statusCode ?? 0, headers, body: isJson ? JSON.parse(text) : text || null, text });
        });
      });
      // Once answered, the server may close the connection while the rest is still being sent.
      request.on('error', (error) => {
        if (!answered) reject(error);
      });
      let offset = 0;
      const sendMore = (): void => {
        while (offset < body.length && !answered && !request.destroyed) {
          const piece = body.subarray(offset, offset + pieceBytes);
          offset += piece.length;
          if (!request.write(piece)) {
            request.once('drain', sendMore);
            return;
          }
        }
        if (!answered && !request.destroyed) request.end();
      };
      sendMore();
    });
  }

  async function total(word: string): Promise<number> {
    const response = await server.request('GET', `${COLLECTION}/search?q=${encodeURIComponent(word)}`);
    assert.equal(response.status, 200, response.text);
    return response.body.total;
  }

  async function hitIds(word: string): Promise<string[]> {
    const response = await server.request('GET', `${COLLECTION}/search?q=${encodeURIComponent(word)}`);
    assert.equal(response.status, 200, response.text);
    return response.body.hits.map((hit: { id: string }) => hit.id);
  }

  /** Nothing from a refused batch was written: no search hit after a refresh, and GET 404. */
  async function assertNothingWritten(word: string, ids: string[]): Promise<void> {
    assert.equal((await server.request('POST', `${COLLECTION}/refresh`)).status, 200);
    assert.equal(await total(word), 0);
    for (const id of ids) {
      assertProblem(await server.request('GET', `${COLLECTION}/documents/${id}`), 404, 'document_not_found');
    }
  }

  before(async () => {
    server = await startTestServer();
    assert.equal((await server.request('POST', '/v1/collections', { name: 'streamed' })).status, 201);
  });
  after(() => server.close());

  test(`a ${MAX_BATCH}-document NDJSON body sent in small chunks is stored and searchable`, async () => {
    const items = documents('nd', MAX_BATCH, 'ndjsonstream');
    const response = await postInPieces(`${COLLECTION}/documents?refresh=wait_for`, NDJSON, ndjsonOf(items));
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.indexed, MAX_BATCH);
    assert.equal(response.body.ids[MAX_BATCH - 1], `nd-${MAX_BATCH - 1}`);
    assert.equal(await total('ndjsonstream'), MAX_BATCH);
    assert.deepEqual(await hitIds('ndmark4321'), ['nd-4321']);
    const stored = await server.request('GET', `${COLLECTION}/documents/nd-9999`);
    assert.equal(stored.body.text, (items[9999] as { text: string }).text);
  });

  test(`a ${MAX_BATCH}-document JSON array sent in small chunks is stored and searchable`, async () => {
    const items = documents('arr', MAX_BATCH, 'arraystream');
    const response = await postInPieces(`${COLLECTION}/documents?refresh=wait_for`, JSON_TYPE, arrayOf(items));
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.indexed, MAX_BATCH);
    assert.equal(await total('arraystream'), MAX_BATCH);
    assert.deepEqual(await hitIds('arrmark1234'), ['arr-1234']);
    const stored = await server.request('GET', `${COLLECTION}/documents/arr-0`);
    assert.deepEqual(stored.body.metadata, { n: 0, tags: ['streamed', 't0'] });
    assert.equal(stored.body.text, (items[0] as { text: string }).text);
  });

  test('pieces of a few bytes are parsed the same', async () => {
    const items = documents('tiny', 20, 'tinypieces');
    const ndjson = await postInPieces(`${COLLECTION}/documents?refresh=wait_for`, NDJSON, ndjsonOf(items.slice(0, 10)), 3);
    assert.equal(ndjson.status, 200, ndjson.text);
    const array = await postInPieces(`${COLLECTION}/documents?refresh=wait_for`, JSON_TYPE, arrayOf(items.slice(10)), 5);
    assert.equal(array.status, 200, array.text);
    assert.equal(await total('tinypieces'), 20);
  });

  test(`${MAX_BATCH + 1} documents → 413 payload_too_large with the count; nothing written`, async () => {
    const items = documents('over', MAX_BATCH + 1, 'overbatch');
    for (const [type, body] of [[NDJSON, ndjsonOf(items)], [JSON_TYPE, arrayOf(items)]] as const) {
      const response = await postInPieces(`${COLLECTION}/documents?refresh=wait_for`, type, body);
      assertProblem(response, 413, 'payload_too_large');
      assert.equal(response.body.detail, `a batch may hold at most ${MAX_BATCH} documents; this one has ${MAX_BATCH + 1}`);
    }
    await assertNothingWritten('overbatch', ['over-0', `over-${MAX_BATCH}`]);
  });

  test('a streamed body over 32 MiB → 413 payload_too_large; nothing written', async () => {
    const filler = 'x'.repeat(1024 * 1024);
    const items = Array.from({ length: 33 }, (_, i) => ({ id: `huge-${i}`, text: `oversizedstream ${filler}` }));
    for (const [type, body] of [[NDJSON, ndjsonOf(items)], [JSON_TYPE, arrayOf(items)]] as const) {
      assert.ok(body.length > MAX_BODY_BYTES);
      const response = await postInPieces(`${COLLECTION}/documents`, type, body, 64 * 1024);
      assertProblem(response, 413, 'payload_too_large');
      assert.equal(response.body.detail, 'request body is larger than the limit of 32 MiB');
    }
    await assertNothingWritten('oversizedstream', ['huge-0']);
  });

  test('a malformed document in the middle → 400; nothing written', async () => {
    const items = documents('mal', 2000, 'malformedstream');
    const lines = items.map((item) => JSON.stringify(item));
    lines[1000] = '{"id":"mal-1000","text":"broken"';
    const ndjson = await postInPieces(`${COLLECTION}/documents?refresh=wait_for`, NDJSON, Buffer.from(lines.join('\n')));
    assertProblem(ndjson, 400, 'validation_failed');
    assert.equal(ndjson.body.detail, 'invalid NDJSON body; nothing was written');
    assert.deepEqual(ndjson.body.errors.map((error: { path: string }) => error.path), ['/body/line/1001']);

    const array = await postInPieces(`${COLLECTION}/documents?refresh=wait_for`, JSON_TYPE, Buffer.from(`[${lines.join(',')}]`));
    assertProblem(array, 400, 'validation_failed');
    assert.equal(array.body.detail, 'request body is not valid JSON');

    const missingComma = Buffer.from(`[${lines.slice(0, 1000).join(',')} ${lines.slice(1001).join(',')}]`);
    assertProblem(await postInPieces(`${COLLECTION}/documents`, JSON_TYPE, missingComma), 400, 'validation_failed');
    const trailingGarbage = Buffer.from(`[${lines.slice(1001).join(',')}] {}`);
    assertProblem(await postInPieces(`${COLLECTION}/documents`, JSON_TYPE, trailingGarbage), 400, 'validation_failed');
    await assertNothingWritten('malformedstream', ['mal-0', 'mal-1999']);
  });

  test('a client that goes away mid-body leaves the server answering; nothing written', async () => {
    const body = ndjsonOf(documents('gone', 500, 'abandonedstream'));
    for (const type of [NDJSON, JSON_TYPE]) {
      await new Promise<void>((resolve) => {
        const request = httpRequest(`${server.url}${COLLECTION}/documents?refresh=wait_for`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': type },
        });
        request.on('error', () => resolve());
        request.on('close', () => resolve());
        request.write(type === JSON_TYPE ? Buffer.concat([Buffer.from('['), body.subarray(0, 5000)]) : body.subarray(0, 5000));
        setTimeout(() => request.destroy(), 50);
      });
    }
    const health = await server.request('GET', '/v1/health');
    assert.equal(health.status, 200);
    await assertNothingWritten('abandonedstream', ['gone-0']);
  });
});
