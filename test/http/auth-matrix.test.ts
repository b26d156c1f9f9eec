// Every route called with every kind of credential (docs/api.md, "API keys, sessions and rate limits"): no token, an unknown token,
// an expired key, keys with each scope, a collection-limited admin key, a key with a filter, a
// session and the master key. The expected answer of each pair is written out below by hand (not derived from
// the server's access table), so a wrong rule in the table fails here. Then: no escalation (of
// scopes, collections, expiry or rate limit), revocation at once, and expiry on the server's
// (fake) clock.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ROUTE_ACCESS } from '../../server/auth/access-table.ts';
import { TEST_MASTER_KEY, startTestServer } from '../helpers/test-server.ts';
import type { TestHeaders, TestServer } from '../helpers/test-server.ts';

type Credential = 'none' | 'unknown' | 'expired' | 'search' | 'write' | 'admin' | 'limited' | 'filtered' | 'session' | 'master';
const CREDENTIALS: Credential[] = ['none', 'unknown', 'expired', 'search', 'write', 'admin', 'limited', 'filtered', 'session', 'master'];
/** Who may: `y` allowed, `-` forbidden (403); no token, unknown and expired always get 401. */
type Row = [method: string, path: string, body: unknown, may: Record<'search' | 'write' | 'admin' | 'limited' | 'filtered' | 'session' | 'master', 'y' | '-'>];

const HOUR = 3_600_000;
let clock = Date.parse('2031-01-01T00:00:00.000Z');

function rows(run: string): Row[] {
  // `filtered`: a search key with a filter — it reads documents, never collection records.
  const readers = { search: 'y', write: '-', admin: 'y', limited: 'y', filtered: 'y', session: 'y', master: 'y' } as const;
  const writers = { search: '-', write: 'y', admin: 'y', limited: 'y', filtered: '-', session: 'y', master: 'y' } as const;
  const admins = { search: '-', write: '-', admin: 'y', limited: 'y', filtered: '-', session: 'y', master: 'y' } as const;
  const unlimitedAdmins = { search: '-', write: '-', admin: 'y', limited: '-', filtered: '-', session: 'y', master: 'y' } as const;
  const recordReaders = { ...readers, filtered: '-' } as const;
  const readersOfBeta = { ...readers, limited: '-' } as const;
  const writersOfBeta = { ...writers, limited: '-' } as const;
  return [
    ['GET', '/v1/collections', undefined, recordReaders],
    ['GET', '/v1/collections/alpha', undefined, recordReaders],
    ['GET', '/v1/collections/beta', undefined, { ...readersOfBeta, filtered: '-' }],
    ['POST', '/v1/collections', { name: `new-${run}` }, unlimitedAdmins],
    ['POST', '/v1/collections', { name: 'alpha' }, admins], // allowed, then 409: it exists
    ['PUT', `/v1/collections/alpha/documents/d-${run}`, { text: 'matrix words' }, writers],
    ['PUT', `/v1/collections/beta/documents/d-${run}`, { text: 'matrix words' }, writersOfBeta],
    ['POST', '/v1/collections/alpha/documents', [{ id: `b-${run}`, text: 'matrix batch' }], writers],
    ['GET', '/v1/collections/alpha/documents', undefined, readers],
    ['GET', '/v1/collections/beta/documents', undefined, readersOfBeta],
    ['GET', '/v1/collections/alpha/documents/seed', undefined, readers],
    ['GET', '/v1/collections/beta/documents/seed', undefined, readersOfBeta],
    ['PATCH', '/v1/collections/alpha/documents/seed', { metadata: { run } }, writers],
    ['DELETE', `/v1/collections/alpha/documents/missing-${run}`, undefined, writers], // allowed, then 404
    ['POST', '/v1/collections/alpha/documents/delete', { filter: { run: 'never' } }, writers],
    ['POST', '/v1/collections/alpha/refresh', undefined, writers],
    ['GET', '/v1/collections/alpha/search?q=matrix', undefined, readers],
    ['POST', '/v1/collections/beta/search', { q: 'matrix' }, readersOfBeta],
    ['POST', '/v1/multi-search', { queries: [{ collection: 'alpha', q: 'matrix' }] }, readers],
    ['POST', '/v1/collections/alpha/facet-search', { facet: 'tenant', q: 'ac' }, readers],
    ['POST', '/v1/collections/beta/facet-search', { facet: 'tenant' }, readersOfBeta],
    // Every query's collection is checked: one the key may not read refuses the whole request.
    ['POST', '/v1/multi-search', { queries: [{ collection: 'alpha', q: 'matrix' }, { collection: 'beta', q: 'matrix' }], federation: {} }, readersOfBeta],
    ['GET', '/v1/formats', undefined, readers],
    ['GET', '/v1/stats', undefined, admins], // a limited admin key sees its collections only (stats.test.ts)
    // A copy of every collection: never for a key limited to some.
    ['POST', '/v1/snapshots', undefined, unlimitedAdmins],
    // Not multipart: an allowed caller gets 415 once authorized, a refused one 401/403 first.
    ['POST', '/v1/collections/alpha/files', { file: 'x' }, writers],
    ['POST', '/v1/collections/beta/files', { file: 'x' }, writersOfBeta],
    ['GET', '/v1/collections/beta/documents/seed/file', undefined, readersOfBeta], // allowed, then 404 (no file)
    ['GET', '/v1/collections/beta/documents/seed/pages/1/image', undefined, readersOfBeta], // allowed, then 404 (no kept original)
    ['GET', '/v1/api-keys', undefined, admins],
    // A filtered key may make keys: they inherit its filter.
    ['POST', '/v1/api-keys', { name: `made-${run}`, scopes: ['search'], collections: ['alpha'] }, { ...admins, filtered: 'y' }],
    ['DELETE', '/v1/api-keys/key_0000000000000000', undefined, admins], // allowed, then 404
    ['PATCH', '/v1/collections/alpha', { typo_tolerance: { enabled: true } }, admins],
    ['PATCH', '/v1/collections/beta', { typo_tolerance: { enabled: true } }, { ...admins, limited: '-' }],
    ['DELETE', '/v1/collections/gone', undefined, unlimitedAdmins], // allowed, then 404
    ['DELETE', '/v1/sessions/current', undefined, { search: '-', write: '-', admin: '-', limited: '-', filtered: '-', session: 'y', master: '-' }],
    // Webhooks see every collection's events: unrestricted admins only.
    ['GET', '/v1/webhooks', undefined, unlimitedAdmins],
    ['POST', '/v1/webhooks', { url: 'https://example.com/hook', events: ['nope'] }, unlimitedAdmins], // allowed, then 400
    ['GET', '/v1/webhooks/wh_0000000000000000', undefined, unlimitedAdmins], // allowed, then 404
    ['DELETE', '/v1/webhooks/wh_0000000000000000', undefined, unlimitedAdmins], // allowed, then 404
    ['GET', '/v1/webhooks/wh_0000000000000000/deliveries', undefined, unlimitedAdmins], // allowed, then 404
  ];
}

/** Every guarded route the rows above call, as `METHOD pattern`: kept equal to the access table. */
const ROUTES_IN_MATRIX = [
  'GET /v1/collections', 'POST /v1/collections', 'GET /v1/collections/:name', 'PATCH /v1/collections/:name',
  'DELETE /v1/collections/:name',
  'PUT /v1/collections/:name/documents/:id', 'POST /v1/collections/:name/documents',
  'GET /v1/collections/:name/documents', 'GET /v1/collections/:name/documents/:id', 'PATCH /v1/collections/:name/documents/:id',
  'DELETE /v1/collections/:name/documents/:id', 'POST /v1/collections/:name/documents/delete',
  'POST /v1/collections/:name/refresh', 'GET /v1/collections/:name/search', 'POST /v1/collections/:name/search', 'POST /v1/multi-search',
  'POST /v1/collections/:name/facet-search',
  'GET /v1/formats', 'GET /v1/stats', 'POST /v1/snapshots', 'POST /v1/collections/:name/files', 'GET /v1/collections/:name/documents/:id/file', 'GET /v1/collections/:name/documents/:id/pages/:page/image',
  'POST /v1/api-keys', 'GET /v1/api-keys', 'DELETE /v1/api-keys/:keyId', 'DELETE /v1/sessions/current',
  'POST /v1/webhooks', 'GET /v1/webhooks', 'GET /v1/webhooks/:webhookId', 'DELETE /v1/webhooks/:webhookId',
  'GET /v1/webhooks/:webhookId/deliveries',
];

test('the matrix covers every route of the access table (a new route must join it)', () => {
  assert.deepEqual([...ROUTES_IN_MATRIX].sort(), Object.keys(ROUTE_ACCESS).sort());
});

describe('access matrix', () => {
  let server: TestServer;
  const tokens = new Map<Credential, string | null>();

  const createKey = async (body: object): Promise<string> => {
    const response = await server.request('POST', '/v1/api-keys', body);
    assert.equal(response.status, 201, response.text);
    return response.body.key;
  };

  before(async () => {
    server = await startTestServer({ rateLimit: null, now: () => clock });
    for (const name of ['alpha', 'beta']) {
      await server.request('POST', '/v1/collections', { name });
      await server.request('PUT', `/v1/collections/${name}/documents/seed?refresh=wait_for`, { text: 'matrix seed' });
    }
    tokens.set('none', null);
    tokens.set('unknown', 'folio_' + 'x'.repeat(40));
    tokens.set('search', await createKey({ scopes: ['search'] }));
    tokens.set('write', await createKey({ scopes: ['write'] }));
    tokens.set('admin', await createKey({ scopes: ['admin'] }));
    tokens.set('limited', await createKey({ scopes: ['admin'], collections: ['alpha'] }));
    tokens.set('filtered', await createKey({ filter: { tenant: 'acme' } }));
    tokens.set('expired', await createKey({ scopes: ['admin'], expires_at: new Date(clock + HOUR).toISOString() }));
    clock += 2 * HOUR; // the expired key is now past its time
  });
  after(() => server.close());

  test('every route answers every credential as the table above says', async () => {
    let run = 0;
    for (const credential of CREDENTIALS) {
      for (const [method, path, body, may] of rows(`r${run++}`)) {
        let token = tokens.get(credential) ?? null;
        if (credential === 'session') {
          // A fresh session per route: DELETE /v1/sessions/current ends the one it is sent with.
          const opened = await server.request('POST', '/v1/sessions', { master_key: TEST_MASTER_KEY }, { authorization: null });
          assert.equal(opened.status, 201, opened.text);
          token = opened.body.token;
        }
        const headers: TestHeaders = credential === 'master' ? {} : { authorization: token === null ? null : `Bearer ${token}` };
        const response = await server.request(method, path, body, headers);
        const where = `${credential} → ${method} ${path}: ${response.status} ${response.text.slice(0, 160)}`;
        if (credential === 'none' || credential === 'unknown' || credential === 'expired') {
          // Failed authentications are limited per address (20, then one per 3 s): let the
          // server's clock move on so this test's own failures do not block it.
          clock += 3_000;
          assert.equal(response.status, 401, where);
          assert.equal(response.body.code, 'unauthorized', where);
        } else if (may[credential] === '-') {
          assert.equal(response.status, 403, where);
          assert.equal(response.body.code, 'forbidden', where);
        } else {
          assert.ok(![401, 403, 429].includes(response.status), where);
          assert.ok(response.status < 500, where);
        }
      }
    }
  });

  test('a limited key lists only its collections; nobody sees a key or hash again', async () => {
    const limited = { authorization: `Bearer ${tokens.get('limited')}` };
    const listed = await server.request('GET', '/v1/collections', undefined, limited);
    assert.deepEqual(listed.body.collections.map((c: { name: string }) => c.name), ['alpha']);
    const keys = await server.request('GET', '/v1/api-keys');
    assert.equal(keys.status, 200);
    for (const record of keys.body.keys) {
      assert.deepEqual(Object.keys(record).sort(), ['collections', 'created_at', 'expires_at', 'filter', 'id', 'last_used_at', 'name', 'prefix', 'rate_limit', 'scopes']);
    }
    for (const token of tokens.values()) if (token !== null) assert.ok(!keys.text.includes(token), 'a listing never shows a key');
    // Keys that were used carry last_used_at; the listing of a limited admin shows only keys within its reach.
    assert.ok(keys.body.keys.some((record: { last_used_at: string | null }) => record.last_used_at !== null));
    const own = await server.request('GET', '/v1/api-keys', undefined, limited);
    for (const record of own.body.keys) assert.deepEqual(record.collections, ['alpha']);
  });
});

describe('no escalation, revocation, expiry', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ rateLimit: null, now: () => clock });
    await server.request('POST', '/v1/collections', { name: 'alpha' });
  });
  after(() => server.close());

  const create = (as: string | null, body: object) =>
    server.request('POST', '/v1/api-keys', body, as === null ? {} : { authorization: `Bearer ${as}` });

  test('a key creates only keys within its own scopes and collections', async () => {
    const bare = await server.request('POST', '/v1/api-keys');
    assert.equal(bare.status, 201, `the body is optional: ${bare.text}`);
    assert.deepEqual(bare.body.scopes, ['search', 'write']);
    const developer = (await create(null, {})).body;
    assert.deepEqual(developer.scopes, ['search', 'write'], 'the default is the developer level');
    assert.equal(developer.collections, null);
    assert.match(developer.key, /^folio_[0-9A-Za-z]{40}$/);
    assert.equal(developer.prefix, developer.key.slice(0, 10));
    assert.match(developer.id, /^key_[0-9A-Za-z]{16}$/);

    const limitedAdmin = (await create(null, { scopes: ['admin'], collections: ['alpha'] })).body.key;
    const refusals: object[] = [
      { scopes: ['admin'] }, // unlimited
      { scopes: ['search'], collections: ['alpha', 'beta'] }, // a collection it does not have
      { scopes: ['search'] }, // all collections
    ];
    for (const body of refusals) {
      const response = await create(limitedAdmin, body);
      assert.equal(response.status, 403, JSON.stringify(body));
      assert.equal(response.body.code, 'forbidden');
    }
    assert.equal((await create(limitedAdmin, { scopes: ['search', 'write'], collections: ['alpha'] })).status, 201);
    // An admin key may not be made by a key without admin at all.
    assert.equal((await create(developer.key, { scopes: ['search'] })).status, 403);
    // A limited admin cannot create a collection outside its list, nor delete one.
    const outside = await server.request('POST', '/v1/collections', { name: 'beta' }, { authorization: `Bearer ${limitedAdmin}` });
    assert.equal(outside.status, 403);
    // Validation errors name the field.
    const bad = await create(null, { scopes: ['root'] });
    assert.equal(bad.status, 400);
    const past = await create(null, { expires_at: new Date(clock - HOUR).toISOString() });
    assert.equal(past.status, 400);
  });

  test('a key creates only keys that expire no later and are limited no higher than itself; left out, they inherit both', async () => {
    const expiry = new Date(clock + HOUR).toISOString();
    const admin = (await create(null, { scopes: ['admin'], expires_at: expiry, rate_limit: { per_second: 1, burst: 2 } })).body.key;
    const inherited = await create(admin, { scopes: ['search'] });
    assert.equal(inherited.status, 201, inherited.text);
    assert.equal(inherited.body.expires_at, expiry, 'inherits the expiry');
    assert.deepEqual(inherited.body.rate_limit, { per_second: 1, burst: 2 }, 'inherits the rate limit');
    for (const [body, field] of [
      [{ expires_at: null }, undefined], // null means "as long as I may": the creator's expiry
      [{ expires_at: new Date(clock + 2 * HOUR).toISOString() }, '/body/expires_at'],
      [{ rate_limit: { per_second: 1_000_000, burst: 2 } }, '/body/rate_limit'],
      [{ rate_limit: { per_second: 1, burst: 3 } }, '/body/rate_limit'],
    ] as const) {
      const response = await create(admin, { scopes: ['search'], ...body });
      if (field === undefined) {
        assert.equal(response.status, 201, response.text);
        assert.equal(response.body.expires_at, expiry);
        continue;
      }
      assert.equal(response.status, 403, JSON.stringify(body));
      assert.equal(response.body.code, 'forbidden');
      assert.equal(response.body.errors[0].path, field);
    }
    const lower = await create(admin, { scopes: ['search'], expires_at: new Date(clock + HOUR / 2).toISOString(), rate_limit: { per_second: 1, burst: 1 } });
    assert.equal(lower.status, 201, 'lower limits are fine');
    // The master key is bound by nothing.
    assert.equal((await create(null, { rate_limit: { per_second: 1_000_000, burst: 1_000_000 } })).status, 201);
  });

  test("with rate limits on, a key without a limit of its own may not create one above the server's default", async () => {
    const limited = await startTestServer({ rateLimit: { perSecond: 100, burst: 200 } });
    try {
      const admin = (await limited.request('POST', '/v1/api-keys', { scopes: ['admin'] })).body.key;
      const as = { authorization: `Bearer ${admin}` };
      const above = await limited.request('POST', '/v1/api-keys', { rate_limit: { per_second: 1_000, burst: 200 } }, as);
      assert.equal(above.status, 403, above.text);
      const within = await limited.request('POST', '/v1/api-keys', { rate_limit: { per_second: 50, burst: 100 } }, as);
      assert.equal(within.status, 201, within.text);
      assert.equal((await limited.request('POST', '/v1/api-keys', {}, as)).body.rate_limit, null, 'no limit of its own: the default, as the creator');
    } finally {
      await limited.close();
    }
  });

  test('a revoked key stops working at once; an expired one gets 401', async () => {
    const made = (await create(null, { scopes: ['search'], expires_at: new Date(clock + HOUR).toISOString() })).body;
    const as = { authorization: `Bearer ${made.key}` };
    assert.equal((await server.request('GET', '/v1/collections', undefined, as)).status, 200);
    clock += HOUR + 1;
    const expired = await server.request('GET', '/v1/collections', undefined, as);
    assert.equal(expired.status, 401);

    const other = (await create(null, { scopes: ['search'] })).body;
    const asOther = { authorization: `Bearer ${other.key}` };
    assert.equal((await server.request('GET', '/v1/collections', undefined, asOther)).status, 200);
    assert.equal((await server.request('DELETE', `/v1/api-keys/${other.id}`)).status, 204);
    assert.equal((await server.request('GET', '/v1/collections', undefined, asOther)).status, 401);
    assert.equal((await server.request('DELETE', `/v1/api-keys/${other.id}`)).status, 404);
    const listed = await server.request('GET', '/v1/api-keys');
    assert.ok(!listed.body.keys.some((record: { id: string }) => record.id === other.id));
  });
});
