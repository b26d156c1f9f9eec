// How a stored block is compressed. From layout 7 a block is LZ4: the byte LZ4_BLOCK_MARK, the
// raw length (u32, little-endian) and an LZ4 block — faster to write than deflate and, with the
// native decoder, 2–3× faster to read, for stored sections 1.4–1.5× larger (measured on the
// synthetic corpus). Blocks of older segments are raw deflate streams; merges copy blocks as
// they are, so a segment may hold both, and each block says which it is by its first byte: a
// deflate stream never starts with 0xFF (its first block header would have type 3, which
// deflate forbids). Blocks are written by lz4-block.ts in JavaScript (lz4-napi's compressor
// allocates outside the heap on every call, and a build's RSS grew by 80–90 MiB with it) and
// read by lz4-napi's prebuilt native decoder where it loads, else by lz4-block.ts.

import { createRequire } from 'node:module';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { lz4CompressBlock, lz4CompressBound, lz4DecompressBlock } from './lz4-block.ts';

/** The first byte of an LZ4 stored block. */
export const LZ4_BLOCK_MARK = 0xff;
const HEADER_BYTES = 5;
const DEFLATE_LEVEL = 4;

interface NativeLz4 {
  /** Reads the raw length (u32, little-endian), then the LZ4 block. */
  uncompressSync(data: Uint8Array): Buffer;
}

function loadNative(): NativeLz4 | null {
  try {
    return createRequire(import.meta.url)('lz4-napi') as NativeLz4;
  } catch {
    return null;
  }
}

const native = loadNative();

/** Whether stored blocks are read by native code here (else by lz4-block.ts). */
export const NATIVE_LZ4 = native !== null;

/** How a block is written: LZ4 (every new segment), or deflate (as layouts before 7 were). */
export type StoredBlockCodec = 'lz4' | 'deflate';

/** Where blocks are compressed before they are copied out at their size (grown as needed). */
let scratch = new Uint8Array(0);

/** `raw` compressed as a stored block. */
export function compressStoredBlock(raw: Uint8Array, codec: StoredBlockCodec = 'lz4'): Uint8Array {
  if (codec === 'deflate') return deflateRawSync(raw, { level: DEFLATE_LEVEL });
  const bound = HEADER_BYTES + lz4CompressBound(raw.length);
  if (scratch.length < bound) scratch = new Uint8Array(bound);
  scratch[0] = LZ4_BLOCK_MARK;
  new DataView(scratch.buffer).setUint32(1, raw.length, true);
  const length = lz4CompressBlock(raw, scratch.subarray(HEADER_BYTES));
  return scratch.slice(0, HEADER_BYTES + length);
}

/** The raw bytes of a stored block, whichever codec wrote it. */
export function decompressStoredBlock(block: Uint8Array, useNative = NATIVE_LZ4): Uint8Array {
  if (block[0] !== LZ4_BLOCK_MARK) return inflateRawSync(block);
  if (useNative && native !== null) return native.uncompressSync(block.subarray(1));
  const rawLength = new DataView(block.buffer, block.byteOffset, block.byteLength).getUint32(1, true);
  const raw = new Uint8Array(rawLength);
  lz4DecompressBlock(block, HEADER_BYTES, block.length, raw);
  return raw;
}
