// Rate limits (docs/api.md, "API keys, sessions and rate limits") on the server's own fake clock: a key's token bucket with the
// RateLimit-* headers, 429 with Retry-After, refill over time and a key's own override; failed
// authentications limited per client address. Sessions (docs/api.md, "API keys, sessions and rate limits"): open with the master key,
// use, log out. And no file under the data directory ever holds a key or session in plaintext.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { TEST_MASTER_KEY, startTestServer } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';

async function newKey(server: TestServer, body: object = {}): Promise<{ id: string; key: string }> {
  const response = await server.request('POST', '/v1/api-keys', body);
  assert.equal(response.status, 201, response.text);
  return response.body;
}

test('a key has a token bucket: headers on every answer, 429 with Retry-After, refill, own override', async (t) => {
  let clock = Date.parse('2031-01-01T00:00:00.000Z');
  const server = await startTestServer({ rateLimit: { perSecond: 1, burst: 2 }, now: () => clock });
  t.after(() => server.close());
  const { key } = await newKey(server, { scopes: ['search'] });
  const as = { authorization: `Bearer ${key}` };

  const first = await server.request('GET', '/v1/collections', undefined, as);
  assert.equal(first.status, 200);
  assert.equal(first.headers.get('ratelimit-limit'), '2');
  assert.equal(first.headers.get('ratelimit-remaining'), '1');
  assert.equal(first.headers.get('ratelimit-reset'), '1');
  const second = await server.request('GET', '/v1/collections', undefined, as);
  assert.equal(second.headers.get('ratelimit-remaining'), '0');
  const refused = await server.request('GET', '/v1/collections', undefined, as);
  assert.equal(refused.status, 429);
  assert.equal(refused.body.code, 'rate_limited');
  assert.equal(refused.headers.get('retry-after'), '1');
  assert.equal(refused.headers.get('ratelimit-remaining'), '0');
  // A refused write does nothing.
  await server.request('POST', '/v1/collections', { name: 'c' });
  const writer = await newKey(server, { scopes: ['write'], collections: ['c'], rate_limit: { per_second: 1, burst: 1 } });
  const asWriter = { authorization: `Bearer ${writer.key}` };
  assert.equal((await server.request('PUT', '/v1/collections/c/documents/a', { text: 'one' }, asWriter)).status, 200);
  assert.equal((await server.request('PUT', '/v1/collections/c/documents/b', { text: 'two' }, asWriter)).status, 429);
  assert.equal((await server.request('GET', '/v1/collections/c/documents/b')).status, 404, 'the refused write wrote nothing');

  clock += 1_000;
  assert.equal((await server.request('GET', '/v1/collections', undefined, as)).status, 200, 'one token back after a second');
  assert.equal((await server.request('GET', '/v1/collections', undefined, as)).status, 429);

  const fast = await newKey(server, { scopes: ['search'], rate_limit: { per_second: 5, burst: 5 } });
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) statuses.push((await server.request('GET', '/v1/collections', undefined, { authorization: `Bearer ${fast.key}` })).status);
  assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429]);
  // The master key is the operator's own credential: not limited.
  for (let i = 0; i < 5; i++) assert.equal((await server.request('GET', '/v1/collections')).status, 200);
});

test('failed authentications are limited per client address', async (t) => {
  let clock = Date.parse('2031-01-01T00:00:00.000Z');
  const server = await startTestServer({ now: () => clock });
  t.after(() => server.close());
  const { key } = await newKey(server, { scopes: ['search'] });
  const { key: adminKey } = await newKey(server, { scopes: ['admin'] });
  // Only guesses count: a request without a token (a browser's /favicon.ico) and a valid API key
  // tried as the master key (the dashboard's sign-in) guess nothing.
  for (let i = 0; i < 25; i++) assert.equal((await server.request('GET', '/favicon.ico', undefined, { authorization: null })).status, 401);
  for (let i = 0; i < 25; i++) assert.equal((await server.request('POST', '/v1/sessions', { master_key: adminKey }, { authorization: null })).status, 401);
  const guess = { authorization: `Bearer folio_${'G'.repeat(40)}` };
  for (let i = 0; i < 20; i++) assert.equal((await server.request('GET', '/v1/collections', undefined, guess)).status, 401);
  const blocked = await server.request('GET', '/v1/collections', undefined, guess);
  assert.equal(blocked.status, 429);
  assert.equal(blocked.body.code, 'rate_limited');
  assert.ok(Number(blocked.headers.get('retry-after')) >= 1);
  // While blocked, the address's guesses are refused, but its valid credentials still work:
  // behind a proxy every client shares one address, and one's guesses must not lock out the rest.
  assert.equal((await server.request('GET', '/v1/collections', undefined, { authorization: null })).status, 429);
  assert.equal((await server.request('GET', '/v1/collections', undefined, { authorization: `Bearer ${key}` })).status, 200);
  const wrongMaster = await server.request('POST', '/v1/sessions', { master_key: 'not it' }, { authorization: null });
  assert.equal(wrongMaster.status, 429);
  const apiKeyAsMaster = await server.request('POST', '/v1/sessions', { master_key: adminKey }, { authorization: null });
  assert.equal(apiKeyAsMaster.status, 401, 'a valid key is told it is not the master key, not held back');
  const rightMaster = await server.request('POST', '/v1/sessions', { master_key: TEST_MASTER_KEY }, { authorization: null });
  assert.equal(rightMaster.status, 201);
  clock += 60_000;
  assert.equal((await server.request('GET', '/v1/collections', undefined, guess)).status, 401, 'the block ends');
});

test('sessions: open with the master key, use, log out', async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const wrong = await server.request('POST', '/v1/sessions', { master_key: 'folio_wrong' }, { authorization: null });
  assert.equal(wrong.status, 401);
  const opened = await server.request('POST', '/v1/sessions', { master_key: TEST_MASTER_KEY }, { authorization: null });
  assert.equal(opened.status, 201);
  assert.match(opened.body.token, /^folio_sess_[0-9A-Za-z]{40}$/);
  const hours = (Date.parse(opened.body.expires_at) - Date.now()) / 3_600_000;
  assert.ok(hours > 11.9 && hours <= 12, `expires in 12 hours (${hours})`);
  const as = { authorization: `Bearer ${opened.body.token}` };
  assert.equal((await server.request('POST', '/v1/api-keys', { name: 'from-session' }, as)).status, 201);
  assert.equal((await server.request('DELETE', '/v1/sessions/current', undefined, as)).status, 204);
  assert.equal((await server.request('GET', '/v1/collections', undefined, as)).status, 401);
});

test('no file under the data directory holds a key or a session token in plaintext, across a restart', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'folio-secrets-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  const secrets: string[] = [];
  let server = await startTestServer({ dataDir });
  try {
    for (let i = 0; i < 3; i++) secrets.push((await newKey(server, { name: `k${i}` })).key);
    const session = await server.request('POST', '/v1/sessions', { master_key: TEST_MASTER_KEY }, { authorization: null });
    secrets.push(session.body.token);
    await server.request('POST', '/v1/collections', { name: 'c' }, { authorization: `Bearer ${secrets[3]}` });
    await server.request('PUT', '/v1/collections/c/documents/a?refresh=wait_for', { text: 'x' }, { authorization: `Bearer ${secrets[0]}` });
  } finally {
    await server.close();
  }
  // Keys and sessions still work after a restart (stored as hashes).
  server = await startTestServer({ dataDir });
  try {
    const listed = await server.request('GET', '/v1/api-keys', undefined, { authorization: `Bearer ${secrets[3]}` });
    assert.equal(listed.status, 200);
    assert.equal(listed.body.keys.length, 3);
    assert.ok(listed.body.keys.find((record: { name: string }) => record.name === 'k0').last_used_at !== null, 'usage was saved');
    assert.equal((await server.request('GET', '/v1/collections/c/documents/a', undefined, { authorization: `Bearer ${secrets[0]}` })).status, 200);
  } finally {
    await server.close();
  }
  const files = readdirSync(dataDir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  assert.ok(files.length > 3);
  for (const entry of files) {
    const bytes = readFileSync(join(entry.parentPath, entry.name));
    for (const secret of secrets) {
      assert.equal(bytes.indexOf(secret), -1, `${entry.name} holds a secret`);
      assert.equal(bytes.indexOf(secret.slice(-40)), -1, `${entry.name} holds a secret's random part`);
    }
  }
});
