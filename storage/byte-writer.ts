// A growable little-endian byte buffer for building index files: fixed-width integers,
// LEB128 varints, raw bytes and alignment padding. Writers append; `finish` returns the bytes.

import { growArray, newArray } from './large-arrays.ts';

const INITIAL_CAPACITY = 4096;
const textEncoder = new TextEncoder();

export class ByteWriter {
  private buffer: Uint8Array;
  private view: DataView;
  private used = 0;

  constructor(initialCapacity = INITIAL_CAPACITY) {
    this.buffer = newArray(Uint8Array, Math.max(16, initialCapacity));
    this.view = new DataView(this.buffer.buffer);
  }

  get length(): number {
    return this.used;
  }

  /** Makes room for `extra` more bytes. */
  ensure(extra: number): void {
    const needed = this.used + extra;
    if (needed <= this.buffer.length) return;
    let capacity = this.buffer.length * 2;
    while (capacity < needed) capacity *= 2;
    this.buffer = growArray(this.buffer, capacity, this.used);
    this.view = new DataView(this.buffer.buffer, this.buffer.byteOffset, this.buffer.byteLength);
  }

  writeU8(value: number): void {
    this.ensure(1);
    this.buffer[this.used++] = value;
  }

  writeU16(value: number): void {
    this.ensure(2);
    this.view.setUint16(this.used, value, true);
    this.used += 2;
  }

  writeU32(value: number): void {
    this.ensure(4);
    this.view.setUint32(this.used, value, true);
    this.used += 4;
  }

  /** Writes an unsigned integer up to 2^53 as two u32 halves (low first). */
  writeU64(value: number): void {
    this.ensure(8);
    this.view.setUint32(this.used, value >>> 0, true);
    this.view.setUint32(this.used + 4, Math.floor(value / 0x1_0000_0000), true);
    this.used += 8;
  }

  writeF64(value: number): void {
    this.ensure(8);
    this.view.setFloat64(this.used, value, true);
    this.used += 8;
  }

  /** Unsigned LEB128; values up to 2^53. */
  writeVarint(value: number): void {
    this.ensure(8);
    while (value >= 0x80) {
      this.buffer[this.used++] = (value & 0x7f) | 0x80;
      value = value > 0xffffffff ? Math.floor(value / 128) : value >>> 7;
    }
    this.buffer[this.used++] = value;
  }

  writeBytes(bytes: Uint8Array): void {
    this.ensure(bytes.length);
    this.buffer.set(bytes, this.used);
    this.used += bytes.length;
  }

  /** A varint byte length followed by the UTF-8 bytes. */
  writeString(value: string): void {
    const bytes = textEncoder.encode(value);
    this.writeVarint(bytes.length);
    this.writeBytes(bytes);
  }

  /** Pads with zero bytes up to a multiple of `alignment`. */
  align(alignment: number): void {
    const padding = (alignment - (this.used % alignment)) % alignment;
    this.ensure(padding);
    this.buffer.fill(0, this.used, this.used + padding);
    this.used += padding;
  }

  /** Direct access for codecs that write in place: reserve `count` bytes, get the offset. */
  reserve(count: number): number {
    this.ensure(count);
    const at = this.used;
    this.used += count;
    return at;
  }

  get bytes(): Uint8Array {
    return this.buffer;
  }

  /** The written bytes (a view; do not write to the ByteWriter afterwards). */
  /** Empties the writer, keeping its buffer (views `finish` gave are overwritten by later writes). */
  reset(): void {
    this.used = 0;
  }

  finish(): Uint8Array {
    return this.buffer.subarray(0, this.used);
  }
}
