// Tests of batch bodies: parsing and checking an NDJSON body whole (ids, sizes and spans of a
// valid one; the errors of an invalid one, naming lines that count from 1 with blank lines; a
// JSON array's answers are checked against the server's parser in json-body-parser.test.ts),
// and that a document read back from its span — pending, or in a slice sent to an index thread
// — is the document the client sent.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MAX_BATCH_DOCUMENTS, MAX_LISTED_FIELD_ERRORS } from '../api/index.ts';
import type { DocumentInput } from '../api/index.ts';
import { FolioError } from '../errors/index.ts';
import { seededRandom } from '../../test/helpers/seeded-random.ts';
import { BodyDocument, bodyDocumentInput, sliceBodyDocuments, sliceIndexDocuments } from './batch-body.ts';
import { buildIndexDocument, jsonByteLength } from './index-document.ts';
import { parseBatchBody } from './parse-batch-body.ts';

const AT = '2026-11-24T07:00:00.000Z';

function parse(text: string): ReturnType<typeof parseBatchBody> {
  return parseBatchBody(Buffer.from(text, 'utf8'), 'ndjson');
}

function failure(text: string): { code: string; message: string; errors: { path: string; message: string }[] | undefined } {
  try {
    parse(text);
  } catch (error) {
    assert.ok(error instanceof FolioError, String(error));
    return { code: error.code, message: error.message, errors: error.errors };
  }
  assert.fail(`${JSON.stringify(text)} parsed`);
}

function documentsOf(text: string): DocumentInput[] {
  const body = parse(text);
  return body.ids.map((_, i) => bodyDocumentInput(body.bytes, body.spans, i));
}

describe('parseBatchBody', () => {
  test('keeps each document as its span: blank lines and \\r\\n are skipped, any text survives', () => {
    const text = '{"id":"a","text":"café 東京 😀"}\r\n\r\n{"id":"b","title":"Two"}\n\n \t\n{"id":"c","metadata":{"n":[1,2]}}';
    assert.deepEqual(documentsOf(text), [
      { id: 'a', text: 'café 東京 😀' },
      { id: 'b', title: 'Two' },
      { id: 'c', metadata: { n: [1, 2] } },
    ]);
    const body = parse(text);
    assert.deepEqual(body.ids, ['a', 'b', 'c']);
    assert.deepEqual(
      body.sizes,
      documentsOf(text).map((doc) => jsonByteLength({ id: doc.id, title: doc.title ?? null, text: doc.text ?? '', metadata: doc.metadata ?? {} })),
    );
  });

  test('errors name their lines, counted from 1 with blank lines; nothing is kept', () => {
    const outcome = failure(
      '{"id":"a"}\r\n\r\n{"id":"b","metadata":{"x":{}}}\r\n\n{oops\n{"id":"c","__proto__":{}}\n{"id":"d","metadata":{"\\u005f_proto__":{}}}',
    );
    assert.equal(outcome.code, 'validation_failed');
    assert.equal(outcome.message, 'invalid NDJSON body; nothing was written');
    assert.deepEqual(
      outcome.errors!.map((error) => error.path),
      ['/body/line/3/metadata/x', '/body/line/5', '/body/line/6', '/body/line/7'],
    );
    assert.match(outcome.errors![2].message, /forbidden property name "__proto__"/);
    assert.match(outcome.errors![3].message, /forbidden property name "__proto__"/, 'an escaped key is the same key');
  });

  test('a body without documents, or starting with a byte-order mark, is refused', () => {
    for (const text of ['', '\n\n', '\r\n \n\t', '\u2028\n']) {
      assert.deepEqual(failure(text), {
        code: 'validation_failed',
        message: 'the NDJSON body holds no documents',
        errors: [{ path: '/body', message: 'must hold at least one document' }],
      });
    }
    assert.equal(failure('\uFEFF{"id":"bom"}').errors![0].path, '/body/line/1');
  });

  test(`at most ${MAX_LISTED_FIELD_ERRORS} errors are listed`, () => {
    const outcome = failure(Array.from({ length: 80 }, () => '{bad').join('\n'));
    assert.equal(outcome.errors!.length, MAX_LISTED_FIELD_ERRORS);
  });

  test(`more than ${MAX_BATCH_DOCUMENTS} document lines → payload_too_large with the exact count, bad lines or not`, () => {
    const lines = Array.from({ length: MAX_BATCH_DOCUMENTS + 3 }, (_, i) => `{"id":"d${i}"}`);
    lines[2] = '{bad';
    assert.deepEqual(failure(`${lines.join('\n')}\n\n`), {
      code: 'payload_too_large',
      message: `a batch may hold at most ${MAX_BATCH_DOCUMENTS} documents; this one has ${MAX_BATCH_DOCUMENTS + 3}`,
      errors: undefined,
    });
  });
});

describe('documents of a batch body', () => {
  const random = seededRandom(2411);
  const WORDS = ['alpha', 'Straße', '東京', '😀', 'line\nbreak', 'quote"d', 'back\\slash', 'tab\t', '\u2028', ''];
  const randomDocument = (i: number): DocumentInput => {
    const text = Array.from({ length: Math.floor(random() * 6) }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
    const doc: DocumentInput = { id: `doc-${i % 40}` };
    if (random() < 0.7) doc.text = text;
    if (random() < 0.5) doc.title = random() < 0.2 ? null : text.slice(0, 8);
    if (random() < 0.5) doc.metadata = { tag: WORDS[Math.floor(random() * WORDS.length)], n: Math.floor(random() * 100) };
    return doc;
  };

  test('read back from their spans (NDJSON or a JSON array), pending or sliced for an index thread, they are what was sent', () => {
    for (let run = 0; run < 50; run++) {
      const sent = Array.from({ length: 1 + Math.floor(random() * 60) }, (_, i) => randomDocument(i));
      const asArray = run % 2 === 1;
      const text = asArray
        ? `${random() < 0.5 ? '\uFEFF' : ''} [ ${sent.map((doc) => JSON.stringify(doc) + (random() < 0.3 ? ' \n' : '')).join(' ,')} ] `
        : sent.map((doc) => JSON.stringify(doc) + (random() < 0.3 ? '\r' : '') + (random() < 0.2 ? '\n' : '')).join('\n');
      const body = parseBatchBody(Buffer.from(text, 'utf8'), asArray ? 'json-array' : 'ndjson');
      assert.deepEqual(body.ids, sent.map((doc) => doc.id));
      const pending = sent.map((_, i) => new BodyDocument(body, i, AT));
      pending.forEach((doc, i) => {
        assert.deepEqual(doc.toIndexDocument(), buildIndexDocument(sent[i], AT));
        assert.equal(doc.bytes, buildIndexDocument(sent[i], AT).bytes);
      });
      // An index thread gets any subset, in any order, as one slice of the body's bytes.
      const chosen = pending.filter(() => random() < 0.5).reverse();
      if (chosen.length === 0) continue;
      const slice = sliceBodyDocuments(chosen);
      assert.ok(slice.bytes.length <= body.bytes.length);
      assert.deepEqual(sliceIndexDocuments(slice), chosen.map((doc) => doc.toIndexDocument()));
    }
  });
});
