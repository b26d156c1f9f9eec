// Nanoseconds to decode one postings block (128 values) at several bit widths: the general loop
// of storage/bit-packing.ts (`unpackBlock`, then the gaps summed) against the unrolled decoders
// of storage/unrolled-unpack.ts, on random blocks of the same bytes. Best of 7 runs each.
//
//   npx tsx benchmarks/block-decode.ts

import { BLOCK_SIZE, ByteWriter, packBlock, packedByteLength, unpackBlock, unpackWholeBlock, unpackWholeBlockOfGaps } from '../storage/index.ts';
import { seededRandom } from '../test/helpers/seeded-random.ts';

const BLOCKS = 4096;
const ROUNDS = 10;
const random = seededRandom(7);

function nanosecondsPerBlock(decode: (block: number) => void): number {
  let best = Infinity;
  for (let run = 0; run < 7; run++) {
    const started = process.hrtime.bigint();
    for (let round = 0; round < ROUNDS; round++) for (let block = 0; block < BLOCKS; block++) decode(block);
    best = Math.min(best, Number(process.hrtime.bigint() - started) / (ROUNDS * BLOCKS));
  }
  return best;
}

console.log('| bits | gaps: loop + sum | gaps: unrolled | values: loop | values: unrolled |');
console.log('| --- | --- | --- | --- | --- |');
for (const bits of [1, 2, 3, 8, 11, 14]) {
  const writer = new ByteWriter();
  const offsets: number[] = [];
  const values = new Uint32Array(BLOCK_SIZE);
  for (let block = 0; block < BLOCKS; block++) {
    writer.writeU8(bits); // a header byte, as a postings block has: the packed words are unaligned
    offsets.push(writer.length);
    for (let i = 0; i < BLOCK_SIZE; i++) values[i] = Math.floor(random() * 2 ** bits);
    packBlock(values, BLOCK_SIZE, bits, writer);
  }
  const bytes = writer.finish();
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Uint32Array(BLOCK_SIZE);
  const loopGaps = nanosecondsPerBlock((block) => {
    unpackBlock(bytes, offsets[block], BLOCK_SIZE, bits, out);
    let doc = -1;
    for (let i = 0; i < BLOCK_SIZE; i++) out[i] = doc += out[i] + 1;
  });
  const unrolledGaps = nanosecondsPerBlock((block) => unpackWholeBlockOfGaps(view, offsets[block], bits, out, -1));
  const loopValues = nanosecondsPerBlock((block) => unpackBlock(bytes, offsets[block], BLOCK_SIZE, bits, out));
  const unrolledValues = nanosecondsPerBlock((block) => unpackWholeBlock(view, offsets[block], bits, out));
  if (packedByteLength(BLOCK_SIZE, bits) * BLOCKS + BLOCKS !== bytes.length) throw new Error('unexpected block layout');
  console.log(`| ${bits} | ${loopGaps.toFixed(0)} ns | ${unrolledGaps.toFixed(0)} ns | ${loopValues.toFixed(0)} ns | ${unrolledValues.toFixed(0)} ns |`);
}
