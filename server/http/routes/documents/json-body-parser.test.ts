// Unit tests of the streaming JSON body parser: whatever the body and wherever its chunks
// break, it answers what the server's whole-body JSON parser and request validator answer. On
// other routes that is the value or the same Fastify error; on the batch route a JSON array
// goes to the ingest parser, whose answer must be the same problem: "not valid JSON" where the
// whole-body parser fails, the validator's field errors for an invalid batch, a 413 with the
// count past MAX_BATCH_DOCUMENTS, and otherwise the documents' ids.

import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { after, describe, test } from 'node:test';
import Fastify from 'fastify';
import type { FastifyRequest } from 'fastify';
import { Compile } from 'typebox/compile';
import { MAX_BATCH_DOCUMENTS } from '../../../api/limits.ts';
import { DocumentPostBodySchema } from '../../../api/document.ts';
import { toFieldErrors } from '../../../api/validation-errors.ts';
import type { RawValidationError } from '../../../api/validation-errors.ts';
import { BatchBody, parseBatchBody } from '../../../ingest/index.ts';
import { FolioError } from '../../../errors/index.ts';
import { jsonBodyParser } from './json-body-parser.ts';

const app = Fastify();
// The document service's parseBody, inline (the ingest pool runs this same function).
const parse = jsonBodyParser(app, async (bytes, format) => parseBatchBody(bytes, format));
const postBodyValidator = Compile(DocumentPostBodySchema);
const wholeBodyParser = app.getDefaultJsonParser('error', 'error') as (
  request: unknown,
  body: string,
  done: (error: Error | null, value?: unknown) => void,
) => void;

const BATCH = { method: 'POST', url: '/v1/collections/c/documents?refresh=wait_for' };
const PUT = { method: 'PUT', url: '/v1/collections/c/documents/d' };

type Outcome = { value: unknown } | { code: string; message: string; errors?: unknown };

async function streamed(chunks: Buffer[], route = BATCH): Promise<Outcome> {
  const request = { ...route, headers: {} } as unknown as FastifyRequest;
  const payload = new PassThrough();
  const result = parse(request, payload);
  for (const chunk of chunks) payload.write(chunk);
  payload.end();
  try {
    const value = await result;
    return { value: value instanceof BatchBody ? { ids: value.ids } : value };
  } catch (error) {
    const { code, message, errors } = error as { code: string; message: string; errors?: unknown };
    return errors === undefined ? { code, message } : { code, message, errors };
  }
}

/**
 * What the client of the batch route got for a whole body before: the parser's answer, then
 * for a JSON array the request validator's (the ids of a valid batch, or its field errors), as
 * the problem the error handler makes of it (code and detail).
 */
function wholeBatch(body: Buffer): Outcome {
  const outcome = whole(body);
  if ('code' in outcome) return { code: 'validation_failed', message: 'request body is not valid JSON' };
  if (!Array.isArray(outcome.value)) return outcome;
  if (outcome.value.length > MAX_BATCH_DOCUMENTS) {
    return { code: 'payload_too_large', message: `a batch may hold at most ${MAX_BATCH_DOCUMENTS} documents; this one has ${outcome.value.length}` };
  }
  if (postBodyValidator.Check(outcome.value)) return { value: { ids: outcome.value.map((doc: { id: string }) => doc.id) } };
  const raw = postBodyValidator.Errors(outcome.value) as unknown as RawValidationError[];
  return { code: 'validation_failed', message: 'invalid request body', errors: toFieldErrors('body', raw) };
}

/** A FolioError's code where the route's answer is a Fastify error: the problem a client sees is the same. */
function asProblem(outcome: Outcome): Outcome {
  return 'code' in outcome && outcome.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ? { code: 'validation_failed', message: 'request body is not valid JSON' } : outcome;
}

/** What the server's parser (server/http/app.ts: empty means no body) answers for the whole body. */
function whole(body: Buffer): Outcome {
  const text = body.toString('utf8');
  if (text.length === 0) return { value: undefined };
  let outcome: Outcome | undefined;
  wholeBodyParser({}, text, (error, value) => {
    outcome = error === null ? { value } : { code: String((error as Error & { code?: unknown }).code), message: error.message };
  });
  return outcome!;
}

const BODIES = [
  '',
  '  ',
  '[]',
  '\uFEFF[{"id":"bom"}]',
  '\uFEFF \n [1, 2]',
  '\uFEFF',
  '\uFEFF\uFEFF[1]',
  '[\uFEFF1]',
  '[1,\uFEFF2]',
  ' \r\n\t[ {"id":"a","text":"café \\"東京\\" \\\\ 😀"} , {"id":"b","metadata":{"t":["x","]"]}} ]\n',
  '{"id":"object","text":"[not an array]"}',
  '"string"',
  'null',
  '123',
  '[1,]',
  '[,]',
  '[1,,2]',
  '[1 2]',
  '[{"a":1}{"b":2}]',
  '[1] x',
  '[1]]',
  '[1',
  '["open',
  '[{"id":"a","metadata":{"__proto__":{"x":1}}}]',
  '[{"id":"a","metadata":{"\\u005f_proto__":{"x":1}}}]',
  '[{"id":"a","constructor":{"prototype":{}}}]',
  '[{"id":"a","constructor":{"prototype":1}}]',
  '{"__proto__":{}}',
  '{"a":1} x',
];

describe('jsonBodyParser', () => {
  after(() => app.close());

  test('answers what the whole-body parser answers, split at every byte position', async () => {
    for (const source of BODIES) {
      const body = Buffer.from(source, 'utf8');
      const expected = whole(body);
      for (let at = 0; at <= body.length; at++) {
        const chunks = [body.subarray(0, at), body.subarray(at)];
        assert.deepEqual(await streamed(chunks, PUT), expected, `${JSON.stringify(source)} split at ${at}`);
      }
    }
  });

  test('the batch route answers the problem the whole body got before, split at every byte position', async () => {
    const batches = [...BODIES, '[{"id":"a"},{"id":"b","title":"B"},{"id":"a","text":"again"}]', '[{"id":"a"},{"id":"bad id"},{"metadata":[]}]'];
    for (const source of batches) {
      const body = Buffer.from(source, 'utf8');
      const expected = wholeBatch(body);
      for (let at = 0; at <= body.length; at++) {
        const chunks = [body.subarray(0, at), body.subarray(at)];
        assert.deepEqual(asProblem(await streamed(chunks)), expected, `${JSON.stringify(source)} split at ${at}`);
      }
    }
  });

  test('a byte-order mark split byte by byte is still skipped', async () => {
    const body = Buffer.from('\uFEFF [{"id":"x"}]');
    const chunks = Array.from(body, (byte) => Buffer.from([byte]));
    assert.deepEqual(await streamed(chunks, PUT), { value: [{ id: 'x' }] });
    assert.deepEqual(await streamed(chunks), { value: { ids: ['x'] } });
  });

  test(`a batch write of more than ${MAX_BATCH_DOCUMENTS} elements → payload_too_large with the exact count`, async () => {
    const elements = Array.from({ length: MAX_BATCH_DOCUMENTS + 2 }, (_, i) => ({ id: `d${i}` }));
    const outcome = await streamed([Buffer.from(JSON.stringify(elements))]);
    assert.deepEqual(outcome, {
      code: 'payload_too_large',
      message: `a batch may hold at most ${MAX_BATCH_DOCUMENTS} documents; this one has ${MAX_BATCH_DOCUMENTS + 2}`,
    });
    const exact = await streamed([Buffer.from(JSON.stringify(elements.slice(0, MAX_BATCH_DOCUMENTS)))]);
    assert.equal((exact as { value: { ids: string[] } }).value.ids.length, MAX_BATCH_DOCUMENTS);
  });

  test('past the batch limit, elements are still checked: a malformed one is still "not valid JSON"', async () => {
    const elements = Array.from({ length: MAX_BATCH_DOCUMENTS + 5 }, (_, i) => JSON.stringify({ id: `d${i}` }));
    elements[MAX_BATCH_DOCUMENTS + 3] = '{"id":"broken"';
    const outcome = await streamed([Buffer.from(`[${elements.join(',')}]`)]);
    assert.ok(outcome instanceof Object && 'code' in outcome);
    assert.deepEqual(outcome, { code: 'validation_failed', message: 'request body is not valid JSON' });
  });

  test('other routes keep every element (their schema decides)', async () => {
    const elements = Array.from({ length: MAX_BATCH_DOCUMENTS + 1 }, (_, i) => i);
    const outcome = await streamed([Buffer.from(JSON.stringify(elements))], PUT);
    assert.deepEqual(outcome, { value: elements });
  });
});
