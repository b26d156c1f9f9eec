// Requests refused below the routes still answer RFC 9457 problems (issue 18's low findings):
// headers over 16 KiB → 431 `headers_too_large`, a malformed request line → 400 `bad_request`,
// an HTTP/1.1 request without Host → 400 `bad_request` naming the header; HTTP/1.0 needs no
// Host. Sent over raw sockets to a real server, as the parser sees them.

import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { startTestServer } from '../helpers/test-server.ts';
import type { TestServer } from '../helpers/test-server.ts';

describe('HTTP parser errors', () => {
  let server: TestServer;
  let port: number;

  /** Sends `text` and reads the answer's status line, headers and body. */
  const raw = (text: string): Promise<{ status: number; headers: string; body: string }> =>
    new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write(text));
      let out = '';
      const done = (): void => {
        socket.destroy();
        const [head, ...rest] = out.split('\r\n\r\n');
        resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), headers: head.toLowerCase(), body: rest.join('\r\n\r\n') });
      };
      socket.on('data', (chunk) => {
        out += chunk;
        // A complete answer: its body is there (keep-alive answers do not close the socket).
        const length = /content-length: (\d+)/i.exec(out);
        if (length !== null && out.includes('\r\n\r\n') && Buffer.byteLength(out.split('\r\n\r\n').slice(1).join('\r\n\r\n')) >= Number(length[1])) done();
      });
      socket.on('close', done);
      socket.on('error', reject);
    });

  before(async () => {
    server = await startTestServer();
    port = Number(new URL(server.url).port);
  });
  after(async () => {
    await server.close();
  });

  const problem = (answer: { headers: string; body: string }) => {
    assert.match(answer.headers, /content-type: application\/problem\+json/);
    return JSON.parse(answer.body) as { status: number; code: string; detail: string; errors?: { path: string }[] };
  };

  test('headers over the limit: 431 headers_too_large', async () => {
    const answer = await raw(`GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    assert.equal(answer.status, 431);
    assert.deepEqual([problem(answer).status, problem(answer).code], [431, 'headers_too_large']);
  });

  test('a malformed request line: 400 bad_request', async () => {
    const answer = await raw('GARBAGE\r\n\r\n');
    assert.equal(answer.status, 400);
    assert.equal(problem(answer).code, 'bad_request');
  });

  test('no Host on HTTP/1.1: 400 bad_request naming the header; HTTP/1.0 needs none', async () => {
    const answer = await raw('GET /v1/health HTTP/1.1\r\nConnection: close\r\n\r\n');
    assert.equal(answer.status, 400);
    const body = problem(answer);
    assert.equal(body.code, 'bad_request');
    assert.equal(body.errors?.[0].path, '/headers/host');
    const old = await raw('GET /v1/health HTTP/1.0\r\n\r\n');
    assert.equal(old.status, 200, old.body);
  });
});
