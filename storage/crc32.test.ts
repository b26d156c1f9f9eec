// Tests for the CRC-32 implementation against published check values.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { crc32, tableCrc32 } from './crc32.ts';

const ascii = (text: string): Uint8Array => new TextEncoder().encode(text);

test('crc32 matches the standard check value', () => {
  assert.equal(crc32(ascii('123456789')), 0xcbf43926);
});

test('crc32 of known strings', () => {
  assert.equal(crc32(new Uint8Array(0)), 0);
  assert.equal(crc32(ascii('a')), 0xe8b7be43);
  assert.equal(crc32(ascii('The quick brown fox jumps over the lazy dog')), 0x414fa339);
  assert.equal(crc32(new Uint8Array(32)), 0x190a55ad);
});

test('crc32 continues across chunks with a seed', () => {
  const whole = ascii('hello, write-ahead world');
  const split = 7;
  assert.equal(crc32(whole.subarray(split), crc32(whole.subarray(0, split))), crc32(whole));
});

test('the native and the table-driven crc32 agree, chunked or not', () => {
  const data = new Uint8Array(100_003);
  for (let i = 0; i < data.length; i++) data[i] = (i * 2654435761) >>> 24;
  assert.equal(crc32(data), tableCrc32(data));
  assert.equal(crc32(data.subarray(5000), crc32(data.subarray(0, 5000))), tableCrc32(data));
});

test('an empty chunk leaves the checksum as it was, whatever its buffer', () => {
  const seed = crc32(ascii('abc'));
  assert.equal(crc32(new Uint8Array(0), seed), seed);
  assert.equal(crc32(new Uint8Array(16).subarray(8, 8), seed), seed);
  assert.equal(crc32(new Uint8Array(new SharedArrayBuffer(8), 4, 0), seed), seed);
});
