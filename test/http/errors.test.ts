// The error handler (docs/api.md, "Errors") on a real app: unexpected errors become a 500 `internal` problem
// with a generic detail (the message, stack, file paths and storage codes stay in the log),
// engine query errors become 400 `invalid_query`, and FolioErrors keep their code and detail.

import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { EngineError } from '../../engine/errors.ts';
import { buildApp } from '../../server/http/app.ts';
import { FolioError } from '../../server/errors/folio-error.ts';
import { TEST_MASTER_KEY } from '../helpers/test-server.ts';

const SECRET_PATH = '/var/lib/folio/secret-dir/segment-7.seg';

describe('error handler', () => {
  let app: FastifyInstance;
  let dataDir: string;
  const logLines: string[] = [];
  const inject = (url: string) => app.inject({ url, headers: { authorization: `Bearer ${TEST_MASTER_KEY}` } });

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'folio-errors-'));
    app = await buildApp({ dataDir, masterKey: TEST_MASTER_KEY, logger: { level: 'info', stream: { write: (line) => logLines.push(line) } } });
    // Public, because the access table (server/auth/access-table.ts) knows only real routes.
    app.get('/v1/test/crash', { config: { public: true } }, async () => {
      throw new Error(`cannot open ${SECRET_PATH}`);
    });
    app.get('/v1/test/corrupt', { config: { public: true } }, async () => {
      throw Object.assign(new Error(`checksum mismatch in ${SECRET_PATH}`), { code: 'corrupt_file' });
    });
    app.get('/v1/test/query', { config: { public: true } }, async () => {
      throw new EngineError('invalid_query', 'unbalanced parenthesis at 3');
    });
    app.get('/v1/test/folio', { config: { public: true } }, async () => {
      throw new FolioError('validation_failed', 'explained', [{ path: '/body/x', message: 'is wrong' }]);
    });
    app.get('/v1/test/internal', { config: { public: true } }, async () => {
      throw new FolioError('internal', `invariant broken near ${SECRET_PATH}`);
    });
  });
  after(async () => {
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  for (const path of ['/v1/test/crash', '/v1/test/corrupt', '/v1/test/internal']) {
    test(`${path}: 500 internal with a generic detail; the cause is logged`, async () => {
      const response = await inject(path);
      assert.equal(response.statusCode, 500);
      assert.match(response.headers['content-type'] as string, /^application\/problem\+json/);
      const body = response.json();
      assert.deepEqual(Object.keys(body).sort(), ['code', 'detail', 'status', 'title', 'type']);
      assert.equal(body.code, 'internal');
      assert.equal(body.title, 'Internal Server Error');
      assert.ok(!response.body.includes('secret-dir'), response.body);
      assert.ok(!response.body.includes('corrupt_file'), response.body);
      assert.ok(!/\bat\s+\S+\s+\(/.test(response.body), 'no stack trace');
      assert.ok(logLines.some((line) => line.includes('secret-dir')), 'the real error should be in the log');
    });
  }

  test('an engine invalid_query error → 400 invalid_query with its message', async () => {
    const response = await inject('/v1/test/query');
    assert.equal(response.statusCode, 400);
    assert.deepEqual(response.json(), {
      type: 'about:blank',
      title: 'Bad Request',
      status: 400,
      code: 'invalid_query',
      detail: 'unbalanced parenthesis at 3',
    });
  });

  test('a FolioError keeps its code, detail and field errors', async () => {
    const response = await inject('/v1/test/folio');
    assert.equal(response.statusCode, 400);
    assert.deepEqual(response.json(), {
      type: 'about:blank',
      title: 'Bad Request',
      status: 400,
      code: 'validation_failed',
      detail: 'explained',
      errors: [{ path: '/body/x', message: 'is wrong' }],
    });
  });
});
