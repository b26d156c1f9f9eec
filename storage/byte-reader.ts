// Reads what ByteWriter wrote: little-endian integers, LEB128 varints, byte ranges and strings,
// from a Uint8Array view (zero-copy; suitable for a memory-mapped buffer).

const textDecoder = new TextDecoder();

export class ByteReader {
  readonly buffer: Uint8Array;
  private readonly view: DataView;
  pos: number;

  constructor(buffer: Uint8Array, offset = 0) {
    this.buffer = buffer;
    this.view = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
    this.pos = offset;
  }

  get remaining(): number {
    return this.buffer.length - this.pos;
  }

  readU8(): number {
    return this.buffer[this.pos++];
  }

  readU16(): number {
    const value = this.view.getUint16(this.pos, true);
    this.pos += 2;
    return value;
  }

  readU32(): number {
    const value = this.view.getUint32(this.pos, true);
    this.pos += 4;
    return value;
  }

  readU64(): number {
    const low = this.view.getUint32(this.pos, true);
    const high = this.view.getUint32(this.pos + 4, true);
    this.pos += 8;
    return high * 0x1_0000_0000 + low;
  }

  readF64(): number {
    const value = this.view.getFloat64(this.pos, true);
    this.pos += 8;
    return value;
  }

  readVarint(): number {
    const buffer = this.buffer;
    let byte = buffer[this.pos++];
    if (byte < 0x80) return byte;
    let value = byte & 0x7f;
    let shift = 7;
    for (;;) {
      byte = buffer[this.pos++];
      if (byte === undefined) throw new RangeError('varint runs past the end of the buffer');
      value += shift < 28 ? (byte & 0x7f) << shift : (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
      shift += 7;
      if (shift > 56) throw new RangeError('varint is too long');
    }
  }

  readBytes(count: number): Uint8Array {
    if (this.pos + count > this.buffer.length) throw new RangeError('read past the end of the buffer');
    const bytes = this.buffer.subarray(this.pos, this.pos + count);
    this.pos += count;
    return bytes;
  }

  readString(): string {
    const length = this.readVarint();
    return textDecoder.decode(this.readBytes(length));
  }
}
