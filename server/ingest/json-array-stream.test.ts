// Unit tests of the streaming JSON array scanner: a body split anywhere (inside strings,
// escapes and multi-byte characters) gives exactly the elements JSON.parse gives, and every
// malformed body is refused, wherever it is split.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { JsonArrayStream, JsonArraySyntaxError } from './json-array-stream.ts';

/** Scans `chunks` and JSON.parses each element, as the body parser does; each element's byte span holds its text. */
function scan(chunks: Uint8Array[]): { values: unknown[]; texts: string[] } {
  const values: unknown[] = [];
  const texts: string[] = [];
  const body = Buffer.concat(chunks);
  const scanner = new JsonArrayStream((text, index, start, end) => {
    assert.equal(index, texts.length);
    assert.equal(body.subarray(start, end).toString('utf8'), text, 'the span is the element');
    texts.push(text);
    values.push(JSON.parse(text));
  });
  for (const chunk of chunks) scanner.write(chunk);
  scanner.end();
  assert.equal(scanner.count, values.length);
  return { values, texts };
}

/** The body as two chunks split at `at`. */
function splitAt(body: Buffer, at: number): Buffer[] {
  return [body.subarray(0, at), body.subarray(at)];
}

function bytesOf(body: Buffer): Buffer[] {
  return Array.from(body, (byte) => Buffer.from([byte]));
}

const VALID_BODIES = [
  '[]',
  ' \t\r\n[ \n ] \r\n\t',
  '[1]',
  '[1,2,3]',
  '[ 1 , 2 ,3 ]',
  '[{"id":"a","text":"plain"}]',
  '[{"id":"q","text":"a \\"quoted\\" word, a back\\\\slash \\\\\\" and \\\\"}, {"id":"r"}]',
  '[{"text":"brackets ] } [ { and , commas in strings"},"]",",","}"]',
  '[{"text":"café, 東京, 😀, \\u00e9\\ud83d\\ude00"},"ü"]',
  '[[1,[2,[3,[]]]],{"a":{"b":{"c":[{"d":null}]}}},[],{}]',
  '[true,false,null,-1.5e3,"",[""],{"":""}]',
  '[\n  {"id": "x"},\n  {"id": "y"}\n]\n',
  '["\\\\","\\\\\\\\","\\"","\\/"]',
];

describe('JsonArrayStream', () => {
  test('valid bodies give the elements JSON.parse gives, split at every byte position', () => {
    for (const source of VALID_BODIES) {
      const body = Buffer.from(source, 'utf8');
      const expected = JSON.parse(source) as unknown[];
      assert.deepEqual(scan([body]).values, expected, source);
      for (let at = 0; at <= body.length; at++) {
        assert.deepEqual(scan(splitAt(body, at)).values, expected, `${source} split at ${at}`);
      }
      assert.deepEqual(scan(bytesOf(body)).values, expected, `${source} byte by byte`);
    }
  });

  test('split at every pair of positions (three chunks)', () => {
    const source = '[{"t":"é\\"東\\\\"},[1,{"x":"]"}], "😀" ]';
    const body = Buffer.from(source, 'utf8');
    const expected = JSON.parse(source) as unknown[];
    for (let first = 0; first <= body.length; first++) {
      for (let second = first; second <= body.length; second++) {
        const chunks = [body.subarray(0, first), body.subarray(first, second), body.subarray(second)];
        assert.deepEqual(scan(chunks).values, expected, `split at ${first} and ${second}`);
      }
    }
  });

  test('element texts run from their first non-whitespace byte to their comma or bracket', () => {
    assert.deepEqual(scan([Buffer.from('[ 1 ,\n{"a":[2]}\t]')]).texts, ['1 ', '{"a":[2]}\t']);
  });

  test('plain Uint8Array chunks are read too', () => {
    const body = new TextEncoder().encode('[{"a":"東京"},2]');
    assert.deepEqual(scan([body.subarray(0, 9), body.subarray(9)]).values, [{ a: '東京' }, 2]);
  });

  test('a chunk may be reused after write: the part an element still needs is copied', () => {
    const values: unknown[] = [];
    const scanner = new JsonArrayStream((text) => values.push(JSON.parse(text)));
    const chunk = Buffer.from('[{"text":"kept');
    scanner.write(chunk);
    chunk.fill(0x78);
    scanner.write(Buffer.from(' whole"}]'));
    scanner.end();
    assert.deepEqual(values, [{ text: 'kept whole' }]);
  });

  test('many elements are handed on one by one', () => {
    const source = JSON.stringify(Array.from({ length: 5000 }, (_, i) => ({ id: `d${i}`, n: [i, { s: `"${i}"` }] })));
    const body = Buffer.from(source);
    const chunks: Buffer[] = [];
    for (let at = 0; at < body.length; at += 7) chunks.push(body.subarray(at, at + 7));
    assert.deepEqual(scan(chunks).values, JSON.parse(source));
  });

  const MALFORMED: [string, RegExp][] = [
    ['', /holds no array/],
    ['   ', /holds no array/],
    ['{"id":"a"}', /does not start with '\['/],
    ['x[1]', /does not start with '\['/],
    ['[', /ends before/],
    ['[1', /ends before/],
    ['[1,', /ends before/],
    ['["a]', /ends before/],
    ['["a\\"]', /ends before/],
    ['[{"a":[1]}', /ends before/],
    ['[,1]', /empty element at byte 1/],
    ['[1,,2]', /empty element at byte 3/],
    ['[1, ,2]', /empty element at byte 4/],
    ['[1,]', /comma before '\]' at byte 3/],
    ['[1 , ]', /comma before '\]' at byte 5/],
    ['[1}', /unmatched '}' at byte 2/],
    ['[{"a":1}}]', /unmatched '}' at byte 8/],
    ['[1] x', /text after the closing '\]' at byte 4/],
    ['[1]]', /text after the closing '\]' at byte 3/],
    ['[1],[2]', /text after the closing '\]' at byte 3/],
    ['[] []', /text after the closing '\]' at byte 3/],
  ];

  test('malformed structure is refused with a JsonArraySyntaxError, wherever the body is split', () => {
    for (const [source, message] of MALFORMED) {
      const body = Buffer.from(source);
      for (let at = 0; at <= body.length; at++) {
        assert.throws(() => scan(splitAt(body, at)), (error: unknown) => {
          assert.ok(error instanceof JsonArraySyntaxError, `${source} split at ${at}: ${String(error)}`);
          assert.match(error.message, message, source);
          return true;
        });
      }
    }
  });

  test('malformed elements (missing commas, bad values) fail in JSON.parse of that element', () => {
    for (const source of ['[1 2]', '[{"a":1} {"b":2}]', '[{"a":1}{"b":2}]', '["a" "b"]', '[[1}]', '[{"a":]}]', '[tru]', '[{"a":"\u0001"}]']) {
      const body = Buffer.from(source);
      for (let at = 0; at <= body.length; at++) {
        assert.throws(() => scan(splitAt(body, at)), SyntaxError, `${source} split at ${at}`);
      }
    }
  });

  test('an error from onElement propagates from write', () => {
    const scanner = new JsonArrayStream(() => {
      throw new RangeError('refused');
    });
    assert.throws(() => scanner.write(Buffer.from('[1,2]')), RangeError);
  });
});
