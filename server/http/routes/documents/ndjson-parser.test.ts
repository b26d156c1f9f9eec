// Unit tests of the streaming NDJSON batch parser: a body split anywhere (inside a line, a
// `\r\n` or a multi-byte character) gives the same documents or the same error as the whole
// body; line numbers count blank lines; a batch over MAX_BATCH_DOCUMENTS gets the exact count.

import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, test } from 'node:test';
import type { FastifyRequest } from 'fastify';
import { FolioError } from '../../../errors/folio-error.ts';
import { MAX_BATCH_DOCUMENTS, MAX_LISTED_FIELD_ERRORS } from '../../../api/limits.ts';
import { NdjsonBatch, ndjsonParser, parseNdjsonBatch } from './ndjson-parser.ts';

type Outcome = { documents: unknown[] } | { code: string; message: string; errors: unknown };

function outcomeOf(run: () => unknown[]): Outcome {
  try {
    return { documents: run() };
  } catch (error) {
    assert.ok(error instanceof FolioError, String(error));
    return { code: error.code, message: error.message, errors: error.errors };
  }
}

function inChunks(chunks: Buffer[]): Outcome {
  return outcomeOf(() => {
    const batch = new NdjsonBatch();
    for (const chunk of chunks) batch.write(chunk);
    return batch.end();
  });
}

const BODIES = [
  '',
  '\n\n',
  '\r\n \n\t',
  '{"id":"a"}',
  '{"id":"a"}\n',
  '{"id":"a","text":"café 東京 😀"}\r\n\r\n{"id":"b","title":"Two"}\n\n{"id":"c"}',
  '{"id":"ok","text":"x"}\n\n{"id":"bad","metadata":{"x":{}}}\n{not json\r\n{"id":"a","__proto__":{}}',
  '\uFEFF{"id":"bom"}',
  '{"id":"a"}\n{"id":"b","constructor":{"prototype":{}}}\n',
];

describe('NdjsonBatch', () => {
  test('gives what the whole body gives, split at every byte position', () => {
    for (const source of BODIES) {
      const body = Buffer.from(source, 'utf8');
      const expected = outcomeOf(() => parseNdjsonBatch(source));
      for (let at = 0; at <= body.length; at++) {
        assert.deepEqual(inChunks([body.subarray(0, at), body.subarray(at)]), expected, `${JSON.stringify(source)} split at ${at}`);
      }
      assert.deepEqual(inChunks(Array.from(body, (byte) => Buffer.from([byte]))), expected, `${JSON.stringify(source)} byte by byte`);
    }
  });

  test('line numbers count from 1 with blank lines; \\r\\n is tolerated', () => {
    const outcome = inChunks([Buffer.from('{"id":"a"}\r\n\r\n{"id":"b","metadata":{"x":{}}}\r\n\n{oops\n')]);
    assert.equal((outcome as { code: string }).code, 'validation_failed');
    const paths = ((outcome as { errors: { path: string }[] }).errors).map((error) => error.path);
    assert.deepEqual(paths, ['/body/line/3/metadata/x', '/body/line/5']);
    assert.deepEqual(inChunks([Buffer.from('{"id":"a"}\r\n{"id":"b"}\r\n')]), { documents: [{ id: 'a' }, { id: 'b' }] });
  });

  test(`at most ${MAX_LISTED_FIELD_ERRORS} errors are listed`, () => {
    const body = Array.from({ length: 80 }, () => '{bad').join('\n');
    const outcome = inChunks([Buffer.from(body)]) as { message: string; errors: unknown[] };
    assert.equal(outcome.message, 'invalid NDJSON body; nothing was written');
    assert.equal(outcome.errors.length, MAX_LISTED_FIELD_ERRORS);
  });

  test(`more than ${MAX_BATCH_DOCUMENTS} document lines → payload_too_large with the exact count, bad lines or not`, () => {
    const lines = Array.from({ length: MAX_BATCH_DOCUMENTS + 3 }, (_, i) => `{"id":"d${i}"}`);
    lines[2] = '{bad';
    const body = Buffer.from(`${lines.join('\n')}\n\n`);
    const chunks: Buffer[] = [];
    for (let at = 0; at < body.length; at += 1000) chunks.push(body.subarray(at, at + 1000));
    assert.deepEqual(inChunks(chunks), {
      code: 'payload_too_large',
      message: `a batch may hold at most ${MAX_BATCH_DOCUMENTS} documents; this one has ${MAX_BATCH_DOCUMENTS + 3}`,
      errors: undefined,
    });
  });

  test('the Fastify parser reads the stream; NDJSON elsewhere is a 415 once the body is read', async () => {
    const payload = new PassThrough();
    const batch = ndjsonParser({ method: 'POST', url: '/v1/collections/c/documents', headers: {} } as unknown as FastifyRequest, payload);
    payload.write('{"id":"a"}\n{"id"');
    payload.end(':"b"}\n');
    assert.deepEqual(await batch, [{ id: 'a' }, { id: 'b' }]);

    const elsewhere = new PassThrough();
    const refused = ndjsonParser({ method: 'PUT', url: '/v1/collections/c/documents/a', headers: {} } as unknown as FastifyRequest, elsewhere);
    elsewhere.end('{"text":"x"}');
    await assert.rejects(refused, (error) => error instanceof FolioError && error.code === 'unsupported_media_type');
  });
});
