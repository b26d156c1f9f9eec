// The stored blocks' codecs: LZ4 blocks written by lz4-napi read back with the JavaScript
// decoder and ours with lz4-napi's, on inputs that exercise every rule of the format
// (short inputs, long literal and match runs, overlapping matches, offsets near 64 KiB,
// incompressible bytes); malformed blocks are refused; and a stored section holding deflate
// blocks of an older layout beside LZ4 blocks (a merge copies both) reads every record back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { deflateRawSync } from 'node:zlib';
import type { IndexDocument } from '../document.ts';
import { LZ4_BLOCK_MARK, NATIVE_LZ4, compressStoredBlock, decompressStoredBlock } from './stored-codec.ts';
import { StoredFieldsReader, StoredFieldsWriter, concatStoredFields } from './stored-fields.ts';

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function inputs(): [string, Uint8Array][] {
  const next = random(11);
  const bytes = (length: number, alphabet: number): Uint8Array => Uint8Array.from({ length }, () => Math.floor(next() * alphabet));
  const words = Array.from({ length: 300 }, (_, i) => `word${i.toString(36)}`);
  const text = new TextEncoder().encode(Array.from({ length: 4_000 }, () => words[Math.floor(next() ** 3 * words.length)]).join(' '));
  // A stretch repeated 64 KiB later: matches at the largest offset LZ4 allows, and just past it.
  const far = bytes(72_000, 256);
  far.set(far.subarray(0, 5_000), 65_535);
  return [
    ['empty', new Uint8Array(0)],
    ['one byte', Uint8Array.of(7)],
    ['12 bytes (no match may start)', bytes(12, 2)],
    ['13 bytes', new Uint8Array(13)],
    ['zeros (one overlapping match, long run)', new Uint8Array(100_000)],
    ['a short period (overlapping matches)', Uint8Array.from({ length: 5_000 }, (_, i) => 'abc'.charCodeAt(i % 3))],
    ['incompressible (long literal runs)', bytes(50_000, 256)],
    ['text', text],
    ['offsets near 64 KiB', far],
  ];
}

/** lz4-napi's own compressor: blocks as another LZ4 implementation writes them (its raw length first). */
function nativeBlock(input: Uint8Array): Uint8Array {
  const { compressSync } = createRequire(import.meta.url)('lz4-napi') as { compressSync(data: Buffer): Buffer };
  return Buffer.concat([Buffer.of(LZ4_BLOCK_MARK), compressSync(Buffer.from(input))]);
}

test('LZ4 blocks written by lz4-napi and in JavaScript read back with either decoder', { skip: NATIVE_LZ4 ? false : 'lz4-napi has no build for this platform: only the JavaScript codec runs' }, () => {
  for (const [name, input] of inputs()) {
    for (const writeNative of [true, false]) {
      const block = writeNative ? nativeBlock(input) : compressStoredBlock(input);
      assert.equal(block[0], LZ4_BLOCK_MARK, name);
      for (const readNative of [true, false]) {
        assert.deepEqual(Buffer.from(decompressStoredBlock(block, readNative)), Buffer.from(input), `${name}: written ${writeNative ? 'natively' : 'in JS'}, read ${readNative ? 'natively' : 'in JS'}`);
      }
    }
  }
});

test('the JavaScript codec alone round-trips every input and compresses what repeats', () => {
  for (const [name, input] of inputs()) {
    const block = compressStoredBlock(input);
    assert.deepEqual(Buffer.from(decompressStoredBlock(block, false)), Buffer.from(input), name);
  }
  const zeros = compressStoredBlock(new Uint8Array(100_000));
  assert.ok(zeros.length < 1_000, `100,000 zeros took ${zeros.length} bytes`);
});

test('a truncated or corrupt LZ4 block is refused, not read past', () => {
  const [, text] = inputs().find(([name]) => name === 'text')!;
  const block = compressStoredBlock(text);
  assert.throws(() => decompressStoredBlock(block.subarray(0, block.length - 40), false), RangeError);
  const corrupt = block.slice();
  corrupt[corrupt.length >> 1] ^= 0xff;
  corrupt[(corrupt.length >> 1) + 1] ^= 0xff;
  try {
    const raw = decompressStoredBlock(corrupt, false);
    assert.notDeepEqual(Buffer.from(raw), Buffer.from(text)); // a corruption that still parses reads wrong bytes, never past the block
  } catch (error) {
    assert.ok(error instanceof RangeError);
  }
});

test('a deflate stream never starts with the LZ4 mark, so each block tells its codec', () => {
  for (const [name, input] of inputs()) {
    for (const level of [0, 1, 4, 9]) assert.notEqual(deflateRawSync(input, { level })[0], LZ4_BLOCK_MARK, `${name} at level ${level}`);
  }
});

function storedDocs(prefix: string, count: number): IndexDocument[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `${prefix}${i}`,
    title: i % 3 === 0 ? null : `Title ${prefix} ${i}`,
    text: `the stored text of ${prefix} number ${i} `.repeat(1 + (i % 40)),
    metadata: { n: i, tag: [`t${i % 7}`] },
    pages: null,
    format: 'text',
    bytes: 100 + i,
    indexedAt: '2026-12-07T00:00:00.000Z',
  }));
}

function storedSection(docs: readonly IndexDocument[], codec: 'lz4' | 'deflate'): StoredFieldsReader {
  const writer = new StoredFieldsWriter(codec);
  for (const document of docs) writer.add({ document, pageStarts: null });
  const { blocks, index } = writer.finish();
  return new StoredFieldsReader(blocks, index);
}

test('stored blocks of an older layout (deflate) and LZ4 ones, merged one after the other, read back every document', () => {
  const old = storedDocs('old', 400);
  const fresh = storedDocs('new', 300);
  const merged = concatStoredFields([storedSection(old, 'deflate'), storedSection(fresh, 'lz4'), storedSection(old.slice(0, 50), 'deflate')]);
  const all = [...old, ...fresh, ...old.slice(0, 50)];
  const blocks = Buffer.concat(merged.blocks);
  const reader = new StoredFieldsReader(blocks, merged.index);
  for (let doc = 0; doc < all.length; doc++) assert.deepEqual(reader.read(doc).document, all[doc], `doc ${doc}`);
  const { blocks: encoded, index, blockCount } = reader.encoded();
  const marks = Array.from({ length: blockCount }, (_, block) => encoded[index[block * 2 + 1]] === LZ4_BLOCK_MARK);
  assert.ok(marks.includes(true) && marks.includes(false), 'both codecs are in the merged section');
});
