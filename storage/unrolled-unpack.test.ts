// The unrolled whole-block decoders read what packBlock wrote, at every width and any offset,
// both as plain values and as doc gaps; and they still do where code generation is forbidden.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { BLOCK_SIZE, packBlock, packedByteLength } from './bit-packing.ts';
import { ByteWriter } from './byte-writer.ts';
import { unpackWholeBlock, unpackWholeBlockOfGaps } from './unrolled-unpack.ts';
import { seededRandom } from '../test/helpers/seeded-random.ts';

function viewOf(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

test('unpackWholeBlock reads every bit width at aligned and unaligned offsets', () => {
  const random = seededRandom(11);
  for (let bits = 0; bits <= 32; bits++) {
    for (const lead of [0, 1, 2, 3]) {
      const max = bits === 32 ? 0xffffffff : 2 ** bits - 1;
      const values = new Uint32Array(BLOCK_SIZE);
      for (let i = 0; i < BLOCK_SIZE; i++) values[i] = Math.floor(random() * (max + 1));
      if (bits > 0) values[BLOCK_SIZE - 1] = max;
      const writer = new ByteWriter();
      for (let i = 0; i < lead; i++) writer.writeU8(0xff);
      packBlock(values, BLOCK_SIZE, bits, writer);
      writer.writeU32(0xffffffff); // what follows must not leak into the last value
      const bytes = writer.finish();
      const out = new Uint32Array(BLOCK_SIZE).fill(12345);
      const end = unpackWholeBlock(viewOf(bytes), lead, bits, out);
      assert.equal(end, lead + packedByteLength(BLOCK_SIZE, bits));
      assert.deepEqual(Array.from(out), Array.from(values), `bits ${bits}, offset ${lead}`);
    }
  }
});

test('unpackWholeBlockOfGaps turns gaps into doc numbers after the base', () => {
  const random = seededRandom(12);
  for (let bits = 0; bits <= 24; bits++) {
    const max = 2 ** bits - 1;
    const gaps = new Uint32Array(BLOCK_SIZE);
    for (let i = 0; i < BLOCK_SIZE; i++) gaps[i] = Math.floor(random() * (max + 1));
    const writer = new ByteWriter();
    writer.writeU8(3);
    packBlock(gaps, BLOCK_SIZE, bits, writer);
    const bytes = writer.finish();
    for (const base of [-1, 0, 999_999]) {
      const expected: number[] = [];
      let doc = base;
      for (const gap of gaps) expected.push((doc += gap + 1));
      const out = new Uint32Array(BLOCK_SIZE);
      assert.equal(unpackWholeBlockOfGaps(viewOf(bytes), 1, bits, out, base), 1 + packedByteLength(BLOCK_SIZE, bits));
      assert.deepEqual(Array.from(out), expected, `bits ${bits}, base ${base}`);
    }
  }
});

test('the decoders fall back to the general loop where code from strings is forbidden', () => {
  const script = `
    import { packBlock } from './storage/bit-packing.ts';
    import { ByteWriter } from './storage/byte-writer.ts';
    import { unpackWholeBlockOfGaps } from './storage/unrolled-unpack.ts';
    let refused = false;
    try { new Function('return 1'); } catch { refused = true; }
    const gaps = Array.from({ length: 128 }, (_, i) => (i * 7) % 13);
    const writer = new ByteWriter();
    packBlock(gaps, 128, 4, writer);
    const bytes = writer.finish();
    const out = new Uint32Array(128);
    unpackWholeBlockOfGaps(new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), 0, 4, out, 10);
    let doc = 10;
    const ok = gaps.every((gap, i) => out[i] === (doc += gap + 1));
    console.log(JSON.stringify({ refused, ok }));
  `;
  const child = spawnSync(process.execPath, ['--disallow-code-generation-from-strings', '--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: new URL('..', import.meta.url),
    encoding: 'utf8',
  });
  assert.equal(child.status, 0, child.stderr);
  assert.deepEqual(JSON.parse(child.stdout.trim().split('\n').pop()!), { refused: true, ok: true });
});
