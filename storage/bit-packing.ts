// Fixed-width bit packing of unsigned 32-bit integers, the block codec of postings lists:
// `count` values of `bits` bits each are written LSB-first into little-endian 32-bit words.

import type { ByteWriter } from './byte-writer.ts';

/** Number of values per packed block in postings lists. */
export const BLOCK_SIZE = 128;

/** Bits needed to represent `max` (0 for 0). */
export function bitsNeeded(max: number): number {
  return max === 0 ? 0 : 32 - Math.clz32(max);
}

/** Bits needed for the largest of the first `count` values. */
export function bitsForValues(values: ArrayLike<number>, count: number): number {
  let or = 0;
  for (let i = 0; i < count; i++) or |= values[i];
  return bitsNeeded(or >>> 0);
}

/** Bytes a packed run of `count` values at `bits` bits takes. */
export function packedByteLength(count: number, bits: number): number {
  return Math.ceil((count * bits) / 32) * 4;
}

/** Appends `count` values packed at `bits` bits each (nothing for 0 bits). */
export function packBlock(values: ArrayLike<number>, count: number, bits: number, writer: ByteWriter): void {
  if (bits === 0 || count === 0) return;
  const at = writer.reserve(packedByteLength(count, bits));
  const out = writer.bytes;
  let word = 0;
  let used = 0;
  let o = at;
  for (let i = 0; i < count; i++) {
    const value = values[i] >>> 0;
    word = (word | (value << used)) >>> 0;
    used += bits;
    if (used >= 32) {
      out[o] = word & 0xff;
      out[o + 1] = (word >>> 8) & 0xff;
      out[o + 2] = (word >>> 16) & 0xff;
      out[o + 3] = word >>> 24;
      o += 4;
      used -= 32;
      word = used > 0 ? value >>> (bits - used) : 0;
    }
  }
  if (used > 0) {
    out[o] = word & 0xff;
    out[o + 1] = (word >>> 8) & 0xff;
    out[o + 2] = (word >>> 16) & 0xff;
    out[o + 3] = word >>> 24;
  }
}

function readWord(buffer: Uint8Array, offset: number): number {
  return (buffer[offset] | (buffer[offset + 1] << 8) | (buffer[offset + 2] << 16) | (buffer[offset + 3] << 24)) >>> 0;
}

/**
 * Reads `count` values of `bits` bits from `buffer` at `offset` into `out`.
 * Returns the offset just past the packed run.
 */
export function unpackBlock(buffer: Uint8Array, offset: number, count: number, bits: number, out: Uint32Array): number {
  if (bits === 0) {
    out.fill(0, 0, count);
    return offset;
  }
  const mask = bits === 32 ? 0xffffffff : (1 << bits) - 1;
  let o = offset;
  let word = readWord(buffer, o);
  let bitPos = 0;
  for (let i = 0; i < count; i++) {
    let value = word >>> bitPos;
    const end = bitPos + bits;
    if (end >= 32) {
      o += 4;
      const spill = end - 32;
      if (spill > 0) {
        word = readWord(buffer, o);
        value |= word << (bits - spill);
      } else if (i + 1 < count) {
        word = readWord(buffer, o);
      }
      bitPos = spill;
    } else {
      bitPos = end;
    }
    out[i] = (value & mask) >>> 0;
  }
  return offset + packedByteLength(count, bits);
}
