// Unit tests of the streaming body reader: chunks arrive in order, the body limit is enforced
// with Fastify's own errors, a failed parse still reads the rest of the body, and the read
// always settles (stream errors, a client that goes away).

import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, test } from 'node:test';
import type { FastifyRequest } from 'fastify';
import { readBodyStream } from './body-stream.ts';

function requestWith(headers: Record<string, string> = {}): FastifyRequest {
  return { headers } as unknown as FastifyRequest;
}

function hasCode(code: string) {
  return (error: unknown) => (error as { code?: string }).code === code;
}

describe('readBodyStream', () => {
  test('hands every chunk on, in order, and resolves at the end', async () => {
    const payload = new PassThrough();
    const seen: string[] = [];
    const read = readBodyStream(requestWith({ 'content-length': '6' }), payload, (chunk) => seen.push(chunk.toString()));
    payload.write('ab');
    payload.write('cd');
    payload.end('ef');
    await read;
    assert.deepEqual(seen, ['ab', 'cd', 'ef']);
  });

  test('a declared Content-Length over the limit is refused before anything is read', async () => {
    const payload = new PassThrough();
    let calls = 0;
    await assert.rejects(
      readBodyStream(requestWith({ 'content-length': '11' }), payload, () => calls++, 10),
      hasCode('FST_ERR_CTP_BODY_TOO_LARGE'),
    );
    assert.equal(payload.listenerCount('data'), 0);
    assert.equal(calls, 0);
  });

  test('a body growing past the limit is refused at once; the rest drains unread', async () => {
    const payload = new PassThrough();
    const seen: string[] = [];
    const read = readBodyStream(requestWith(), payload, (chunk) => seen.push(chunk.toString()), 10);
    payload.write('12345');
    payload.write('678901');
    await assert.rejects(read, hasCode('FST_ERR_CTP_BODY_TOO_LARGE'));
    assert.deepEqual(seen, ['12345']);
    assert.equal(payload.readableFlowing, true);
    payload.write('more');
    payload.destroy(new Error('late failure')); // no unhandled error once the read is over
    assert.deepEqual(seen, ['12345']);
  });

  test('when the consumer throws, the rest is read but not handed on, then the error is the answer', async () => {
    const payload = new PassThrough();
    const seen: string[] = [];
    const refusal = new SyntaxError('bad chunk');
    const read = readBodyStream(requestWith(), payload, (chunk) => {
      seen.push(chunk.toString());
      if (chunk.toString() === 'bad') throw refusal;
    });
    let settled = false;
    read.catch(() => {}).finally(() => (settled = true));
    payload.write('ok');
    payload.write('bad');
    payload.write('rest');
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(settled, false, 'settles only once the body is read');
    payload.end();
    await assert.rejects(read, (error) => error === refusal);
    assert.deepEqual(seen, ['ok', 'bad']);
  });

  test('the body limit still applies after the consumer failed', async () => {
    const payload = new PassThrough();
    const read = readBodyStream(requestWith(), payload, () => {
      throw new SyntaxError('bad');
    }, 10);
    payload.write('12345');
    payload.write('678901');
    await assert.rejects(read, hasCode('FST_ERR_CTP_BODY_TOO_LARGE'));
  });

  test('a body shorter than its Content-Length is refused as Fastify does', async () => {
    const payload = new PassThrough();
    const read = readBodyStream(requestWith({ 'content-length': '10' }), payload, () => {});
    payload.end('short');
    await assert.rejects(read, hasCode('FST_ERR_CTP_INVALID_CONTENT_LENGTH'));
  });

  test('a stream error rejects as a client error', async () => {
    const payload = new PassThrough();
    const read = readBodyStream(requestWith(), payload, () => {});
    payload.write('partial');
    payload.destroy(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
    await assert.rejects(read, (error: Error & { statusCode?: number }) => error.message === 'aborted' && error.statusCode === 400);
  });

  test('a stream closed before its end without an error rejects too (the promise never hangs)', async () => {
    const payload = new PassThrough();
    const read = readBodyStream(requestWith(), payload, () => {});
    payload.write('partial');
    payload.destroy();
    await assert.rejects(read, /ended early/);
    const gone = new PassThrough();
    gone.destroy();
    await assert.rejects(readBodyStream(requestWith(), gone, () => {}), /ended early/);
  });
});
