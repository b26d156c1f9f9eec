// The server's log: one line per request (method, path without the query string, status,
// milliseconds, the error code of a refusal) and no other line for an ordinary request; the
// pretty form turns pino's JSON into lines for people; `--log-format` is checked.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { prettyLogLine } from '../../server/http/log-lines.ts';
import { resolveConfig } from '../../server/index.ts';
import { startTestServer } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';

describe('request log lines', () => {
  let server: TestServer;
  const lines: string[] = [];
  const entries = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

  before(async () => {
    server = await startTestServer({ logger: { level: 'info', stream: { write: (line) => lines.push(line) } } });
  });
  after(async () => {
    await server.close();
  });

  test('each request is one line, without its query string; a refusal names its code', async () => {
    lines.length = 0;
    assert.equal((await server.request('GET', '/v1/collections?secret-words=1')).status, 200);
    assert.equal((await server.request('GET', '/v1/collections/nowhere')).status, 404);
    const requests = entries();
    assert.equal(requests.length, 2, lines.join(''));
    assert.deepEqual(
      requests.map(({ msg, method, path, status, code }) => ({ msg, method, path, status, code })),
      [
        { msg: 'request', method: 'GET', path: '/v1/collections', status: 200, code: undefined },
        { msg: 'request', method: 'GET', path: '/v1/collections/nowhere', status: 404, code: 'collection_not_found' },
      ],
    );
    assert.equal(typeof requests[0].ms, 'number');
    assert.ok(!lines.join('').includes('secret-words'));
  });
});

test('the pretty form: time, level, the request in words, other fields as key=value', () => {
  const time = Date.parse('2026-11-24T12:00:01.250Z');
  assert.equal(
    prettyLogLine(JSON.stringify({ level: 30, time, pid: 1, hostname: 'h', reqId: 'req-1', method: 'GET', path: '/v1/health', status: 200, ms: 3.2, msg: 'request' })),
    '12:00:01 INFO  GET /v1/health 200 3.2 ms\n',
  );
  assert.equal(
    prettyLogLine(JSON.stringify({ level: 40, time, reqId: 'req-2', method: 'POST', path: '/v1/x', status: 401, ms: 1, code: 'unauthorized', msg: 'request' })),
    '12:00:01 WARN  POST /v1/x 401 1 ms code=unauthorized\n',
  );
  assert.equal(prettyLogLine(JSON.stringify({ level: 50, time, msg: 'shutdown failed', err: { message: 'disk full' } })), '12:00:01 ERROR shutdown failed err="disk full"\n');
  assert.equal(prettyLogLine('not json'), 'not json\n');
});

test('--log-format takes pretty or json; absent, the server picks by terminal', () => {
  assert.equal(resolveConfig({ logFormat: 'json' }, {}).logFormat, 'json');
  assert.equal(resolveConfig({}, { FOLIO_LOG_FORMAT: 'PRETTY' }).logFormat, 'pretty');
  assert.equal(resolveConfig({}, {}).logFormat, undefined);
  assert.throws(() => resolveConfig({ logFormat: 'xml' }, {}), /--log-format must be one of pretty, json, got 'xml'/);
});
