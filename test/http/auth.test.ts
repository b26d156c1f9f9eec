// Authentication with the master key (docs/api.md, "API keys, sessions and rate limits", "Errors"): every route but health and the OpenAPI
// document needs `Authorization: Bearer <master key>`; anything else is a 401 problem with
// `WWW-Authenticate: Bearer`. Neither the key nor the header ever reaches the log.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertProblem } from '../helpers/problem-assertions.ts';
import { startTestServer, TEST_MASTER_KEY } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';

describe('authentication', () => {
  let server: TestServer;
  const logLines: string[] = [];
  before(async () => {
    server = await startTestServer({ logger: { level: 'trace', stream: { write: (line) => logLines.push(line) } } });
  });
  after(() => server.close());

  test('no Authorization header → 401 unauthorized with WWW-Authenticate', async () => {
    const response = await server.request('GET', '/v1/collections', undefined, { authorization: null });
    assertProblem(response, 401, 'unauthorized');
    assert.match(response.headers.get('www-authenticate') ?? '', /^Bearer/);
  });

  test('a wrong key, another scheme or an empty token → 401', async () => {
    for (const authorization of [
      'Bearer folio_wrongwrongwrongwrongwrongwrongwrongwrong12',
      `Bearer ${TEST_MASTER_KEY}x`,
      `Basic ${Buffer.from(`user:${TEST_MASTER_KEY}`).toString('base64')}`,
      'Bearer',
      TEST_MASTER_KEY,
    ]) {
      const response = await server.request('GET', '/v1/collections', undefined, { authorization });
      assertProblem(response, 401, 'unauthorized');
      assert.match(response.headers.get('www-authenticate') ?? '', /^Bearer/);
      assert.ok(!response.text.includes(TEST_MASTER_KEY), 'a problem body must not echo a key');
    }
  });

  test('writes without a credential are refused before anything happens', async () => {
    const response = await server.request('POST', '/v1/collections', { name: 'sneaky' }, { authorization: null });
    assertProblem(response, 401, 'unauthorized');
    const list = await server.request('GET', '/v1/collections');
    assert.equal(list.status, 200);
    assert.ok(!list.body.collections.some((collection: { name: string }) => collection.name === 'sneaky'));
  });

  test('the master key as a bearer token is accepted (scheme is case-insensitive)', async () => {
    for (const scheme of ['Bearer', 'bearer']) {
      const response = await server.request('GET', '/v1/collections', undefined, { authorization: `${scheme} ${TEST_MASTER_KEY}` });
      assert.equal(response.status, 200);
    }
  });

  test('health and openapi.json are open, even with a bad token', async () => {
    for (const path of ['/v1/health', '/v1/openapi.json']) {
      assert.equal((await server.request('GET', path, undefined, { authorization: null })).status, 200);
      assert.equal((await server.request('GET', path, undefined, { authorization: 'Bearer nope' })).status, 200);
    }
  });

  test('an unknown route is a 404 not_found problem for an authenticated caller', async () => {
    assertProblem(await server.request('GET', '/v1/nowhere'), 404, 'not_found');
    assertProblem(await server.request('PUT', '/v1/collections'), 404, 'not_found');
  });

  test('neither the master key nor the Authorization header is logged', async () => {
    await server.request('GET', '/v1/collections');
    await server.request('GET', '/v1/collections', undefined, { authorization: 'Bearer folio_guessedGuessedGuessed' });
    const log = logLines.join('');
    assert.ok(log.length > 0, 'the server logged nothing at trace level');
    assert.ok(!log.includes(TEST_MASTER_KEY), 'the master key was logged');
    assert.ok(!log.includes('folio_guessedGuessedGuessed'), 'a presented token was logged');
  });
});
