// Property tests: bit packing round-trips any values at any width, and varints round-trip.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BLOCK_SIZE, bitsForValues, packBlock, unpackBlock, packedByteLength } from './bit-packing.ts';
import { ByteWriter } from './byte-writer.ts';
import { ByteReader } from './byte-reader.ts';
import { seededRandom } from '../test/helpers/seeded-random.ts';

test('packBlock/unpackBlock round-trip every bit width and count', () => {
  const random = seededRandom(42);
  for (let bits = 0; bits <= 32; bits++) {
    for (const count of [1, 3, 31, 32, 33, 100, BLOCK_SIZE, 2 * BLOCK_SIZE + 5]) {
      const max = bits === 32 ? 0xffffffff : 2 ** bits - 1;
      const values = new Uint32Array(count);
      for (let i = 0; i < count; i++) values[i] = Math.floor(random() * (max + 1));
      if (bits > 0) values[count - 1] = max;
      const width = bitsForValues(values, count);
      assert.equal(width, bits);
      const writer = new ByteWriter();
      writer.writeU8(7); // an unaligned start
      packBlock(values, count, width, writer);
      const bytes = writer.finish();
      assert.equal(bytes.length, 1 + packedByteLength(count, width));
      const out = new Uint32Array(count);
      const end = unpackBlock(bytes, 1, count, width, out);
      assert.equal(end, bytes.length);
      assert.deepEqual(Array.from(out.subarray(0, count)), Array.from(values));
    }
  }
});

test('varints, fixed-width integers and strings round-trip', () => {
  const random = seededRandom(7);
  const writer = new ByteWriter(16);
  const numbers: number[] = [0, 1, 127, 128, 16383, 16384, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 53 - 1];
  for (let i = 0; i < 1000; i++) numbers.push(Math.floor(random() * 2 ** (random() * 53)));
  for (const n of numbers) writer.writeVarint(n);
  writer.writeU32(0xdeadbeef);
  writer.writeU64(2 ** 40 + 5);
  writer.writeF64(0.1);
  writer.writeString('héllo wörld ✓');
  const reader = new ByteReader(writer.finish());
  for (const n of numbers) assert.equal(reader.readVarint(), n);
  assert.equal(reader.readU32(), 0xdeadbeef);
  assert.equal(reader.readU64(), 2 ** 40 + 5);
  assert.equal(reader.readF64(), 0.1);
  assert.equal(reader.readString(), 'héllo wörld ✓');
  assert.equal(reader.remaining, 0);
});
