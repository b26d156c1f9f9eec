// Bad document writes (docs/api.md, "Errors", "Documents", "Limits"): each gets its 4xx problem, and nothing is half
// written — a batch with one bad document indexes none of them (checked with GET and search).

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertFieldError, assertProblem } from '../helpers/problem-assertions.ts';
import { startTestServer } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';

const COLLECTION = '/v1/collections/strict';
const MAX_BATCH = 10_000;
const MAX_BODY_BYTES = 32 * 1024 * 1024;

describe('invalid document writes', () => {
  let server: TestServer;

  /** The batch's good documents were not written: GET 404 and no search hit, even after a refresh. */
  async function assertNothingWritten(ids: string[], word: string): Promise<void> {
    assert.equal((await server.request('POST', `${COLLECTION}/refresh`)).status, 200);
    for (const id of ids) {
      assertProblem(await server.request('GET', `${COLLECTION}/documents/${id}`), 404, 'document_not_found');
    }
    const search = await server.request('GET', `${COLLECTION}/search?q=${word}`);
    assert.equal(search.body.total, 0, `found ${search.text}`);
  }

  before(async () => {
    server = await startTestServer();
    assert.equal((await server.request('POST', '/v1/collections', { name: 'strict' })).status, 201);
  });
  after(() => server.close());

  test('malformed JSON → 400 validation_failed', async () => {
    const response = await server.request('POST', `${COLLECTION}/documents`, '[{"id":"mal-1","text":"malformed"},', {
      'content-type': 'application/json',
    });
    assertProblem(response, 400, 'validation_failed');
    await assertNothingWritten(['mal-1'], 'malformed');
  });

  test('a batch with one bad id indexes nothing, and the error names the item', async () => {
    const response = await server.request('POST', `${COLLECTION}/documents`, [
      { id: 'good-1', text: 'allornothing' },
      { id: 'bad id!', text: 'allornothing' },
      { id: 'good-2', text: 'allornothing' },
    ]);
    assertProblem(response, 400, 'validation_failed');
    assertFieldError(response, '/body/1/id');
    await assertNothingWritten(['good-1', 'good-2'], 'allornothing');
  });

  test('bad ids in the path → 400: characters, 257 or more characters, bad percent-encoding', async () => {
    for (const id of ['a%20b', 'caf%C3%A9', 'a%2Fb', 'x'.repeat(257)]) {
      const response = await server.request('PUT', `${COLLECTION}/documents/${id}`, { text: 'x' });
      assertProblem(response, 400, 'validation_failed');
      assertFieldError(response, '/params/id');
    }
    assertProblem(await server.request('PUT', `${COLLECTION}/documents/${'x'.repeat(5000)}`, { text: 'x' }), 400, 'validation_failed');
    assertProblem(await server.request('GET', `${COLLECTION}/documents/%E0%A4%A`), 400, 'validation_failed');
    const longest = await server.request('PUT', `${COLLECTION}/documents/${'x'.repeat(256)}`, { text: 'x' });
    assert.equal(longest.status, 200);
    const allowed = await server.request('PUT', `${COLLECTION}/documents/A-z_0.9:ok`, { text: 'x' });
    assert.equal(allowed.status, 200);
  });

  test('nested or mixed metadata → 400 naming the field; nothing written', async () => {
    const nested = await server.request('POST', `${COLLECTION}/documents`, [
      { id: 'meta-ok', text: 'metadatacheck', metadata: { a: 1 } },
      { id: 'meta-bad', text: 'metadatacheck', metadata: { author: { name: 'Ann' } } },
    ]);
    assertProblem(nested, 400, 'validation_failed');
    assertFieldError(nested, '/body/1/metadata/author');
    await assertNothingWritten(['meta-ok', 'meta-bad'], 'metadatacheck');

    for (const metadata of [{ mixed: [1, 'two'] }, { objects: [{ a: 1 }] }, { nothing: null }, { $or: 'x' }, { 'a,b': 1 }]) {
      const response = await server.request('PUT', `${COLLECTION}/documents/meta-put`, { text: 'x', metadata });
      assertProblem(response, 400, 'validation_failed');
      assertFieldError(response, '/body/metadata/*');
    }
    assertProblem(await server.request('GET', `${COLLECTION}/documents/meta-put`), 404, 'document_not_found');
  });

  test('unknown properties and wrong types → 400', async () => {
    const cases: [string, unknown, string][] = [
      ['PUT', { text: 'x', body: 'typo' }, '/body/body'],
      ['PUT', { id: 'in-body', text: 'x' }, '/body/id'],
      ['PUT', { title: 42 }, '/body/title'],
      ['PUT', { text: ['a'] }, '/body/text'],
      ['PUT', { metadata: ['a'] }, '/body/metadata'],
      ['PATCH', { text: 'PATCH keeps the text' }, '/body/text'],
    ];
    await server.request('PUT', `${COLLECTION}/documents/typed`, { text: 'typed' });
    for (const [method, body, path] of cases) {
      const response = await server.request(method, `${COLLECTION}/documents/typed`, body);
      assertProblem(response, 400, 'validation_failed');
      assertFieldError(response, path);
    }
    assert.equal((await server.request('GET', `${COLLECTION}/documents/typed`)).body.text, 'typed');
  });

  test('empty batches and non-documents → 400', async () => {
    assertProblem(await server.request('POST', `${COLLECTION}/documents`, []), 400, 'validation_failed');
    assertProblem(await server.request('POST', `${COLLECTION}/documents`, [1, 2]), 400, 'validation_failed');
    assertProblem(await server.request('POST', `${COLLECTION}/documents`, { text: 'no id' }), 400, 'validation_failed');
    assertProblem(await server.request('POST', `${COLLECTION}/documents`, '\n\n', { 'content-type': 'application/x-ndjson' }), 400, 'validation_failed');
  });

  test('NDJSON with a bad line → 400 naming the line; nothing written', async () => {
    const body = ['{"id":"nd-ok","text":"ndjsonguard"}', '', '{"id":"nd-bad","metadata":{"x":{}}}', '{not json'].join('\n');
    const response = await server.request('POST', `${COLLECTION}/documents`, body, { 'content-type': 'application/x-ndjson' });
    assertProblem(response, 400, 'validation_failed');
    assertFieldError(response, '/body/line/3/metadata/x');
    assertFieldError(response, '/body/line/4');
    await assertNothingWritten(['nd-ok', 'nd-bad'], 'ndjsonguard');
  });

  test(`more than ${MAX_BATCH} documents → 413 payload_too_large; nothing written`, async () => {
    const documents = Array.from({ length: MAX_BATCH + 1 }, (_, i) => ({ id: `big-${i}`, text: 'oversizedbatch' }));
    assertProblem(await server.request('POST', `${COLLECTION}/documents`, documents), 413, 'payload_too_large');
    const ndjson = documents.map((document) => JSON.stringify(document)).join('\n');
    assertProblem(
      await server.request('POST', `${COLLECTION}/documents`, ndjson, { 'content-type': 'application/x-ndjson' }),
      413,
      'payload_too_large',
    );
    await assertNothingWritten(['big-0', `big-${MAX_BATCH}`], 'oversizedbatch');
  });

  test(`exactly ${MAX_BATCH} documents are accepted`, async () => {
    const documents = Array.from({ length: MAX_BATCH }, (_, i) => ({ id: `full-${i}` }));
    const response = await server.request('POST', `${COLLECTION}/documents`, documents);
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.indexed, MAX_BATCH);
  });

  test('a body over 32 MiB → 413 payload_too_large; nothing written', async () => {
    const text = `oversizedbody ${'x'.repeat(MAX_BODY_BYTES)}`;
    const json = await server.request('PUT', `${COLLECTION}/documents/huge`, { text });
    assertProblem(json, 413, 'payload_too_large');
    const ndjson = await server.request('POST', `${COLLECTION}/documents`, JSON.stringify({ id: 'huge', text }), {
      'content-type': 'application/x-ndjson',
    });
    assertProblem(ndjson, 413, 'payload_too_large');
    await assertNothingWritten(['huge'], 'oversizedbody');
  });

  test('an unsupported content type → 415 unsupported_media_type', async () => {
    for (const type of ['text/plain', 'application/xml', 'multipart/form-data; boundary=x']) {
      const response = await server.request('PUT', `${COLLECTION}/documents/typed`, '{"text":"x"}', { 'content-type': type });
      assertProblem(response, 415, 'unsupported_media_type');
    }
  });

  test('NDJSON is for batch writes only: elsewhere → 415 unsupported_media_type', async () => {
    const ndjson = { 'content-type': 'application/x-ndjson' };
    const line = '{"id":"wrong-type","text":"ndjsonelsewhere"}';
    for (const [method, path] of [
      ['PUT', `${COLLECTION}/documents/wrong-type`],
      ['PATCH', `${COLLECTION}/documents/wrong-type`],
      ['POST', `${COLLECTION}/refresh`],
    ] as const) {
      assertProblem(await server.request(method, path, line, ndjson), 415, 'unsupported_media_type');
    }
    await assertNothingWritten(['wrong-type'], 'ndjsonelsewhere');
  });

  test('a bad ?refresh value → 400', async () => {
    for (const refresh of ['false', 'yes', '', 'WAIT_FOR']) {
      const response = await server.request('PUT', `${COLLECTION}/documents/typed?refresh=${refresh}`, { text: 'x' });
      assertProblem(response, 400, 'validation_failed');
      assertFieldError(response, '/querystring/refresh');
    }
  });

  test('writes to an unknown collection → 404 collection_not_found', async () => {
    const base = '/v1/collections/missing';
    assertProblem(await server.request('PUT', `${base}/documents/a`, { text: 'x' }), 404, 'collection_not_found');
    assertProblem(await server.request('POST', `${base}/documents`, [{ id: 'a' }]), 404, 'collection_not_found');
    assertProblem(await server.request('PATCH', `${base}/documents/a`, { title: 'x' }), 404, 'collection_not_found');
    assertProblem(await server.request('DELETE', `${base}/documents/a`), 404, 'collection_not_found');
    assertProblem(await server.request('GET', `${base}/documents/a`), 404, 'collection_not_found');
    assertProblem((await server.request('GET', '/v1/collections/missing')), 404, 'collection_not_found');
  });
});
